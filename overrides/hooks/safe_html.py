"""A last line of defence: refuse to build a page whose content would run script.

Every text field is escaped where it is rendered (scripts/render.py), so nothing here should ever fire for
front matter; this catches what slips through any other way (raw HTML in a page body, a future renderer
that forgets to escape): a <script> that is not a JSON data island, an inline event handler (onclick=…,
onerror=…), or a javascript:/vbscript:/data: URL in a link or source. The page and what was found are named;
the build stops.
"""

import html
import re

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "srcset"}
BAD_URL = re.compile(r"^[\s\x00-\x1f]*(javascript|vbscript|data):", re.IGNORECASE)
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json"}
FOREIGN_TAGS = {"iframe", "object", "embed", "base", "meta"}
# A start tag and its attributes, as browsers read them (regular expressions: the whole site's pages are
# scanned in a fraction of the time html.parser takes). Escaped text holds no "<", so it is never a tag.
TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*/?>")
ATTRIBUTE = re.compile(r"([^\s>/=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+))?")


def unsafe_markup(content: str) -> list[str]:
    found: list[str] = []
    for tag in TAG.finditer(content):
        name = tag.group(1).lower()
        attributes = {}
        for attribute in ATTRIBUTE.finditer(tag.group(2)):
            key = attribute.group(1).lower()
            value = html.unescape((attribute.group(2) or "").strip("\"'"))
            attributes[key] = value
            if key.startswith("on"):
                found.append(f"<{name} {key}=…> (an inline event handler)")
            elif key in URL_ATTRIBUTES and BAD_URL.match(value):
                found.append(f'<{name} {key}="{value[:40]}">')
        if name == "script" and attributes.get("type", "").lower() not in DATA_SCRIPT_TYPES:
            found.append("<script> (only JSON data islands may appear in page content)")
        if name in FOREIGN_TAGS:
            found.append(f"<{name}>")
    return found


@event_priority(-200)  # after every hook that adds content
def on_page_content(html, page, config, files):
    found = unsafe_markup(html)
    if found:
        raise PluginError(f"docs/{page.file.src_uri}: the rendered page would carry executable or foreign markup: {'; '.join(dict.fromkeys(found))}")
    return html
