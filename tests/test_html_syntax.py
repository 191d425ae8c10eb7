"""How the page policy reads markup (scripts/checks/markup/html_syntax.py): the namespace rule, the tree Lexbor builds, the
tags as written, and each way a body can need a parser to recover, found where it is written. The policy's
own verdicts on these bodies are in test_html_policy.py."""

from __future__ import annotations

import pytest

from scripts.checks.markup.html_syntax import HTML, MATHML, SVG, namespace, parse_body, read_tags, tree_problem


@pytest.mark.parametrize(
    "parent, name, attributes, expected",
    [
        (None, "p", {}, HTML),
        (None, "svg", {}, SVG),
        (None, "math", {}, MATHML),
        ((SVG, "svg", {}), "script", {}, SVG),
        ((SVG, "g", {}), "a", {}, SVG),
        ((SVG, "foreignobject", {}), "script", {}, HTML),
        ((SVG, "desc", {}), "svg", {}, SVG),
        ((SVG, "title", {}), "a", {}, HTML),
        ((SVG, "g", {}), "p", {}, HTML),  # breaks out of SVG
        ((SVG, "g", {}), "font", {}, SVG),
        ((SVG, "g", {}), "font", {"color": "red"}, HTML),
        ((MATHML, "mtext", {}), "script", {}, HTML),
        ((MATHML, "mi", {}), "mglyph", {}, MATHML),
        ((MATHML, "annotation-xml", {}), "svg", {}, SVG),
        ((MATHML, "annotation-xml", {}), "a", {}, MATHML),
        ((MATHML, "annotation-xml", {"encoding": "Text/HTML"}), "a", {}, HTML),
    ],
)
def test_an_element_takes_its_namespace_from_its_parent(parent, name, attributes, expected):
    assert namespace(parent, name, attributes) == expected


def test_the_tree_names_each_element_with_its_namespace_and_parent():
    body = (
        '<p><svg><a><text>x</text></a><foreignObject><a href="#y">y</a></foreignObject></svg>'
        "<math><mtext><b>z</b></mtext><mi>q</mi></math></p>"
    )
    elements = parse_body(body, True, {}).elements
    assert [(e.namespace, e.name, e.parent) for e in elements] == [
        (HTML, "p", None),
        (SVG, "svg", "p"),
        (SVG, "a", "svg"),
        (SVG, "text", "a"),
        (SVG, "foreignObject", "svg"),
        (HTML, "a", "foreignobject"),
        (MATHML, "math", "p"),
        (MATHML, "mtext", "math"),
        (HTML, "b", "mtext"),
        (MATHML, "mi", "math"),
    ]


def test_template_contents_and_scripts_are_read():
    body = '<template><img src="x" onerror="alert(1)"></template><script type="application/json">{"a": 1}</script>'
    elements = parse_body(body, True, {}).elements
    assert [(e.name, e.parent, e.attributes, e.text) for e in elements] == [
        ("template", None, {}, ""),
        ("script", None, {"type": "application/json"}, '{"a": 1}'),
        ("img", "template", {"src": "x", "onerror": "alert(1)"}, ""),
    ]


def test_an_element_with_plain_attributes_only_is_left_to_the_comparison():
    body = parse_body('<p class="a">x</p><p id="b" data-x="1">y</p><svg class="c"></svg>', True, {"p": {"class", "id"}})
    assert [(e.name, e.attributes) for e in body.elements] == [
        ("p", {"id": "b", "data-x": "1"}),
        ("svg", {"class": "c"}),
    ]
    assert body.built == [("p", -1, {"class": "a"}), ("p", -1, {"id": "b", "data-x": "1"}), ("svg", -1, {"class": "c"})]
    assert body.top == [0, 1, 2]


# Written as Markdown, its extensions and this project's generators write, and as an author may.
WELL_WRITTEN = [
    '<h2 id="x">T<a class="headerlink" href="#x" title="Permanent link">&para;</a></h2><p>a &amp; b & c &lt; d</p>',
    '<table><thead><tr><th style="text-align: right;">a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>',
    '<ul><li>a<br>b<br />c</li><li><input type="checkbox" checked disabled> d</li></ul>',
    '<select name="x"><option value="1" selected>a</option><optgroup label="g"><option>b</option></optgroup></select>',
    '<svg viewBox="0 0 1 1"><g><rect x="0" y="0" width="1" height="1"/><text>t<tspan>s</tspan></text></g></svg>',
    '<p><svg><desc>d</desc><title>t</title></svg></p><!-- snippet: skip reason="x" -->',
    '<script type="application/json" id="compare-data">{"a": "<b>&</b>"}</script>',
    "<noscript><p>needs JavaScript</p></noscript><textarea>a &amp; <b></textarea>",
    '<pre><code>x &lt; y\n\n  z</code></pre><img src="a.png" alt="&quot;q&quot;" title="&#x27;&#39;&#8364;">',
]


@pytest.mark.parametrize("scripting", [True, False])
@pytest.mark.parametrize("body", WELL_WRITTEN)
def test_a_well_written_body_is_the_tree_its_tags_say(body, scripting):
    tags, problem = read_tags(body, scripting)
    assert problem is None
    assert tree_problem(tags, parse_body(body, scripting, {}).built, body) is None


# A body a parser must recover from, what the problem says, and what is written where it is found.
RECOVERIES = [
    ("a < b", "starts no tag", "< b"),
    ("<!DOCTYPE html><p>x</p>", "starts no tag", "<!DOCTYPE"),
    ("<?xml-stylesheet href='x'?>", "starts no tag", "<?xml"),
    ("<svg><![CDATA[x]]></svg>", "starts no tag", "<![CDATA["),
    ("</ p>", "starts no tag", "</ p>"),
    ('<p title="a"title="b">x</p>', "starts no tag", "<p title"),
    ('<p a=b"c>x</p>', "starts no tag", "<p a="),
    ("<p / >x</p>", "starts no tag", "<p /"),
    ("<p class=>x</p>", "starts no tag", "<p class"),
    ('<p>x</p a="1">', "starts no tag", '</p a="1">'),
    ("<!-->", "starts no tag", "<!-->"),
    ("<!-- never closed", "starts no tag", "<!-- never"),
    ('<a href="x" HREF="y">x</a>', "attribute of <a> is repeated", '<a href="x"'),
    ("<p>a</b></p>", "the end tag </b> where </p> is due", "</b>"),
    ("</br>", "where nothing is due", "</br>"),
    ("<p>x<p>y</p>", "<p> is never closed", "<p>x"),
    ("<div/>", "does not close an HTML element", "<div/>"),
    ("<!-- a -- b -->", "malformed comment", "<!-- a"),
    ("<!-- a --!><img> -->", "malformed comment", "<!-- a"),
    ("<script>{}", "never closed", "<script>"),
    ('<script type="application/json"><!--</script>', "holds '<!--'", "<script"),
    ("<plaintext>x</plaintext>", "never closed", "<plaintext>"),
    ("<select><div>x</div></select>", "<div> inside <select>", "<select><div>"),
    ("<select><option><b>x</b></option></select>", "<b> inside <option>", "<option><b>"),
    ("<table><tbody><p>x</p></tbody></table>", "<p> inside <tbody>", "<tbody><p>"),
    ("<table><tr><td>x</td></tr></table>", "<tr> inside <table>", "<table><tr>"),
    ("<table><tbody>x<tr><td>1</td></tr></tbody></table>", "text directly inside <tbody>", "x<tr>"),
    ("a &b c", "'&' that starts no known", "&b"),
    ("a &amp b", "'&' that starts no known", "&amp"),
    ("a &; b", "'&' that starts no known", "&;"),
    ('<a href="?x=1&y=2">x</a>', "'&' that starts no known", "&y"),
    ("&#0;", "control character", "&#0;"),
    ("&#x80;", "control character", "&#x80;"),
    ("&#13;", "control character", "&#13;"),
    ("&#xD800;", "control character", "&#xD800;"),
    ("&#x110000;", "control character", "&#x110000;"),
    ("&#;", "without digits", "&#;"),
    ("&#65", "without digits or ';'", "&#65"),
    ("a\x01b", "U+0001", "\x01"),
    ("a\x00b", "U+0000", "\x00"),
    ("a\x85b", "U+0085", "\x85"),
    ("a\ufdd0b", "U+FDD0", "\ufdd0"),
    ("a\U0001fffeb", "U+1FFFE", "\U0001fffe"),
]


@pytest.mark.parametrize("body, message, written", RECOVERIES, ids=[body[:30] for body, _, _ in RECOVERIES])
def test_each_recovery_is_found_where_it_is_written(body, message, written):
    _, problem = read_tags(body, True)
    assert problem is not None and message in problem.message, problem
    assert body[problem.offset :].startswith(written), (problem, body[problem.offset :])


def test_noscript_is_raw_text_with_scripting_on_only():
    body = '<noscript><p title="</noscript><b>">x</p></noscript>'
    assert read_tags(body, True)[1] is not None  # the tag in the title closes <noscript>: </p> is due nowhere
    tags, problem = read_tags(body, False)
    assert problem is None and [name for name, _, _ in tags.elements] == ["noscript", "p"]


# Tags that nest as written, where the parser still builds another tree, and how the comparison says it.
OTHER_TREES = [
    ('<a href="#x">1<a href="#y">2</a></a>', "moves <a>"),
    ("<p><div>x</div></p>", "moves <div>"),
    ("<h1><h2>x</h2></h1>", "moves <h2>"),
    ("<svg><p>x</p></svg>", "moves <p>"),
    ('<svg><style><img src="a.png"></style></svg>', "moves <img>"),
    ('<image src="a.png"></image>', "builds <img> where the tags say <image>"),
    ("<form><form></form></form>", "drops <form>"),
    ("<template><u>y</u></template><b>x</b>", "builds <b> where the tags say <u>"),  # contents come last
]


@pytest.mark.parametrize("body, message", OTHER_TREES)
def test_a_tree_other_than_the_tags_say_is_found(body, message):
    tags, problem = read_tags(body, True)
    assert problem is None
    found = tree_problem(tags, parse_body(body, True, {}).built, body)
    assert found is not None and message in found.message, found


def test_a_tag_left_open_for_ever_is_one_problem():
    body = "<p " + 'a="b" ' * 20000 + "<p>x</p>"
    _, problem = read_tags(body, True)
    assert problem is not None and problem.offset == 0
