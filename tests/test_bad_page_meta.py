"""Pages read the way MkDocs reads them (issue 32, page metadata): hostile pages that used to reach Material's
templates, the site's scripts or a traceback. Each ends in a `file:line` error (`make check-pages` and the build)
or in a safe page, checked in Chromium. Beside tests/test_bad_input.py, which holds the earlier cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import edit, mkdocs_build
from test_bad_input import ALIAS_BOMB, build, refused, soup

OTHER, OTHER_EN = "docs/other.md", "docs/other.en.md"
RELEASE_16 = "docs/releases/1.6.md"
PLAIN_EN = "---\ntitle: Other\n---\n\n# Other\n"


def write(project: Path, rel: str, text: str) -> None:
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def other_page(project: Path, text: str) -> None:
    """docs/other.md holds `text`; its English page is plain."""
    write(project, OTHER, text)
    write(project, OTHER_EN, PLAIN_EN)


def page_with_body(project: Path, body: str) -> None:
    other_page(project, f"---\ntitle: 其他\n---\n\n# 其他\n\n{body}\n")


# --- metadata MkDocs reads in forms the checks skipped ------------------------------------------------------

METADATA_FORMS = [
    (
        "multimarkdown-subtitle",
        'subtitle: <img src="data:," onerror=alert(1)>\n\n# Other\n',
        "docs/other.md:1: MkDocs would read 'subtitle:' on the page's first line as metadata",
    ),
    (
        "multimarkdown-status",
        'status: x"><img src=x onerror=alert(2)>\n\n# Other\n',
        "docs/other.md:1: MkDocs would read 'status:' on the page's first line as metadata",
    ),
    (
        "multimarkdown-indented",
        "   Title: x\n\n# Other\n",
        "docs/other.md:1: MkDocs would read 'Title:' on the page's first line",
    ),
    (
        "opening-line-with-a-space",
        '--- \ntitle: Other\ndescription: ["\\"><script>alert(3)</script>"]\n---\n\n# Other\n',
        "docs/other.md:1: the front matter's opening line has spaces after '---': remove them",
    ),
    (
        "opening-line-with-a-tab",
        "---\t\ntitle: Other\nsubtitle: x\n---\n\n# Other\n",
        "docs/other.md:1: the front matter's opening line has spaces after '---'",
    ),
    (
        "closing-line-with-a-space",
        "---\ntitle: Other\n---  \n\n# Other\n",
        "docs/other.md:3: the front matter's closing line has spaces after '---'",
    ),
    (
        "yaml-subtitle-and-status",
        "---\ntitle: Other\nsubtitle: <img src=x onerror=alert(5)>\nstatus: new\n---\n\n# Other\n",
        "docs/other.md:3: unknown field 'subtitle'",
    ),
    (
        # MkDocs takes the second line as YAML even when it is `---` (a YAML document start): the block is
        # lines 2-3, and it sets `subtitle`.
        "second-line-dashes",
        '---\n---\nsubtitle: <img src="data:," onerror=alert(4)>\n---\n\n# Other\n',
        "docs/other.md:3: unknown field 'subtitle'",
    ),
]


@pytest.mark.parametrize("text, expected", [case[1:] for case in METADATA_FORMS], ids=[c[0] for c in METADATA_FORMS])
def test_metadata_in_any_form_mkdocs_reads_is_checked(fixture_project, text, expected):
    other_page(fixture_project, text)
    refused(fixture_project, expected)


def test_an_alias_bomb_under_an_opening_line_with_a_space_is_refused_before_it_expands(fixture_project, tmp_path):
    edit(fixture_project, "docs/index.en.md", "---\n", f"--- \n{ALIAS_BOMB}\n")
    output = refused(fixture_project, "docs/index.en.md:1: the front matter's opening line has spaces after '---'")
    assert "docs/index.en.md:3: YAML aliases (*a0) are not allowed in front matter" in output
    build = mkdocs_build(fixture_project, tmp_path / "out")
    assert build.returncode != 0 and "YAML anchors (&a0) are not allowed" in build.stderr + build.stdout
    assert "Traceback" not in build.stderr + build.stdout


# --- markup the site's own code relies on -------------------------------------------------------------------

RESERVED = [
    (
        "json-island",
        '<script type="application/json" id="compare-data">[{"version": "9.9", "features": [], "html": "<img src=x onerror=alert(1)>"}]</script>',
        '<script id="compare-data">: the site\'s scripts read the element with this id',
    ),
    ("attr-list-id", "Text.\n{ #compare-result }", '<p id="compare-result">: the site\'s scripts read'),
    ("entity-in-id", '<div id="compare&#45;data"></div>', '<div id="compare-data">'),
    (
        "noscript-raw-text",
        '<noscript><p title="</noscript><div id=compare-strings></div>"></noscript>',
        '<div id="compare-strings">',
    ),
    ("heading-id", "## Compare data", '<h2 id="compare-data">: the site\'s scripts read'),
    ("material-id", '<span id="__drawer"></span>', "<span id=\"__drawer\">: ids starting with '__' are Material's"),
    (
        "material-component",
        '[repo](https://github.com/pytorch/pytorch){ data-md-component="source" }',
        "<a data-md-component=…>: data-* attributes are read by the site's scripts and Material's components",
    ),
    ("view-attribute", '<div data-filter-target="lifecycle-list"></div>', "<div data-filter-target=…>"),
    (
        "forged-badge",
        "An unchecked claim.\n{ .snippet-badge .snippet-ok }",
        '<p class="snippet-badge">: classes starting with',
    ),
    ("material-class", '!!! md-button "Click"\n    x', '<div class="md-button">'),
    ("script-class", '<details class="claim-note"><summary>x</summary>y</details>', '<details class="claim-note">'),
    (
        "fence-attributes",
        '```{.python #compare-form data-md-component="x"}\nprint(1)\n```',
        '<code id="compare-form">',
    ),
]


@pytest.mark.parametrize("body, expected", [case[1:] for case in RESERVED], ids=[c[0] for c in RESERVED])
def test_reserved_markup_in_page_content_is_refused_at_its_line(fixture_project, body, expected):
    page_with_body(fixture_project, body)
    output = refused(fixture_project, expected)
    line = next(line for line in output.split("\n") if expected in line)
    written = 8 if "\n{" in body else 7  # the body starts on line 7; an attribute list on its own line follows
    assert line.startswith(f"docs/other.md:{written}: "), line


# --- bidirectional and invisible controls -------------------------------------------------------------------


@pytest.mark.parametrize(
    "where, expected",
    [
        ("front-matter-title", f"{RELEASE_16}:4: U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed in front matter"),
        ("feature-name", f"{RELEASE_16}:9: U+2067 (RIGHT-TO-LEFT ISOLATE) is not allowed in front matter"),
        ("field-name", f"{RELEASE_16}:6: U+200B (ZERO WIDTH SPACE) is not allowed in front matter"),
        ("heading", "docs/other.md:7: <h2> abc\\u202edef: U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed in a heading"),
        ("id", 'docs/other.md:8: <p id="a\\u200bb">: U+200B (ZERO WIDTH SPACE) is not allowed in an id'),
        ("second-bom", "docs/other.md:2: U+FEFF (ZERO WIDTH NO-BREAK SPACE) is not allowed in front matter"),
    ],
)
def test_bidirectional_and_invisible_controls_are_refused(fixture_project, where, expected):
    if where == "front-matter-title":
        edit(fixture_project, RELEASE_16, 'title: "PyTorch 1.6：测试页"', 'title: "PyTorch 1.6：\u202e页试测"')
    elif where == "feature-name":
        edit(fixture_project, RELEASE_16, "    name: 原生自动混合精度", "    name: 原生自动混合精度\u2067")
    elif where == "field-name":
        edit(fixture_project, RELEASE_16, "source: https", "sou\u200brce: x\nsource: https")
    elif where == "heading":
        page_with_body(fixture_project, "## abc\u202edef")
    elif where == "id":
        page_with_body(fixture_project, "Text\n{ #a\u200bb }")
    else:
        other_page(fixture_project, "---\ntitle: \ufeffOther\n---\n\n# Other\n")
    refused(fixture_project, expected)


# --- names -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("<img src=x onerror=alert(1)>.md", "the page name '<img src=x onerror=alert(1)>.md' holds characters outside"),
        ("Other.md", "the page name 'Other.md' holds characters outside [a-z0-9._-]"),
        ("a\u202egnp.md", "docs/a\\u202egnp.md:1: the page name 'a\\u202egnp.md' holds characters outside"),
        ("topics x/page.md", "docs/topics x:1: the folder name 'topics x' holds characters"),
        ("other.markdown", "docs/other.markdown:1: MkDocs reads 'other.markdown' as a page: name pages '.md'"),
        ("assets/a b.png", "docs/assets/a b.png:1: the file name 'a b.png' holds characters outside [A-Za-z0-9._-]"),
    ],
    ids=["markup", "upper-case", "bidi", "folder", "markdown-suffix", "space-in-asset"],
)
def test_names_hold_only_the_safe_alphabet(fixture_project, name, expected):
    write(fixture_project, f"docs/{name}", "---\ntitle: x\n---\n\n# x\n")
    refused(fixture_project, expected)


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ('version: "1.6"', 'version: "1.6\uff10"', f"{RELEASE_16}:2: bad version '1.6\uff10'"),
        ("date: 2020-07-28", "date: \uff12\uff10\uff12\uff10-07-28", f"{RELEASE_16}:3: bad date"),
        ('patches: ["1.6.0"]', 'patches: ["1.6.1\u0660"]', "bad patches '1.6.1\u0660'"),
    ],
    ids=["full-width-version", "full-width-date", "arabic-indic-patch"],
)
def test_versions_and_dates_are_ascii_digits(fixture_project, old, new, expected):
    edit(fixture_project, RELEASE_16, old, new)
    refused(fixture_project, expected)


def test_a_release_named_with_a_full_width_digit_is_refused(fixture_project):
    for suffix in ("", ".en"):
        text = (fixture_project / f"docs/releases/1.6{suffix}.md").read_text(encoding="utf-8")
        write(fixture_project, f"docs/releases/1.6\uff10{suffix}.md", text.replace('"1.6"', '"1.6\uff10"'))
    refused(fixture_project, "docs/releases/1.6\\uff10.md:1: the page name '1.6\\uff10.md' holds characters")


# --- what used to end in a traceback ------------------------------------------------------------------------

DEEP = 3000


def _crashing_inputs(project: Path) -> list[str]:
    """Every input that used to crash the build, each in a page of its own; what the build must say of each."""
    write(project, "docs/yaml.md", "---\ntitle: x\nhide: " + "[" * DEEP + "]" * DEEP + "\n---\n\n# x\n")
    write(project, "docs/yaml.en.md", PLAIN_EN)
    write(project, "docs/block.md", "---\ntitle: x\n" + "".join(" " * i + "a:\n" for i in range(DEEP)) + "---\n")
    write(project, "docs/block.en.md", PLAIN_EN)
    write(project, "docs/lists.md", "# x\n\n" + "".join("    " * i + "- x\n" for i in range(1000)))
    write(project, "docs/lists.en.md", PLAIN_EN)
    write(project, "docs/strong.md", "# x\n\nText.\n\n" + "**" * 1000 + "x" + "**" * 1000 + "\n")
    write(project, "docs/strong.en.md", PLAIN_EN)
    write(project, "docs/blocks.md", "# x\n\n" + "<div markdown>\n" * 600 + "x\n" + "</div>\n" * 600)
    write(project, "docs/blocks.en.md", PLAIN_EN)
    text = (project / RELEASE_16).read_text(encoding="utf-8")
    write(project, "docs/releases/1.6.zh.md", text)
    write(project, "docs/alone.en.md", PLAIN_EN)
    return [
        "docs/yaml.md:3: front matter nested more than 32 deep",
        "docs/block.md:35: front matter nested more than 32 deep",
        "docs/lists.md:36: indented more than 128 columns: nested too deeply for MkDocs to render",
        "docs/strong.md:5: nested too deeply for MkDocs to render",
        "docs/blocks.md:1202: nested too deeply for MkDocs to render",
        "docs/releases/1.6.zh.md:1: the default language (zh) has no suffix: name this page 1.6.md",
        "docs/alone.en.md:1: this page has no zh (中文) version: add docs/alone.md",
    ]


def test_inputs_that_crashed_the_build_are_file_line_errors(fixture_project, tmp_path):
    expected = _crashing_inputs(fixture_project)
    for output in (refused(fixture_project, "problem(s) found"), _build_output(fixture_project, tmp_path)):
        lines = output.split("\n")
        for start in expected:
            assert any(line.startswith(start) for line in lines), f"{start!r} not in:\n{output}"


def _build_output(project: Path, tmp_path: Path) -> str:
    result = mkdocs_build(project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    assert not (tmp_path / "out" / "index.html").exists()
    return output.replace("ERROR   -  ", "")


# --- what is built: every slot Material fills from page data holds text -------------------------------------

HOSTILE_H1 = "`</title><script>alert(1)</script>` & <b>x</b>"
HOSTILE_TITLE = '</title><img src=x onerror=alert(2)> "quoted" & co'
HOSTILE_DESCRIPTION = '"><script>alert(3)</script>'
HOSTILE_H2 = "`</nav><img src=x onerror=alert(4)>` section"


def _hostile_site(project: Path, tmp_path: Path) -> Path:
    # No front matter title: MkDocs titles the page with its first heading.
    other_page(project, f"{'#'} {HOSTILE_H1}\n\nText.\n\n## {HOSTILE_H2}\n\nMore text.\n")
    write(
        project,
        OTHER_EN,
        f"---\ntitle: {json.dumps(HOSTILE_TITLE)}\ndescription: {json.dumps(HOSTILE_DESCRIPTION)}\n---\n\n# Other\n",
    )
    return build(project, tmp_path)


def _slots(page: BeautifulSoup) -> dict[str, str]:
    """What the template printed from the page's data, as the browser reads it."""

    def content(selector: str) -> str:
        tag = page.select_one(f"meta[{selector}]")
        assert tag is not None, selector
        return str(tag["content"])

    title, header = page.title, page.select_one(".md-header__topic:last-child .md-ellipsis")
    assert title is not None and header is not None
    return {
        "title": title.get_text(),
        "og:title": content('property="og:title"'),
        "description": content('name="description"'),
        "og:description": content('property="og:description"'),
        "header": header.get_text(" ", strip=True),
    }


def test_every_template_slot_filled_from_page_data_holds_text(fixture_project, tmp_path):
    site = _hostile_site(fixture_project, tmp_path)
    heading_text = "</title><script>alert(1)</script> & x"
    zh = soup(site, "other")
    slots = _slots(zh)
    assert slots["title"].startswith(heading_text + " - ") and slots["og:title"] == heading_text
    assert slots["header"] == heading_text
    toc = zh.select_one("nav.md-nav--secondary").get_text(" ", strip=True)
    assert "</nav><img src=x onerror=alert(4)> section" in toc
    en = soup(site, "en/other")
    slots = _slots(en)
    assert slots["title"].startswith(HOSTILE_TITLE + " - ") and slots["og:title"] == HOSTILE_TITLE
    assert slots["description"] == slots["og:description"] == HOSTILE_DESCRIPTION
    assert slots["header"] == HOSTILE_TITLE
    # the navigation of every page names both pages as text
    home = soup(site, "en")
    assert HOSTILE_TITLE in home.select_one("nav.md-nav--primary").get_text(" ", strip=True)
    assert heading_text in soup(site, "").select_one("nav.md-nav--primary").get_text(" ", strip=True)
    for page in (zh, en, home):
        assert page.find("script", string=lambda s: s and "alert(" in s) is None
        assert not [t for t in page.find_all(True) for a in t.attrs if a.lower().startswith("on")]
    index = json.loads((site / "search/index.zh.json").read_text(encoding="utf-8"))
    titles = {doc[1] for doc in index["docs"]}
    assert heading_text in titles and "</nav><img src=x onerror=alert(4)> section" in titles


@pytest.mark.browser
def test_hostile_page_data_runs_nothing_in_chromium(fixture_project, tmp_path, playwright_instance):
    """The pages above, the home pages that list them, and search for them, hosted and from disk: no dialog,
    nothing requested from another host."""
    from browser import browser_page, serve_directory
    from search_ui import answer_of, warm_up

    site = _hostile_site(fixture_project, tmp_path)
    with serve_directory(site) as base:
        urls = [base + "other/", base + "en/other/", base, (site / "other/index.html").as_uri()]
        for url in urls:
            with browser_page(playwright_instance) as (page, log):
                dialogs: list[str] = []
                page.on("dialog", lambda dialog, dialogs=dialogs: (dialogs.append(dialog.message), dialog.dismiss()))
                page.goto(url, wait_until="load")
                if url.startswith("http"):
                    # The heading is a section of the page: only the index's text part holds it (its first part
                    # has the titles), so the answer read is the one given once the whole index is in.
                    warm_up(page, "section")
                    links = answer_of(page, "section")
                    assert any("other/" in link for link in links), links
                assert page.title().startswith(("</title>", "PyTorch", "测试首页", "Test home")), page.title()
                assert dialogs == [] and log.foreign_requests == [], (url, dialogs, log.foreign_requests)
