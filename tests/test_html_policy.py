"""The raw-HTML allowlist (scripts/checks/markup/html_policy.py) on HTML strings: each hostile case of issue 24 is refused,
what the project's generators and Markdown emit passes, and every hostile case really acts in Chromium (so
the list tests attacks, not guesses). The build-level cases (a page's file:line, SVG files, `.git` links)
are in test_bad_input.py."""

from __future__ import annotations

import pytest

from scripts.checks.markup.html_policy import Finding, body_findings, clean_url, source_line, url_problem
from scripts.checks.markup.svg_policy import svg_findings

# (id, body, what the finding names, what it does in Chromium: "script", "request" or "covers")
HOSTILE = [
    ("svg-onload", "<svg/onload=alert(1)>", "<svg onload=…>", "script"),
    (
        "script-first-type-wins",
        '<script type="text/javascript" type="application/json">alert(1)</script>',
        "<script>",
        "script",
    ),
    (
        "noscript-title",
        '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
        "<img onerror=…>",
        "script",
    ),
    ("xmp-title", '<xmp><p title="</xmp><img src=x onerror=alert(1)>"></xmp>', "<img onerror=…>", "script"),
    (
        "noembed-title",
        '<noembed><p title="</noembed><img src=x onerror=alert(1)>"></noembed>',
        "<img onerror=…>",
        "script",
    ),
    (
        "textarea-title",
        '<textarea><p title="</textarea><img src=x onerror=alert(1)>"></textarea>',
        "<img onerror=…>",
        "script",
    ),
    ("tab-entity-in-scheme", '<a href="jav&#x09;ascript:alert(1)">x</a>', "scheme 'javascript:'", "script"),
    ("named-tab-in-scheme", '<a href="java&Tab;script:alert(1)">x</a>', "scheme 'javascript:'", "script"),
    ("newline-in-scheme", '<a href="  java\nscript:alert(1)">x</a>', "scheme 'javascript:'", "script"),
    (
        "svg-animate-href",
        '<svg width="200" height="50"><a><animate attributeName="href" values="javascript:alert(1)"/><text x="10" y="30">click</text></a></svg>',
        "<animate>",
        "script",
    ),
    ("style-url", '<p style="background:url(https://evil.example/bg.png)">x</p>', "<p style=…>", "request"),
    (
        "svg-image",
        '<svg width="20" height="20"><image href="https://evil.example/i.png" width="20" height="20"/></svg>',
        "<image>",
        "request",
    ),
    ("img-srcset", '<img srcset="https://evil.example/s.png 1x" alt="x">', "<img srcset=…>", "request"),
    (
        "video-poster",
        '<video poster="https://evil.example/p.png" width="20" height="20"></video>',
        "<video>",
        "request",
    ),
    ("img-from-another-host", '<img src="https://evil.example/i.png" alt="x">', "only files of this site", "request"),
    (
        "img-protocol-relative",
        '<img src="//evil.example/i.png" alt="x">',
        "only files of this site",
        None,
    ),  # about:blank has no scheme to lend it
    (
        "overlay",
        '<p style="position:fixed; top:0; left:0; width:100%; height:100%; z-index:99999; background:white">x</p>',
        "<p style=…>",
        "covers",
    ),
    ("data-url-link", '<a href="data:text/html,<script>alert(1)</script>">x</a>', "scheme 'data:'", None),
    ("iframe", '<iframe src="https://evil.example/"></iframe>', "<iframe>", "request"),
    (
        "object",
        '<object data="https://evil.example/x.swf"></object>',
        "<object>",
        None,
    ),  # Chromium fetches no plugin data
    ("form-action", '<form action="https://evil.example/"><button>go</button></form>', "<form action=…>", None),
    (
        "button-formaction",
        '<form><button formaction="javascript:alert(1)">go</button></form>',
        "<button formaction=…>",
        None,
    ),
    ("base", '<base href="https://evil.example/">', "<base>", None),
    ("meta-refresh", '<meta http-equiv="refresh" content="0;url=https://evil.example/">', "<meta>", None),
    ("link-stylesheet", '<link rel="stylesheet" href="https://evil.example/x.css">', "<link>", "request"),
    ("style-element", "<style>body{background:url(https://evil.example/x.png)}</style>", "<style>", "request"),
    ("svg-use", '<svg><use href="https://evil.example/s.svg#x"/></svg>', "<use>", None),
    (
        "svg-foreign-object",
        "<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>",
        "<foreignObject>",
        "script",
    ),
    (
        "svg-set",
        '<svg><a><set attributeName="href" to="javascript:alert(1)"/><text y="20">x</text></a></svg>',
        "<set>",
        None,
    ),
    ("svg-xlink-href", '<svg><a xlink:href="javascript:alert(1)"><text y="20">x</text></a></svg>', "<a>", None),
    (
        "svg-paint-from-another-host",
        '<svg><rect width="9" height="9" fill="url(https://evil.example/p.svg#g)"/></svg>',
        "url(#id)",
        None,
    ),
    ("mathml-link", '<math><mtext><a href="javascript:alert(1)">x</a></mtext></math>', "<math>", None),
    ("uppercase-handler", '<p ONCLICK="alert(1)">x</p>', "<p onclick=…>", None),
    ("select-hides-img", "<select><div><img src=x onerror=alert(1)></div></select>", "HTML parse error", None),
    ("unclosed-attribute", '<p title="x', "markup left open", None),
    ("unclosed-comment", "<!-- swallows the page", "markup left open", None),
    ("json-island-not-ours", '<script type="application/json" id="other">{}</script>', "<script>", None),
    (
        "json-island-extra-attribute",
        '<script type="application/json" id="compare-data" src="https://evil.example/x.js">{}</script>',
        "<script>",
        None,
    ),
    (
        "json-island-not-json",
        '<script type="application/json" id="compare-data">alert(1)</script>',
        "must hold JSON",
        None,
    ),
    ("input-image", '<input type="image" src="https://evil.example/x.png">', "an input may be one of", "request"),
    ("template", "<template><img src=x onerror=alert(1)></template>", "<template>", None),
    # Found moving html5lib to Lexbor (issue 30): namespaces told apart without html5lib's, a template's
    # contents judged too, references and comments as browsers end them, trees a parser would have to repair.
    ("svg-script", "<svg><script>alert(1)</script></svg>", "<script>", "script"),
    (
        "svg-script-as-island",
        '<svg><script type="application/json" id="compare-data">{}</script></svg>',
        "<script>",
        None,
    ),
    ("mathml-text-script", "<math><mtext><script>alert(1)</script></mtext></math>", "<script>", "script"),
    ("svg-title-link", '<svg><title><a href="javascript:alert(1)">x</a></title></svg>', "scheme 'javascript:'", None),
    (
        "mathml-html-annotation",
        '<math><annotation-xml encoding="text/html"><a href="javascript:alert(1)">x</a></annotation-xml></math>',
        "scheme 'javascript:'",
        None,
    ),
    ("template-contents", "<template><img src=x onerror=alert(1)></template>", "<img onerror=…>", None),
    ("decimal-reference-in-scheme", '<a href="&#106;avascript:alert(1)">x</a>', "scheme 'javascript:'", "script"),
    ("named-colon-in-scheme", '<a href="javascript&colon;alert(1)">x</a>', "scheme 'javascript:'", "script"),
    ("comment-closed-by-bang", "<!-- a --!><img src=x onerror=alert(1)> -->", "<img onerror=…>", "script"),
    ("svg-style-breaks-out", "<svg><style><img src=x onerror=alert(1)></style></svg>", "<img onerror=…>", "script"),
    ("repeated-attribute", '<a href="https://pytorch.org/" HREF="javascript:alert(1)">x</a>', "HTML parse error", None),
    ("processing-instruction", '<?xml-stylesheet href="https://evil.example/x.css"?>', "HTML parse error", None),
    ("svg-cdata", "<svg><![CDATA[<img src=x onerror=alert(1)>]]></svg>", "HTML parse error", None),
    ("foster-parented", "<table><tbody><p>x</p></tbody></table>", "HTML parse error", None),
    ("adoption-agency", '<a href="#x">1<a href="#y">2</a></a>', "HTML parse error", None),
    ("desc-ignores-its-end-tag", "<svg><desc>d<option></desc></svg>", "markup left open", None),
]


@pytest.mark.parametrize(
    "body, expected", [(body, expected) for _, body, expected, _ in HOSTILE], ids=[case[0] for case in HOSTILE]
)
def test_hostile_markup_is_refused(body, expected):
    found = [str(f) for f in body_findings(body)]
    assert any(expected in f for f in found), found


# What Markdown, its extensions and this project's generators write (shortened from real pages), and the
# inline SVG chart a page may draw.
ALLOWED = {
    "highlighted-code": '<div class="language-python highlight"><pre><span></span><code><span class="kn">import</span> <span class="nn">torch</span>\n</code></pre></div>',
    "heading-permalink": '<h2 id="area-jit">TorchScript<a class="headerlink" href="#area-jit" title="Permanent link">&para;</a></h2>',
    "tabs": '<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked="checked" id="__tabbed_1_1" name="__tabbed_1" type="radio" /><input id="__tabbed_1_2" name="__tabbed_1" type="radio" /><div class="tabbed-labels"><label for="__tabbed_1_1">pip</label><label for="__tabbed_1_2">conda</label></div></div>',
    "details-admonition": '<details class="note"><summary>Note</summary><p>Text <abbr title="x">X</abbr> <time datetime="2020-07-28">2020-07-28</time></p></details>',
    "table": '<table class="feature-table"><thead><tr><th scope="col">a</th><th style="text-align: right;">b</th></tr></thead><tbody><tr data-feature="x"><th scope="row">x</th><td class="c" data-v="1">1</td></tr></tbody></table>',
    "compare-form": '<form class="compare-form" id="compare-form"><span class="filter-pair"><label for="compare-from">From</label> <select id="compare-from" name="from"><option value="1.0" selected>PyTorch 1.0</option></select></span><button type="submit" class="md-button">Compare</button></form><noscript><p>Needs JavaScript.</p></noscript>',
    "json-islands": '<script type="application/json" id="compare-data">[{"version": "1.0", "html": "\\u003cb\\u003e"}]</script><script type="application/json" id="compare-strings">{"a": "b"}</script>',
    "links": '<p><a href="https://pytorch.org/blog/">post</a> <a href="../1.5/#x">1.5</a> <a href="mailto:a@example.org">mail</a> <a href="#top">top</a> <a href="HTTPS://PYTORCH.ORG/">caps</a></p>',
    "svg-chart": (
        '<svg class="support-chart" viewBox="0 0 100 40" preserveAspectRatio="xMinYMin meet" role="img" aria-labelledby="t" xmlns="http://www.w3.org/2000/svg" focusable="false">'
        '<title id="t">Chart</title><desc>Python versions by release</desc><g class="row" transform="translate(0 10)">'
        '<rect x="1" y="1" width="20" height="4" rx="1" ry="1" fill="currentColor" data-version="2.0"/>'
        '<line x1="0" y1="0" x2="100" y2="0" stroke="currentColor" stroke-width="0.5"/><path d="M0 0H10"/>'
        '<polyline points="0,0 5,5"/><circle cx="5" cy="5" r="2" fill="url(#grad)"/>'
        '<text x="50" y="20" text-anchor="middle" dominant-baseline="middle" font-size="4">3.10<tspan>+</tspan></text></g></svg>'
    ),
    "image-of-this-site": '<p><img src="../assets/images/x.png" alt="x" width="10" height="10"></p>',
}


@pytest.mark.parametrize("body", ALLOWED.values(), ids=ALLOWED.keys())
def test_what_the_project_writes_passes(body):
    assert body_findings(body) == []


@pytest.mark.parametrize(
    "url, cleaned, problem",
    [
        ("jav\tascript:alert(1)", "javascript:alert(1)", "'javascript:'"),
        ("\x01 java\nscr\ript:alert(1) \x00", "javascript:alert(1)", "'javascript:'"),
        ("VBScript:x", "VBScript:x", "'vbscript:'"),
        ("https://pytorch.org/", "https://pytorch.org/", None),
        ("/releases/1.6/", "/releases/1.6/", None),
        ("java\x0bscript:alert(1)", "java\x0bscript:alert(1)", "control characters"),
    ],
)
def test_a_url_is_judged_as_the_browser_reads_it(url, cleaned, problem):
    assert clean_url(url) == cleaned
    found = url_problem(url, loads=False)
    assert (found is None) if problem is None else (problem in found)


@pytest.mark.parametrize(
    "svg, expected",
    [
        ('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "<script>"),
        ('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "<svg onload=…>"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink"><a x:href="javascript:alert(1)"><text>x</text></a></svg>',
            "<a>",
        ),
        ('<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/x.png"/></svg>', "<image>"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><h:img xmlns:h="http://www.w3.org/1999/xhtml" src="x"/></svg>',
            "<img>",
        ),
        (
            '<!DOCTYPE svg [<!ENTITY e "&#60;script&#62;alert(1)&#60;/script&#62;">]><svg xmlns="http://www.w3.org/2000/svg">&e;</svg>',
            "DOCTYPE",
        ),
        (
            '<?xml-stylesheet href="https://evil.example/x.css"?><svg xmlns="http://www.w3.org/2000/svg"/>',
            "processing instructions",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:url(https://evil.example/)}</style></svg>',
            "<style>",
        ),
        ("<svg><rect/></svg>", "root must be"),
        ('<svg xmlns="http://www.w3.org/2000/svg"><rect>', "not well-formed"),
    ],
    ids=[
        "script",
        "onload",
        "xlink-javascript",
        "external-image",
        "html-element",
        "entity",
        "stylesheet-pi",
        "style",
        "no-namespace",
        "broken",
    ],
)
def test_hostile_svg_files_are_refused(svg, expected):
    found = [str(f) for f in svg_findings(svg)]
    assert any(expected in f for f in found), found


def test_a_plain_svg_file_passes():
    assert (
        svg_findings(
            '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><title>t</title><!-- c --><rect width="1" height="1" fill="#c00"/></svg>\n'
        )
        == []
    )


@pytest.mark.parametrize(
    "source, body, line",
    [
        (
            "# T\n\n[x](jav&#x09;ascript:alert(1))\n",
            '<h1 id="t">T</h1><p><a href="jav&#x09;ascript:alert(1)">x</a></p>',
            3,
        ),
        ('# T\n\ntext\n{: style="position:fixed" }\n', '<h1 id="t">T</h1><p style="position:fixed">text</p>', 4),
        ("# T\n\n<SVG/OnLoad=alert(1)>\n", "<p><svg/onload=alert(1)></p>", 3),
        ("```html\n<script>x</script>\n```\n\n<script>alert(1)</script>\n", "<script>alert(1)</script>", 5),
        ("# T\n", '<p><a href="javascript:alert(1)">generated</a></p>', None),
        ("# T\n\n<select><div>x</div></select>\n", "<select><div>x</div></select>", 3),
        ("# T\n\n<p>a</p>\n\n<p>b</b></p>\n", "<p>a</p>\n<p>b</b></p>", 5),
        ("# T\n\n<p>a &copy b</p>\n", "<p>a &copy b</p>", 3),
        (
            "# T\n\n<p>1</p>\n\n<table><tbody>x<tr><td>1</td></tr></tbody></table>\n",
            "<p>1</p>\n<table><tbody>x<tr><td>1</td></tr></tbody></table>",
            5,
        ),
        (
            '# T\n\n<p>1</p>\n\n<p><a href="#a">1<a href="#b">2</a></a></p>\n',
            '<p>1</p>\n<p><a href="#a">1<a href="#b">2</a></a></p>',
            5,
        ),
        # An element left open, found by its start tag where the end tag of its parent came first.
        ('# T\n\nsee <span class="x">this\n', '<p>see <span class="x">this</p>\n<h2 id="b">B</h2>', 3),
        # A start tag left unclosed on its line: Markdown escapes it, and the parse error surfaces in generated
        # markup below it, which no source line holds.
        (
            '# T\n\nif a < b, <div class="x" then\n\n`<b` is code\n',
            '<p>if a &lt; b, &lt;div class="x" then</p>\n<p><p class="generated">y</p></p>',
            3,
        ),
    ],
    ids=[
        "markdown-link",
        "attr-list",
        "case-insensitive",
        "not-in-fenced-code",
        "generated",
        "parse-error",
        "stray-end-tag",
        "ampersand",
        "text-in-table",
        "tree-repaired",
        "element-left-open",
        "tag-left-unclosed",
    ],
)
def test_a_finding_is_traced_to_its_source_line(source, body, line):
    from scripts.catalog.fences import scan_fences

    lines = source.split("\n")
    finding = body_findings(body)[0]
    assert source_line(finding, lines, 1, scan_fences(lines)[0]) == line


def test_a_finding_reads_as_markup_and_reason():
    assert str(Finding("<p style=…>", "no inline style")) == "<p style=…>: no inline style"


# --- in Chromium: each hostile case really does what it is refused for ----------------------------------------

VICTIM = '<p id="victim" style="margin:40px">page text</p>'


def _effects(page, log, body: str, click_links: bool) -> set[str]:
    """What `body` does in a Chromium page: run script (a dialog, also after clicking its links when
    `click_links`), request another host, or cover the page's own text."""
    dialogs: list[str] = []

    def handler(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", handler)
    log.foreign_requests.clear()
    page.set_content(f"<!DOCTYPE html><html><body>{VICTIM}{body}</body></html>")
    page.wait_for_timeout(150)
    for link in page.locator("a").all() if click_links else []:
        if link.is_visible():
            link.click(no_wait_after=True, timeout=2000)
    page.wait_for_timeout(150)
    covered = page.evaluate(
        """() => { const v = document.getElementById('victim'); if (!v) return false;
                   const r = v.getBoundingClientRect(); const e = document.elementFromPoint(r.left + 5, r.top + r.height / 2);
                   return !!e && e !== v && !v.contains(e); }"""
    )
    page.remove_listener("dialog", handler)
    return {
        name
        for name, happened in (("script", dialogs), ("request", log.foreign_requests), ("covers", covered))
        if happened
    }


@pytest.mark.browser
def test_every_refused_case_acts_in_chromium_and_allowed_markup_does_not(playwright_instance):
    from browser import browser_page

    acting = [(case_id, body, effect) for case_id, body, _, effect in HOSTILE if effect]
    with browser_page(playwright_instance) as (page, log):
        seen = {case_id: _effects(page, log, body, click_links=True) for case_id, body, _ in acting}
        quiet = {name: _effects(page, log, body, click_links=False) for name, body in ALLOWED.items()}
    assert {case_id: effect for case_id, _, effect in acting if effect not in seen[case_id]} == {}, seen
    assert {name: effects for name, effects in quiet.items() if effects} == {}


@pytest.mark.parametrize(
    "last_line",
    ['<div class="x"', '<div class="x">', "<!-- never closed", '<p title="x', '<a href="#x">\n<div id="y"'],
    ids=["unterminated-tag", "unclosed-element", "unclosed-comment", "unclosed-attribute", "after-an-open-link"],
)
def test_markup_left_open_at_the_end_is_found_on_the_line_that_opens_it(last_line):
    """What is left open at the end runs into what follows the body (the policy's sentinel, in the real page the
    template): the finding still names the source line where the open markup was written, not none."""
    source = ["Some text.", "", *last_line.split("\n")]
    found = body_findings("<p>Some text.</p>\n" + last_line)
    left_open = [f for f in found if "markup left open" in str(f)]
    assert left_open, [str(f) for f in found]
    assert source_line(left_open[0], source) == len(source), [str(f) for f in found]  # where parsing breaks down
