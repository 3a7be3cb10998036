from django import template
from django.utils.safestring import SafeString, mark_safe

from training import render

register = template.Library()


@register.filter
def markdown(text: str) -> SafeString:
    """An article's Markdown as HTML (`training.render` escapes whatever could run a script)."""
    return mark_safe(render.to_html(text))  # made safe by render.to_html
