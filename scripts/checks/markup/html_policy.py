"""What HTML a page body and an SVG file may hold, judged on the tree a browser would build, not on patterns.

A page body is parsed by Lexbor (selectolax; the WHATWG HTML algorithm in C, as browsers parse) as the
inside of a <div> in <body>, the way the template places it, with scripting on as in the reader's browser; a
body with <noscript> is also parsed with scripting off (a reader without JavaScript), so both readings must
pass. Entities are decoded by the parser, a repeated attribute keeps its first value, and
<noscript>/<xmp>/<textarea> switch the tokenizer as in Chromium, so `<script type=a type=b>`,
`jav&#x09;ascript:` or a tag hidden in an attribute that a raw-text element ends early are seen as the browser
sees them. Each element's namespace (HTML, SVG, MathML) follows from its parent by the standard's rule
(scripts/checks/markup/html_syntax.py), so `<svg><script>`, `<svg><a>` and `<math><mtext><a>` are told apart.

Then every element and attribute must be on an allowlist (`HTML_ELEMENTS`, `SVG_ELEMENTS`), and every URL
must use an allowed scheme after the clean-up browsers do (ASCII tab and newline removed anywhere, control
characters and spaces trimmed). Anything else is a `Finding`. Two more rules make the tree the same in every
browser: the body must be written without anything a parser recovers from, its tree exactly the tree its tags
say (scripts/checks/markup/html_syntax.py: a parse error, an implied, moved or dropped element, tags in <select> that older
parsers drop and newer ones keep, are refused as "HTML parse error"), and nothing may be left open at the end
of the body (it would swallow the template that follows).

SVG files are XML, held to the same SVG allowlist in scripts/checks/markup/svg_policy.py.

Nothing happens at import; `body_findings(html)` is a pure function (and `svg_policy.svg_findings(text)`).
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field

from scripts.checks.markup.html_syntax import (
    HTML,
    MATHML,
    SVG,
    UNCLOSED_START_TAG,
    Body,
    Element,
    Problem,
    parse_body,
    read_tags,
    tree_problem,
)

# Attributes any HTML element may carry; data-* and aria-* are matched by pattern.
GLOBAL_ATTRIBUTES = {"id", "class", "title", "lang", "dir", "hidden", "tabindex", "role", "translate"}
PATTERN_ATTRIBUTES = re.compile(r"^(data|aria)-[a-z0-9_.-]+$")
# Elements allowed in a page body, each with the attributes it may carry besides the global ones: what
# Markdown, its extensions (tables, admonitions, tabs, details, highlighting, toc) and this project's
# generators emit, plus ordinary text markup an author may write.
HTML_ELEMENTS: dict[str, set[str]] = {
    **{
        name: set()
        for name in (
            "abbr article aside b bdi br caption cite code dd dfn div dl dt em figcaption figure h1 h2 h3 h4 h5 "
            "h6 hr i kbd legend mark nav noscript p pre rp rt ruby s samp section small span strong sub summary "
            "sup table tbody tfoot thead tr u ul var wbr fieldset"
        ).split()
    },
    "a": {"href", "hreflang"},
    "blockquote": {"cite"},
    "q": {"cite"},
    "del": {"cite", "datetime"},
    "ins": {"cite", "datetime"},
    "bdo": {"dir"},
    "img": {"src", "alt", "width", "height", "loading", "decoding"},
    "time": {"datetime"},
    "data": {"value"},
    "label": {"for"},
    "ol": {"start", "reversed", "type"},
    "li": {"value"},
    "th": {"scope", "colspan", "rowspan", "headers", "abbr", "style"},
    "td": {"colspan", "rowspan", "headers", "style"},
    "col": {"span"},
    "colgroup": {"span"},
    "details": {"open", "name"},
    # The generated views' pickers (compare, compatibility, lifecycle). A form may not say where it goes:
    # without action/method/target it can only reload this page with its fields as the query.
    "form": set(),
    "select": {"name", "multiple", "disabled", "size", "autocomplete"},
    "option": {"value", "selected", "disabled", "label"},
    "optgroup": {"label", "disabled"},
    "button": {"type", "name", "value", "disabled"},
    "input": {"type", "name", "value", "checked", "disabled", "placeholder", "autocomplete", "readonly"},
    # Only the project's own JSON data islands (see _script_finding).
    "script": {"type"},
}
INPUT_TYPES = {"checkbox", "radio", "text", "search"}
BUTTON_TYPES = {"button", "submit", "reset"}
# The JSON data islands the generated views embed (scripts/views/upgrade.py compare(), the machine page's
# scripts/views/machine/page.py): the only scripts a body holds.
DATA_ISLAND_IDS = {"compare-data", "compare-strings", "machine-data"}
# Python-Markdown's tables write a column's alignment as this style; nothing else may be styled inline.
TABLE_ALIGN_STYLE = re.compile(r"^text-align:\s*(left|right|center);?$")

# Inline SVG a page may draw (charts): shapes and text, nothing that loads, links, animates or runs.
SVG_ELEMENTS = {
    "svg",
    "g",
    "rect",
    "line",
    "path",
    "polyline",
    "polygon",
    "circle",
    "ellipse",
    "text",
    "tspan",
    "title",
    "desc",
}
SVG_ATTRIBUTES = {
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "dx",
    "dy",
    "width",
    "height",
    "rx",
    "ry",
    "cx",
    "cy",
    "r",
    "d",
    "points",
    "transform",
    "viewBox",
    "preserveAspectRatio",
    "class",
    "role",
    "id",
    "lang",
    "xml:lang",
    "tabindex",
    "focusable",
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-opacity",
    "opacity",
    "text-anchor",
    "dominant-baseline",
    "font-size",
    "font-weight",
    "version",
    "xmlns",
    "xmlns:xlink",
}
# A paint may refer to a gradient or pattern of the same drawing, never to another document.
SVG_LOCAL_PAINT = re.compile(r"^\s*url\(\s*#[A-Za-z][\w.-]*\s*\)\s*$")

# Why a well-known dangerous element is refused (any other element is simply "not on the list").
REFUSED_ELEMENTS = {
    "script": "scripts run in the site's origin",
    "style": "style sheets can restyle or cover the page and load from other hosts",
    "iframe": "it embeds another document",
    "object": "it embeds another document",
    "embed": "it embeds another document",
    "frame": "it embeds another document",
    "portal": "it embeds another document",
    "base": "it changes where every link of the page goes",
    "meta": "it can redirect the page",
    "link": "it loads from other hosts",
    "template": "it can attach hidden markup",
    "animate": "SVG animation can rewrite a link into javascript:",
    "set": "SVG animation can rewrite a link into javascript:",
    "animateMotion": "SVG animation can rewrite a link into javascript:",
    "animateTransform": "SVG animation can rewrite a link into javascript:",
    "image": "it loads from other hosts",
    "use": "it can pull in another document",
    "foreignObject": "it embeds HTML inside SVG",
    "video": "it loads from other hosts",
    "audio": "it loads from other hosts",
    "source": "it loads from other hosts",
    "picture": "it loads from other hosts",
    "track": "it loads from other hosts",
    "math": "MathML is not used here",
}
REFUSED_ATTRIBUTES = {
    "style": "inline style can cover the page or load from other hosts",
    "srcset": "it loads from other hosts",
    "poster": "it loads from other hosts",
    "background": "it loads from other hosts",
    "formaction": "it sends a form elsewhere",
    "action": "it sends a form elsewhere",
    "target": "it opens other windows",
    "href": "only an HTML <a> may link (an SVG reference can load or run another document)",
    "xlink:href": "only an HTML <a> may link (an SVG reference can load or run another document)",
}

# URLs: which attributes hold one, and what each may point at.
NAVIGATION_URLS = {("a", "href"), ("blockquote", "cite"), ("q", "cite"), ("del", "cite"), ("ins", "cite")}
LOADED_URLS = {("img", "src")}
NAVIGATION_SCHEMES = {"http", "https", "mailto"}
SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
# What the URL parser drops before reading a scheme: tab and newline anywhere, C0 controls and space at the ends.
URL_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
URL_EDGE = "".join(chr(c) for c in range(0x21))
URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

END_SENTINEL_ID = "html-policy-end-of-body"
# Per HTML element, the attributes it may carry whose value no rule reads (`_html_value_problem`): an element
# with none but these is allowed as it stands, the case of nearly every element of a page.
PLAIN_ATTRIBUTES = {
    name: frozenset(
        (GLOBAL_ATTRIBUTES | allowed)
        - {attribute for element, attribute in NAVIGATION_URLS | LOADED_URLS if element == name}
        - {"style", *(["type"] if name in ("input", "button") else [])}
    )
    for name, allowed in HTML_ELEMENTS.items()
    if name != "script"
}


@dataclass(frozen=True)
class Finding:
    """Something a page or SVG file may not hold. `needles`: patterns (matched on a source line with entities
    decoded, tab/newline removed, lowercased) that find where it was written, most precise first."""

    what: str
    why: str
    needles: tuple[str, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"{self.what}: {self.why}"


def clean_url(value: str) -> str:
    """The URL as a browser reads it before judging its scheme (WHATWG URL parser's first steps)."""
    return URL_TAB_OR_NEWLINE.sub("", value).strip(URL_EDGE)


def url_problem(value: str, loads: bool) -> str | None:
    """Why `value` may not be used as a link (or, with `loads`, as something the page loads), or None."""
    url = clean_url(value)
    if URL_CONTROL.search(url):
        return "the URL holds control characters"
    scheme = SCHEME.match(url)
    if loads:
        # The site loads nothing from other hosts: only same-site paths (no scheme, no //host or \\host).
        if scheme or re.match(r"^[/\\]{2}", url):
            return "the page may load only files of this site (a relative URL)"
        return None
    if scheme and scheme.group(1).lower() not in NAVIGATION_SCHEMES:
        return f"the URL scheme '{scheme.group(1).lower()}:' is not allowed (http, https, mailto, relative links and #fragments are)"
    return None


def _element_needles(name: str, parent: str | None = None) -> tuple[str, ...]:
    """Where a refused element was written: right after its parent's start tag if it is there, else its own."""
    tag = rf"<{re.escape(name.lower())}(?=[\s/>]|$)"
    return ((rf"<{re.escape(parent.lower())}(?=[\s/>])[^<]*>\s*{tag}",) if parent else ()) + (tag,)


def _attribute_needles(element: str, attribute: str, value: str = "") -> tuple[str, ...]:
    """Where an attribute was written, most precise first: on its element's line with its value, with its
    value anywhere (an attr_list `{: style="…" }` has no tag), on its element's line, anywhere."""
    attr = rf"(?<![\w-]){re.escape(attribute.lower())}\s*="
    on_element = rf"(?=.*<{re.escape(element.lower())}[\s/])"
    prefix = re.escape(URL_TAB_OR_NEWLINE.sub("", value).lower()[:30])
    with_value = (rf"{on_element}.*{attr}\s*[\"']?{prefix}", rf"{attr}\s*[\"']?{prefix}") if prefix else ()
    return with_value + (rf"{on_element}.*{attr}", attr)


def _url_needles(url: str) -> tuple[str, ...]:
    return (re.escape(clean_url(url).lower()[:60]),)


def _shown(value: str, limit: int = 60) -> str:
    value = value if len(value) <= limit else value[:limit] + "…"
    return json.dumps(value, ensure_ascii=True)


def _attribute_findings(element: str, attributes: dict[str, str], allowed: set[str], svg: bool) -> list[Finding]:
    found = []
    for name, value in attributes.items():
        lower = name.lower()
        where = f"<{element} {name}=…>"
        if lower.startswith("on"):
            found.append(Finding(where, "inline event handlers run script", _attribute_needles(element, name, value)))
        elif not (lower in allowed or name in allowed or PATTERN_ATTRIBUTES.match(lower)):
            why = REFUSED_ATTRIBUTES.get(
                lower, "this attribute is not on the allowlist (scripts/checks/markup/html_policy.py)"
            )
            found.append(Finding(where, why, _attribute_needles(element, name, value)))
        elif svg and "url(" in value.lower() and not SVG_LOCAL_PAINT.match(value):
            found.append(
                Finding(
                    f"<{element} {name}={_shown(value)}>",
                    "an SVG paint may refer only to this drawing (url(#id))",
                    _attribute_needles(element, name, value),
                )
            )
        elif not svg:
            problem = _html_value_problem(element, lower, value)
            if problem:
                # A URL may come from a Markdown link ([x](url)), which has no attribute to look for.
                url = _url_needles(value) if (element, lower) in NAVIGATION_URLS | LOADED_URLS else ()
                found.append(
                    Finding(
                        f"<{element} {name}={_shown(value)}>", problem, url + _attribute_needles(element, name, value)
                    )
                )
    return found


def _html_value_problem(element: str, attribute: str, value: str) -> str | None:
    if (element, attribute) in NAVIGATION_URLS:
        return url_problem(value, loads=False)
    if (element, attribute) in LOADED_URLS:
        return url_problem(value, loads=True)
    if attribute == "style" and not TABLE_ALIGN_STYLE.match(value.strip()):
        return REFUSED_ATTRIBUTES["style"] + " (only a table column's text-align is allowed)"
    if element == "input" and attribute == "type" and value.lower() not in INPUT_TYPES:
        return f"an input may be one of: {', '.join(sorted(INPUT_TYPES))}"
    if element == "button" and attribute == "type" and value.lower() not in BUTTON_TYPES:
        return f"a button's type is one of: {', '.join(sorted(BUTTON_TYPES))}"
    return None


def _script_finding(element: Element) -> Finding | None:
    """A <script> is allowed only as one of the generators' JSON data islands: type application/json, a known
    id, nothing else, and a body that is JSON."""
    attributes = element.attributes
    if (
        attributes.get("type") != "application/json"
        or attributes.get("id") not in DATA_ISLAND_IDS
        or set(attributes) != {"type", "id"}
    ):
        return Finding(
            "<script>",
            "scripts run in the site's origin (only the upgrade view's JSON data islands may appear)",
            _element_needles("script"),
        )
    try:
        json.loads(element.text or "")
    except ValueError:
        return Finding(
            f'<script id="{attributes["id"]}">', "a JSON data island must hold JSON", _element_needles("script")
        )
    return None


def _tree_findings(elements: list[Element], html_allowed: bool = True) -> list[Finding]:
    """Findings of every element. `html_allowed`: False for an SVG file, where an HTML element (in the XHTML
    namespace) has no business."""
    found: list[Finding] = []
    for element in elements:
        namespace, name = element.namespace, element.name
        if html_allowed and namespace == HTML and name in HTML_ELEMENTS:
            if name == "script":
                script = _script_finding(element)
                found += [script] if script else []
                continue
            allowed = GLOBAL_ATTRIBUTES | HTML_ELEMENTS[name]
            found += _attribute_findings(name, element.attributes, allowed, svg=False)
        elif namespace == SVG and name in SVG_ELEMENTS:
            found += _attribute_findings(name, element.attributes, SVG_ATTRIBUTES, svg=True)
        else:
            kind = {HTML: "", SVG: "SVG ", MATHML: "MathML ", None: ""}.get(namespace, "foreign ")
            why = REFUSED_ELEMENTS.get(
                name, f"this {kind}element is not on the allowlist (scripts/checks/markup/html_policy.py)"
            )
            found.append(Finding(f"<{name}>", why, _element_needles(name, element.parent)))
    return found


def _without_sentinel(markup: str) -> str:
    """`markup` without the start of the sentinel after the body, which a tag or comment left open at the end runs
    into and no source line holds (cutting a real `<div` from the end only shortens what is looked for)."""
    sentinel = f'<div id="{END_SENTINEL_ID}"></div>'
    cut = next(
        (at for at in range(max(0, len(markup) - len(sentinel)), len(markup)) if sentinel.startswith(markup[at:])), None
    )
    return markup[:cut] if cut is not None else markup


def _problem_finding(problem: Problem, content: str) -> Finding:
    """A Finding for where scripts/checks/markup/html_syntax.py found the body needs a parser to recover."""
    start = content.rfind("\n", 0, problem.offset) + 1
    line = content[start:].split("\n", 1)[0]
    column = problem.offset - start
    near = line[max(column - 40, 0) : column + 20]
    # Raw HTML reaches the page as written: the markup there is likely in the source too (unless the place
    # is the sentinel after the body, which no source line holds).
    written = problem.markup if problem.offset < len(content) else ()
    written = tuple(_without_sentinel(markup) for markup in written)
    needles = tuple(dict.fromkeys(re.escape(_searchable(markup)) for markup in written if len(markup) >= 4))
    needles += (UNCLOSED_START_TAG,)  # last: where a tag left unclosed made Markdown go wrong below it
    return Finding(
        f"HTML parse error near {_shown(near)}", f"{problem.message} (a browser would recover in its own way)", needles
    )


def _sentinel_finding(body: Body) -> Finding | None:
    """A Finding unless the sentinel appended to the body came out as the body's last element, whole: the
    body closed everything it opened. (A copy of the sentinel inside the body cannot come last.)"""
    if not body.top or body.built[body.top[-1]] != ("div", -1, {"id": END_SENTINEL_ID}):
        return Finding(
            "markup left open at the end of the page body",
            "it would swallow the page that follows (close every tag, quote and comment)",
            (UNCLOSED_START_TAG,),
        )
    return None


def body_findings(content: str) -> list[Finding]:
    """Every Finding of a page body (the HTML MkDocs renders from a page, before the template wraps it):
    what is not allowed first, then markup left open, then the first place of each reading where a parser
    would recover (the later ones mostly follow from it)."""
    content = content.replace("\r\n", "\n").replace("\r", "\n")  # as the parser's input stream has it
    readings = [True, False] if "noscript" in content.lower() else [True]
    # The sentinel tells whether the body is closed: open markup (a quote, a comment, a raw-text element)
    # would swallow it, as it would swallow the template after the body in the real page.
    text = content + f'<div id="{END_SENTINEL_ID}"></div>'
    refused: list[Finding] = []
    broken: list[Finding] = []
    for scripting in readings:
        body = parse_body(text, scripting, PLAIN_ATTRIBUTES)
        sentinel = _sentinel_finding(body)
        refused += _tree_findings(body.elements)  # the sentinel, an allowed <div id>, is never judged
        tags, problem = read_tags(text, scripting)
        problem = problem or tree_problem(tags, body.built, text)
        parse_error = _problem_finding(problem, content) if problem else None
        if sentinel and parse_error:  # what is left open is where the parser first has to recover
            sentinel = Finding(sentinel.what, sentinel.why, parse_error.needles)
        broken += ([sentinel] if sentinel else []) + ([parse_error] if parse_error else [])
    return list(dict.fromkeys(refused + broken))


TOO_DEEP = "the page's HTML is nested too deeply to check"


def body_verdict(content: str) -> list[Finding] | str:
    """`body_findings`, or TOO_DEEP where the body is nested beyond what the parser's stack can hold (what the
    build's helper process answers: scripts/checks/beside.py)."""
    try:
        return body_findings(content)
    except (RecursionError, MemoryError):
        return TOO_DEEP


def _searchable(line: str) -> str:
    """A source line as the needles expect it: entities decoded, tab/newline gone (as a URL parser drops
    them), lowercase."""
    return URL_TAB_OR_NEWLINE.sub("", html.unescape(line)).lower()


def source_line(
    finding: Finding, lines: list[str], first_line: int = 1, skipped: list[bool] | None = None
) -> int | None:
    """The number of the first source line where `finding` was written (lines[0] is line `first_line`;
    lines marked in `skipped`, e.g. fenced code, are not searched), or None when no needle is found: the
    markup was generated, or written so that no line shows it whole."""
    searchable = [None if skipped and skipped[i] else _searchable(line) for i, line in enumerate(lines)]
    for needle in finding.needles:
        pattern = re.compile(needle)
        for index, line in enumerate(searchable):
            if line is not None and pattern.search(line):
                return first_line + index
    return None
