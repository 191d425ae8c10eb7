"""One 404 page for both languages (overrides/404.html), whose chrome follows the missing URL's language.

static-i18n builds every language into the same site directory, and MkDocs writes each build's 404.html at
its root, so the last language built (English) would win. A static host serves that one file for every
missing URL, so one file must serve both languages:

- The default language's build (Chinese) is written as usual; its output is kept here.
- Each other build renders the same template with its own header, menu, search box and footer. Its output is
  compared with the default one, node by node (elements in document order; their text nodes and a few text
  attributes), and the differences are written into the default page as a JSON data island
  (`#not-found-chrome`). The template's small inline script applies them, as text and attribute values only,
  when the missing URL is under that language's prefix (`/en/…`). The URL itself never reaches the page.
- The other build's own 404.html is not written (an empty template output is skipped by MkDocs).

The two renderings come from one template, so their trees must match; if they ever do not, the build stops
rather than publish a half-translated page.

The template also gets the newest release of the catalog (`newest_release`), which it offers for a missing release
page (/releases/9.9/, /en/releases/2.16/) beside the timeline.
"""

from __future__ import annotations

import json
import sys
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import DEFAULT_LANGUAGE  # noqa: E402

TEMPLATE = "404.html"
PLACEHOLDER = '<script type="application/json" id="not-found-chrome">{}</script>'
# Attributes that carry words or links of the chrome; any other difference between the languages' trees is
# a sign they are not the same page, and stops the build.
TEXT_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "href", "hreflang", "lang"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Node:
    __slots__ = ("tag", "attrs", "texts")

    def __init__(self, tag: str, attrs: list[tuple[str, str | None]]):
        self.tag = tag
        self.attrs = {name: value or "" for name, value in attrs}
        self.texts: list[str] = []  # the element's own text nodes, in order


class _Flatten(HTMLParser):
    """The elements of <title> and of <body>, in document order as the browser's querySelectorAll('*')
    lists them, each with its own text nodes (what `childNodes` holds of type text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title: _Node | None = None
        self.body: list[_Node] = []
        self._open: list[_Node] = []
        self._in_body = False
        self._text_open = False  # consecutive data belongs to one text node

    def handle_starttag(self, tag, attrs):
        node = _Node(tag, attrs)
        self._text_open = False
        if tag == "body":
            self._in_body = True
        elif tag == "title" and not self._in_body:
            self.title = node
        if self._in_body:
            self.body.append(node)
        if tag not in VOID:
            self._open.append(node)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self._open and self._open[-1].tag == tag:
            self._open.pop()

    def handle_endtag(self, tag):
        self._text_open = False
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i].tag == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        if not self._open:
            return
        owner = self._open[-1]
        if self._text_open:
            owner.texts[-1] += data
        else:
            owner.texts.append(data)
            self._text_open = True

    def handle_comment(self, data):
        self._text_open = False


def _flatten(html: str) -> _Flatten:
    parser = _Flatten()
    parser.feed(html)
    parser.close()
    return parser


def _node_changes(index: int, mine: _Node, other: _Node, where: str) -> list[list]:
    """[element index, attribute or None, text node index, the other language's value] for each difference."""
    if mine.tag != other.tag or len(mine.texts) != len(other.texts) or set(mine.attrs) != set(other.attrs):
        raise PluginError(
            f"{TEMPLATE}: the languages' 404 pages differ in structure at {where} element {index} (<{mine.tag}> / <{other.tag}>)"
        )
    changes: list[list] = []
    for name in sorted(mine.attrs):
        if mine.attrs[name] != other.attrs[name]:
            if name not in TEXT_ATTRIBUTES:
                raise PluginError(
                    f"{TEMPLATE}: <{mine.tag} {name}> differs between the languages' 404 pages, and is not text"
                )
            changes.append([index, name, 0, other.attrs[name]])
    for position, (a, b) in enumerate(zip(mine.texts, other.texts, strict=False)):
        if a != b:
            changes.append([index, None, position, b])
    return changes


def chrome_changes(default_html: str, other_html: str, lang: str) -> dict:
    """What turns the default language's 404 page into `lang`'s: its lang, title and body differences."""
    mine, other = _flatten(default_html), _flatten(other_html)
    if len(mine.body) != len(other.body) or (mine.title is None) != (other.title is None):
        raise PluginError(
            f"{TEMPLATE}: the languages' 404 pages differ in structure ({len(mine.body)} and {len(other.body)} elements)"
        )
    body: list[list] = []
    for index, (a, b) in enumerate(zip(mine.body, other.body, strict=False)):
        # The data island itself and the scripts are the same template text; never rewrite them.
        if a.tag == "script" and a.attrs.get("id") == "not-found-chrome":
            continue
        # The language menu of the default build already leads to each language's home; another build's
        # menu points into whichever page it rendered last.
        if "md-select__link" in a.attrs.get("class", "").split():
            continue
        body += _node_changes(index, a, b, "body")
    title = "".join(other.title.texts) if other.title else ""
    return {"lang": lang, "title": title, "body": body}


def _island(data: dict) -> str:
    payload = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/").replace("<!--", "<\\!--")
    return PLACEHOLDER.replace("{}", payload)


def on_template_context(context, template_name, config):
    if template_name == TEMPLATE:
        newest = cached_catalog(config.docs_dir).releases[0]
        context["newest_release"] = {"version": newest.version, "provisional": newest.provisional}
    return context


_default_output: dict[str, str] = {}  # site_dir -> the default language's 404 page, as rendered
_changes: dict[str, dict] = {}  # site_dir -> {language: its changes}


@event_priority(-100)  # after every hook that rewrites the page (the search worker URL)
def on_post_template(output_content, template_name, config):
    if template_name != TEMPLATE:
        return output_content
    site_dir = str(config.site_dir)
    lang = config.theme["language"]
    if lang == DEFAULT_LANGUAGE:
        if output_content.count(PLACEHOLDER) != 1:
            raise PluginError(f"{TEMPLATE}: expected the chrome data island {PLACEHOLDER!r} once")
        _default_output[site_dir] = output_content
        _changes[site_dir] = {}
        return output_content
    default = _default_output.get(site_dir)
    if default is None:  # the default language was not built into this site: nothing to switch from
        return ""
    _changes[site_dir][lang] = chrome_changes(default, output_content, lang)
    (Path(site_dir) / TEMPLATE).write_text(default.replace(PLACEHOLDER, _island(_changes[site_dir])), encoding="utf-8")
    return ""
