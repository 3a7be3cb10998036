"""`{% app_list available_apps show_changelinks %}`: admin/app_list.html, written once per
distinct list (`dsc_site.admin_site.app_list_html`)."""

from django import template

from dsc_site.admin_site import app_list_html

register = template.Library()


@register.simple_tag(takes_context=True)
def app_list(context, apps, show_changelinks=False):
    return app_list_html(context, apps, show_changelinks)
