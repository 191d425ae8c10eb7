"""How the page policy (scripts/checks/markup/html_policy.py) reads markup: a page body as a browser builds it and as its
tags say, which must agree, and an SVG file as the XML a browser reads; each as a list of `Element`s.

`parse_body(text, scripting, plain)` is the tree Lexbor (selectolax; the WHATWG HTML algorithm in C, as
browsers parse) builds from a page body inside a <div> of <body>, <template> contents included. Each
element's namespace (HTML, SVG, MathML) follows from its parent by the standard's rule (`namespace`), so
`<svg><script>`, `<svg><a>` and `<math><mtext><a>` are told apart.

`read_tags(text, scripting)` reads the body's start and end tags, attributes, comments and raw text (script,
style, textarea…, noscript when scripting is on) as the standard's tokenizer does, and stops at the first
place where a parser must recover from an error: a bare `<`, `<!DOCTYPE`, `<?…>` (which Lexbor, unlike
browsers, reads as a processing instruction), a malformed comment, tag or attribute, a repeated attribute, an
`&` that starts no known reference ending in `;`, a reference to a control character, a control or
non-character code point anywhere, an end tag that closes something else than the element last opened (so no
end tag is implied, dropped or made up), an element never closed, `/>` on an HTML element that is not void.
It also stops where parsers of different ages disagree although the tags nest: anything but
<option>/<optgroup> in a <select> (older parsers drop it, newer ones keep it), an element or text that a
table would push out of itself.

`tree_problem(tags, built, text)` then compares those tags with the tree the parser built (each element's
name, parent and attributes, in document order): an element implied (a <tbody>), moved (foster parenting,
the adoption agency, HTML breaking out of SVG) or dropped shows as the first difference. Either finding is a
`Problem` at an offset of the text. A body with none is a tree every parser builds alike.

`xml_elements(root)` is an SVG file's elements as expat read them, namespaces and attributes named the same
way.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.entities import html5 as NAMED_REFERENCES
from typing import NamedTuple, cast

from selectolax.lexbor import LexborHTMLParser, LexborNode

HTML, SVG, MATHML = "html", "svg", "math"
HTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XMLNS_NS = "http://www.w3.org/2000/xmlns/"
MATHML_NS = "http://www.w3.org/1998/Math/MathML"
# An XML namespace by the name the HTML parser gives it.
NAMESPACES = {HTML_NS: HTML, SVG_NS: SVG, MATHML_NS: MATHML}
# How a namespaced attribute is written in the source (expat gives "{namespace}name").
ATTRIBUTE_PREFIXES = {XLINK_NS: "xlink:", XML_NS: "xml:", XMLNS_NS: "xmlns:"}

VOID_ELEMENTS = {
    *("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"),
    *("basefont", "bgsound", "frame", "keygen", "param"),
}
# HTML elements whose content the tokenizer reads as text up to their end tag (noscript too, with scripting on).
RAW_TEXT_ELEMENTS = {"script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title", "plaintext"}
ESCAPABLE_RAW_TEXT = {"textarea", "title"}  # their character references are decoded
# Foreign elements whose children are HTML again (HTML integration points, MathML text integration points).
SVG_HTML_POINTS = {"foreignobject", "desc", "title"}
MATHML_TEXT_POINTS = {"mi", "mo", "mn", "ms", "mtext"}
# HTML start tags that close every open SVG/MathML element in the way (the parser breaks out of foreign content).
BREAKOUT_ELEMENTS = {
    *("b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed"),
    *("h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr"),
    *("ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u"),
    *("ul", "var"),
}
# What a parser keeps inside these HTML elements: anything else a table pushes out of itself, and a <select>
# keeps or drops depending on the parser's age (the "customizable select" of 2025).
ONLY_CHILDREN = {
    "table": {"caption", "colgroup", "thead", "tbody", "tfoot", "script"},
    **{part: {"tr", "script"} for part in ("thead", "tbody", "tfoot")},
    "tr": {"td", "th", "script"},
    "colgroup": {"col"},
    "select": {"option", "optgroup"},
    "optgroup": {"option"},
    "option": set(),
}
TEXTLESS_ELEMENTS = {"table", "thead", "tbody", "tfoot", "tr", "colgroup"}  # text in them is pushed out

_SPACE = "\t\n\f\r "
# An attribute as the tokenizer reads it: whitespace before it, a name, and maybe "=" and a value (double-
# or single-quoted, or unquoted without the characters the standard calls errors there).
_ATTRIBUTE_SOURCE = (
    r"""[\t\n\f\r ]+([^\t\n\f\r />"'<=][^\t\n\f\r />"'<=]*)"""
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r >"'<=`]+)))?"""
)
_ATTRIBUTE = re.compile(_ATTRIBUTE_SOURCE)
_ATTRIBUTES_SOURCE = r"(?>" + re.sub(r"\((?!\?)", "(?:", _ATTRIBUTE_SOURCE) + r")*+"  # any number, atomic
# One token from a "<": a comment, an end tag, a start tag with its attributes (atomic: a tag that does not
# close fails in linear time), or nothing (a "<" that starts none of them, which is an error).
_TOKEN = re.compile(
    r"<(?:!--(?P<comment>.*?)-->"
    r"|/(?P<end>[A-Za-z][^\t\n\f\r />]*)[\t\n\f\r ]*>"
    r"|(?P<start>[A-Za-z][^\t\n\f\r />]*)(?P<attributes>" + _ATTRIBUTES_SOURCE + r")"
    r"[\t\n\f\r ]*(?P<slash>/?)>)?",
    re.S,
)
# A start tag that runs on past the end of its line (`<div class="x" and then text`), matched on a lowercased
# source line; not one right after a backtick (inline code). Markdown reads the page's later lines as part of it,
# and the parser first has to recover far below, often in markup a view generated, which no source line holds.
UNCLOSED_START_TAG = r"(?<!`)<[a-z][^\t\n\f\r />]*" + _ATTRIBUTES_SOURCE + r"[\t\n\f\r ]*$"
# Where the text of a raw-text element ends: its end tag's name, then whitespace, "/" or ">" (<plaintext>
# never ends).
_RAW_TEXT_END = {
    name: re.compile(rf"</{name}(?=[\t\n\f\r />])", re.IGNORECASE)
    for name in RAW_TEXT_ELEMENTS | {"noscript"}
    if name != "plaintext"
}
# An "&" that is not plain text (followed by whitespace, "<", "&" or nothing), with what may be a reference.
_REFERENCE = re.compile(r"&(?![\t\n\f\r <&]|$)(#[xX][0-9A-Fa-f]*|#[0-9]*|[A-Za-z0-9]*)(;?)")
# Code points the input stream may not hold: controls other than whitespace, lone surrogates, non-characters.
# (Those beyond the BMP are looked for only in a text that has any: a class holding them is slow to search.)
_BAD_CODE_POINT = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")
_BAD_BEYOND_BMP = re.compile(
    "[" + "".join(chr(n * 0x10000 + 0xFFFE) + chr(n * 0x10000 + 0xFFFF) for n in range(1, 17)) + "]"
)


class Element(NamedTuple):
    """An element as the policy judges it: its namespace (html, svg, math, another XML namespace, or None),
    name, attributes (as written: "xlink:href"), its parent's name (None at the top) and, for a script, its
    text."""

    namespace: str | None
    name: str
    attributes: dict[str, str]
    parent: str | None
    text: str = ""


class Body(NamedTuple):
    """A page body as the parser built it: each element in document order as `tree_problem` compares it with
    the tags (lowercase name, parent index, attributes), the index of each element at the top, and the
    `Element`s the policy must look at."""

    built: list[tuple[str, int, dict[str, str]]]
    top: list[int]
    elements: list[Element]


class Tags(NamedTuple):
    """The elements a body's tags say, in document order: each as (lowercase name, parent index or -1 at the
    top, attributes with lowercase names and references decoded), its namespace, and where its tag begins."""

    elements: list[tuple[str, int, dict[str, str]]]
    namespaces: list[str]
    offsets: list[int]


class Problem(NamedTuple):
    """Where the text needs a parser to recover (or parsers disagree): offset, what, and the markup written
    there (most precise first, each on one line)."""

    offset: int
    message: str
    markup: tuple[str, ...]


def namespace(parent: tuple[str, str, dict] | None, name: str, attributes: dict) -> str:
    """The namespace of element `name` (lowercase) created inside `parent` (namespace, lowercase name,
    attributes; None: the top of a body, inside a <div>)."""
    parent_ns, parent_name, parent_attributes = parent or (HTML, "div", {})
    if parent_ns == MATHML and parent_name == "annotation-xml" and name == "svg":
        return SVG
    html_rules = (
        parent_ns == HTML
        or (parent_ns == SVG and parent_name in SVG_HTML_POINTS)
        or (parent_ns == MATHML and parent_name in MATHML_TEXT_POINTS and name not in ("mglyph", "malignmark"))
        or (
            parent_ns == MATHML
            and parent_name == "annotation-xml"
            and (parent_attributes.get("encoding") or "").lower() in ("text/html", "application/xhtml+xml")
        )
        or name in BREAKOUT_ELEMENTS
        or (name == "font" and not {"color", "face", "size"}.isdisjoint(attributes))
    )
    if not html_rules:
        return parent_ns
    return SVG if name == "svg" else MATHML if name == "math" else HTML


def parse_body(text: str, scripting: bool, plain: dict[str, frozenset[str]]) -> Body:
    """The tree a browser builds from `text` inside a <div> of <body> (<template> contents last). An HTML
    element whose attributes are all among `plain[its name]` is left out of `Body.elements` (the policy
    has nothing to look at there: nearly every element of a page)."""
    body = Body([], [], [])
    built, judged = body.built, body.elements
    spaces: list[str] = []  # each element's namespace
    first = LexborHTMLParser(text, is_fragment=True, scripting=scripting).root
    walks: list[tuple[Iterator[LexborNode], LexborNode | None]] = [(first.traverse(), None)] if first else []
    index: dict[int, int] = {}  # an element's place in the lists, by its node's identity
    for walk, template in walks:
        for node in walk:
            name = node.tag
            if not name or name[0] == "-":  # comments and the like
                continue
            parent = node.parent
            at = index.get(parent.mem_id, -1) if parent is not None else -1
            if at < 0 and template is not None:  # the top of a template's contents: their fragment
                at = index[template.mem_id]
            written = node.attributes
            attributes = cast(dict[str, str], written)
            if None in written.values():  # an attribute without a value
                attributes = {key: value or "" for key, value in written.items()}
            lower = name.lower()
            if at < 0 or spaces[at] == HTML:  # the usual case, spelled out for speed
                space = SVG if lower == "svg" else MATHML if lower == "math" else HTML
            else:
                space = namespace((spaces[at], built[at][0], built[at][2]), lower, attributes)
            index[node.mem_id] = len(built)
            built.append((lower, at, attributes if space == HTML else {k.lower(): v for k, v in attributes.items()}))
            spaces.append(space)
            if at < 0:
                body.top.append(len(built) - 1)
            allowed = plain.get(name) if space == HTML else None
            if allowed is None or not attributes.keys() <= allowed:
                script = node.text() if lower == "script" else ""
                judged.append(Element(space, name, attributes, built[at][0] if at >= 0 else None, script))
            if lower == "template" and space == HTML:  # its contents are a fragment of their own
                walks += [(fragment.traverse(), node) for fragment in node.template_fragments()]
    return body


def local_name(tag: str) -> tuple[str | None, str]:
    """An XML tag or attribute as (namespace URI or None, local name): "{uri}name" -> ("uri", "name")."""
    if tag.startswith("{"):
        namespace, _, name = tag[1:].partition("}")
        return namespace, name
    return None, tag


def _attribute_name(key: str) -> str:
    """An attribute as written: "{xlink}href" -> "xlink:href", "{xmlns}xmlns" -> "xmlns"."""
    namespace, name = local_name(key)
    if namespace is None:
        return name
    if namespace == XMLNS_NS and name == "xmlns":
        return "xmlns"
    return ATTRIBUTE_PREFIXES.get(namespace, namespace + ":") + name


def xml_elements(root: ET.Element) -> list[Element]:
    """The elements of an XML tree (an SVG file), each with its parent's name."""
    elements = []
    for parent, element in [(None, root)] + [(outer, inner) for outer in root.iter() for inner in outer]:
        uri, name = local_name(element.tag)
        attributes = {_attribute_name(key): value for key, value in element.attrib.items()}
        parent_name = local_name(parent.tag)[1] if parent is not None else None
        space = NAMESPACES.get(uri, uri) if uri else None
        elements.append(Element(space, name, attributes, parent_name, element.text or ""))
    return elements


def _markup(text: str, start: int, end: int | None = None) -> tuple[str, str]:
    """What is written from `start` (to `end`, or the next 40 characters) on its line: with up to 30
    characters before it on that line, and alone."""
    alone = text[start : end if end is not None else start + 40].split("\n")[0]
    before = text[max(text.rfind("\n", 0, start) + 1, start - 30) : start]
    return before + alone, alone


def _reference_problem(match: re.Match) -> str | None:
    body, semicolon = match.group(1), match.group(2)
    if not body.startswith("#"):
        known = body and semicolon and body + ";" in NAMED_REFERENCES
        return None if known else "an '&' that starts no known character reference ending in ';' (write &amp;)"
    digits = body[2:] if body[1:2] in ("x", "X") else body[1:]
    if not digits or not semicolon:
        return "a numeric character reference without digits or ';'"
    code = int(digits, 16 if body[1:2] in ("x", "X") else 10)
    if code > 0x10FFFF or code == 0x0D or _BAD_CODE_POINT.match(chr(code)) or _BAD_BEYOND_BMP.match(chr(code)):
        return "a character reference to a control character or non-character"
    return None


def _text_problem(text: str, literal: list[tuple[int, int]]) -> Problem | None:
    """The first bad code point anywhere, or bad character reference outside comments and raw text."""
    found = []
    bad = _BAD_CODE_POINT.search(text) or (_BEYOND_BMP.search(text) and _BAD_BEYOND_BMP.search(text))
    if bad:
        found.append(Problem(bad.start(), f"the code point U+{ord(bad.group()):04X} may not appear in HTML", ()))
    starts = [start for start, _ in literal]
    for match in _REFERENCE.finditer(text):
        at = bisect.bisect_right(starts, match.start()) - 1
        if at >= 0 and match.start() < literal[at][1]:
            continue
        problem = _reference_problem(match)
        if problem:
            found.append(Problem(match.start(), problem, _markup(text, match.start(), match.end())))
            break
    return min(found, default=None)


@functools.lru_cache(maxsize=4096)
def _attributes(written: str) -> tuple[dict[str, str], bool]:
    """The attributes written after a tag's name, and whether one is repeated (cached: most tags of a page
    repeat a few class names; a result is never changed)."""
    found = _ATTRIBUTE.findall(written)
    attributes = {}
    for name, double, single, bare in found:
        value = double or single or bare
        attributes[name.lower()] = html.unescape(value) if "&" in value else value
    return attributes, len(attributes) < len(found)


def read_tags(text: str, scripting: bool) -> tuple[Tags, Problem | None]:
    """The elements `text` opens, as its tags nest, and the first place a parser would recover (or None)."""
    tags = Tags([], [], [])
    elements, namespaces, offsets = tags
    open_: list[int] = []  # indexes of the open elements, innermost last
    top, top_name, top_ns = -1, "", HTML  # the innermost open element
    literal: list[tuple[int, int]] = []  # comments and raw text: no character references there
    pos = 0  # where the text after the last token begins

    def problem(offset: int, message: str, end: int | None = None, *more: str) -> tuple[Tags, Problem]:
        return tags, Problem(offset, message, _markup(text, offset, end) + more)

    while token := _TOKEN.search(text, pos):
        lt, kind = token.start(), token.lastgroup
        if top_name in TEXTLESS_ELEMENTS and top_ns == HTML and text[pos:lt].strip(_SPACE):
            return problem(pos, f"text directly inside <{top_name}> (the parser moves it out)", lt)
        pos = token.end()
        if kind == "slash":  # a start tag
            name, written, slash = token.group("start", "attributes", "slash")
            name = name.lower()
            attributes, repeated = _attributes(written)
            if repeated:
                return problem(lt, f"an attribute of <{name}> is repeated", pos)
            if top_ns == HTML:  # the usual case, spelled out for speed
                ns = SVG if name == "svg" else MATHML if name == "math" else HTML
            else:
                ns = namespace((top_ns, top_name, elements[top][2]), name, attributes)
            if top_ns == HTML and top_name in ONLY_CHILDREN and name not in ONLY_CHILDREN[top_name]:
                why = f"<{name}> inside <{top_name}> (parsers move, drop or keep it)"
                return problem(offsets[top], why, pos, *_markup(text, lt, pos))
            elements.append((name, top, attributes))
            namespaces.append(ns)
            offsets.append(lt)
            if ns == HTML and name in VOID_ELEMENTS:
                continue
            if slash:
                if ns == HTML:
                    return problem(lt, f"<{name} … /> does not close an HTML element", pos)
                continue
            if ns == HTML and (name in RAW_TEXT_ELEMENTS or (name == "noscript" and scripting)):
                ends = _RAW_TEXT_END[name].search(text, pos) if name in _RAW_TEXT_END else None
                if not ends or (name == "script" and "<!--" in text[pos : ends.start()]):
                    return problem(lt, f"<{name}> whose text is never closed (or holds '<!--')", pos)
                if name not in ESCAPABLE_RAW_TEXT:
                    literal.append((pos, ends.start()))
                pos = ends.start()
            top, top_name, top_ns = len(elements) - 1, name, ns
            open_.append(top)
        elif kind == "end":
            name = token.group("end").lower()
            if name != top_name:
                # Where it was written: this end tag with what precedes it, the start tag of the element still
                # open (on a page, an element left open is the likelier mistake), then the end tag alone.
                near, alone = _markup(text, lt, pos)
                due = _markup(text, offsets[top], text.find(">", offsets[top]) + 1)[1:] if open_ else ()
                message = f"the end tag </{name}> where {f'</{top_name}>' if open_ else 'nothing'} is due"
                return tags, Problem(lt, message, (near, *due, alone))
            open_.pop()
            top = open_[-1] if open_ else -1
            top_name, top_ns = (elements[top][0], namespaces[top]) if open_ else ("", HTML)
        elif kind == "comment":
            body = token.group("comment")
            if "--" in body or body.startswith((">", "->")) or body.endswith("-"):
                return problem(lt, "a malformed comment ('--' inside it, or '<!-->')", pos)
            literal.append((lt, pos))
        else:
            return problem(lt, "a '<' that starts no tag or comment (write &lt;), or a malformed tag, <!…> or <?…>")
    if open_:
        return problem(offsets[top], f"<{top_name}> is never closed")
    return tags, _text_problem(text, literal)


def tree_problem(tags: Tags, built: list[tuple[str, int, dict[str, str]]], text: str) -> Problem | None:
    """The first element where the tree a parser `built` (as `Tags.elements`) differs from the tree the `tags`
    say, or None."""
    if built == tags.elements:
        return None
    for index, (name, parent, attributes) in enumerate(built):
        if index >= len(tags.elements):
            return Problem(len(text), f"the parser adds <{name}>, which no tag opens", ())
        said, offset = tags.elements[index], tags.offsets[index]
        where = _markup(text, offset, text.find(">", offset) + 1)
        if name != said[0]:
            return Problem(offset, f"the parser builds <{name}> where the tags say <{said[0]}>", where)
        if parent != said[1]:
            return Problem(offset, f"the parser moves <{name}> out of the element its tags put it in", where)
        if attributes != said[2]:
            return Problem(offset, f"the parser reads the attributes of <{name}> otherwise", where)
    offset = tags.offsets[len(built)]
    where = _markup(text, offset, text.find(">", offset) + 1)
    return Problem(offset, f"the parser drops <{tags.elements[len(built)][0]}>", where)
