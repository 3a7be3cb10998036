"""An article's Markdown as HTML that is safe to put in a page, whoever typed it.

CommonMark (markdown-it-py) with raw HTML off: a tag typed in the text comes out as text, and
a link is made only to http:, https:, mailto: or a relative address (javascript:, vbscript:,
file:, data: and the rest stay text). Images are off too
(the site has no uploads and its Content-Security-Policy refuses other sites' images). Tables
and strikethrough are on. The article's title is the page's only h1: a # heading in the text
becomes an h2. Pure: no Django, so the tests need no database.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore


def _no_first_level_headings(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close") and token.tag == "h1":
            token.tag = "h2"


_MARKDOWN = (
    MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"]).disable("image")
)
_MARKDOWN.core.ruler.push("no_first_level_headings", _no_first_level_headings)
LINK_SCHEMES = ("http:", "https:", "mailto:")


def _ordinary_link(url: str) -> bool:
    """A link is made only to the web, to an e-mail address or within the site: markdown-it's
    own check still lets `data:image/…` through, which an article has no use for."""
    scheme, colon, _rest = url.strip().partition(":")
    if not colon or "/" in scheme or "?" in scheme or "#" in scheme:
        return True  # no scheme: a relative address
    return f"{scheme.lower()}:" in LINK_SCHEMES


_MARKDOWN.validateLink = _ordinary_link


def to_html(text: str) -> str:
    """The Markdown `text` as HTML, with anything that could run a script made harmless."""
    return _MARKDOWN.render(text)
