"""Hostile and broken input fed to the real tools: each case ends in a clear `file:line` error (non-zero exit,
no traceback) or in a correct, safe site.

Cases are grouped as the issue that asked for them: script injection through front matter, files under
docs/, and facts that must not pass. Most run `make check-pages`' command (`python -m scripts.checks.pages`),
which is what the build's first hook runs too; the ones whose outcome is a safe page run a real build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import ROOT, mkdocs_build
from conftest import edit as _edit

RELEASE_16 = "docs/releases/1.6.md"
RELEASE_16_EN = "docs/releases/1.6.en.md"


def check_pages(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scripts.checks.pages", "--docs-dir", "docs"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def refused(project: Path, expected: str) -> str:
    """check-pages must fail with `expected` in its output, and without a traceback."""
    result = check_pages(project)
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"check-pages accepted it:\n{output}"
    assert expected in output, f"expected {expected!r} in:\n{output}"
    assert "Traceback" not in output, output
    return output


def build_refused(project: Path, tmp_path: Path, expected: str) -> str:
    result = mkdocs_build(project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"the build accepted it:\n{output}"
    assert expected in output, f"expected {expected!r} in:\n{output}"
    assert "Traceback" not in output, output
    assert not (tmp_path / "out" / "index.html").exists(), "a refused build must not leave a site"
    return output


def build(project: Path, tmp_path: Path) -> Path:
    result = mkdocs_build(project, tmp_path / "out")
    assert result.returncode == 0, result.stdout + result.stderr
    return tmp_path / "out"


def soup(site: Path, url: str) -> BeautifulSoup:
    return BeautifulSoup((site / url / "index.html").read_text(encoding="utf-8"), "html.parser")


# --- script injection through front matter: the page is built, and safe ------------------------------------

IMG = "<img src=x onerror=alert(1)>"


def _executable_markup(page: BeautifulSoup) -> list[str]:
    found = [f"<{tag.name} {a}>" for tag in page.find_all(True) for a in tag.attrs if a.lower().startswith("on")]
    found += [
        str(a["href"])
        for a in page.find_all("a", href=True)
        if str(a["href"]).strip().lower().startswith("javascript:")
    ]
    found += [str(s)[:60] for s in page.find_all("script") if "alert(1)" in s.get_text()]
    return found


def test_title_with_html_is_text_everywhere(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, 'title: "PyTorch 1.6：测试页"', f'title: "PyTorch 1.6 {IMG}"')
    page = soup(build(fixture_project, tmp_path), "releases/1.6")
    assert IMG in page.title.get_text() and IMG in page.find("h1").get_text()
    assert page.find("img", src="x") is None and not _executable_markup(page)
    assert page.find("meta", property="og:title")["content"].endswith(IMG)


def test_title_cannot_add_attributes_to_the_heading(fixture_project, tmp_path):
    _edit(
        fixture_project,
        RELEASE_16,
        'title: "PyTorch 1.6：测试页"',
        'title: "PyTorch 1.6 { autofocus onfocus=\\"alert(1)\\" }"',
    )
    page = soup(build(fixture_project, tmp_path), "releases/1.6")
    heading = page.find("h1")
    assert "onfocus" not in heading.attrs and "autofocus" not in heading.attrs
    assert 'onfocus="alert(1)"' in heading.get_text()


def test_description_is_text_in_meta_tags_of_every_page(fixture_project, tmp_path):
    attack = '"><script>alert(1)</script>'
    _edit(
        fixture_project,
        RELEASE_16,
        'summary: "用于测试的 1.6 页面"',
        f'summary: "用于测试的 1.6 页面"\ndescription: {attack!r}',
    )
    _edit(
        fixture_project,
        RELEASE_16_EN,
        'summary: "A 1.6 page for tests"',
        f'summary: "A 1.6 page for tests"\ndescription: {attack!r}',
    )
    (fixture_project / "docs/other.en.md").write_text(
        f"---\ntitle: Other\ndescription: {attack!r}\n---\n\n# Other\n", encoding="utf-8"
    )
    (fixture_project / "docs/other.md").write_text("---\ntitle: 其他\n---\n\n# 其他\n", encoding="utf-8")
    site = build(fixture_project, tmp_path)
    for url in ("releases/1.6", "en/other"):
        page = soup(site, url)
        assert page.find("meta", attrs={"name": "description"})["content"] == attack
        assert page.find("meta", property="og:description")["content"] == attack
        assert not _executable_markup(page)


@pytest.mark.parametrize(
    "name, shown",
    [
        (IMG, IMG),
        ("Stable ABI](javascript:alert(1)) [x", "Stable ABI](javascript:alert(1)) [x"),
        ("Tensor<T> and std::vector<int64_t>", "Tensor<T> and std::vector<int64_t>"),
        ("<!-- swallow the page", "<!-- swallow the page"),
    ],
    ids=["html", "markdown-link", "cpp-templates", "html-comment"],
)
def test_feature_name_is_text(fixture_project, tmp_path, name, shown):
    _edit(fixture_project, RELEASE_16, "    name: 原生自动混合精度", f"    name: {name!r}")
    page = soup(build(fixture_project, tmp_path), "releases/1.6")
    cell = page.select_one('table.feature-table tr[data-feature="native-amp"] th')
    assert cell.get_text(strip=True) == shown
    assert not _executable_markup(page)
    assert page.select_one("nav.release-around"), "the rest of the page must still be there"


def test_change_text_is_text_with_code_spans_only(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, 'text: "整数张量用 `/` 相除时报错"', f'text: "整数张量用 `/` 相除时报错 {IMG}"')
    page = soup(build(fixture_project, tmp_path), "releases/1.6")
    text = page.select_one("#change-int-div-error .change-text")
    assert text.find("code").get_text() == "/" and IMG in text.get_text()
    assert not _executable_markup(page)


@pytest.mark.parametrize("field", ["name", "title"])
def test_a_line_break_in_a_one_line_field_is_refused(fixture_project, field):
    if field == "name":
        _edit(fixture_project, RELEASE_16, "    name: 原生自动混合精度", '    name: "AMP\\n| injected | row |"')
        refused(fixture_project, f"{RELEASE_16}:9: field 'name' must be one line")
    else:
        _edit(fixture_project, RELEASE_16, 'title: "PyTorch 1.6：测试页"', 'title: "PyTorch 1.6\\n<script>"')
        refused(fixture_project, f"{RELEASE_16}:4: field 'title' must be one line")


@pytest.mark.parametrize(
    "body, found",
    [
        ("<script>alert(1)</script>", "<script>"),
        ('<a href="javascript:alert(1)">x</a>', 'href="javascript:alert(1)"'),
        ('<p onclick="alert(1)">x</p>', "onclick"),
        ('<iframe src="https://example.com"></iframe>', "<iframe>"),
    ],
    ids=["script", "javascript-url", "handler", "iframe"],
)
def test_executable_markup_in_a_page_body_stops_the_build(fixture_project, tmp_path, body, found):
    _edit(fixture_project, RELEASE_16, "测试页面。", f"测试页面。\n\n{body}\n")
    build_refused(fixture_project, tmp_path, found)


def test_no_alert_fires_in_chromium_hosted_or_from_disk(fixture_project, tmp_path, playwright_instance):
    """Every injection above at once, opened in Chromium over HTTP and from file://: no dialog."""
    from browser import browser_page, serve_directory

    _edit(
        fixture_project,
        RELEASE_16,
        'title: "PyTorch 1.6：测试页"',
        f'title: "PyTorch 1.6 {IMG} {{ autofocus onfocus=\\"alert(2)\\" }}"',
    )
    _edit(
        fixture_project,
        RELEASE_16,
        "    name: 原生自动混合精度",
        f"    name: {IMG + ' Stable ABI](javascript:alert(3)) [x'!r}",
    )
    _edit(
        fixture_project,
        RELEASE_16,
        'summary: "用于测试的 1.6 页面"',
        'summary: "用于测试的 1.6 页面"\ndescription: "\\"><script>alert(4)</script>"',
    )
    _edit(
        fixture_project,
        RELEASE_16_EN,
        'summary: "A 1.6 page for tests"',
        'summary: "A 1.6 page for tests"\ndescription: "\\"><script>alert(5)</script>"',
    )
    site = build(fixture_project, tmp_path)
    with serve_directory(site) as base:
        for url in (base + "releases/1.6/", (site / "releases/1.6/index.html").as_uri(), base):
            with browser_page(playwright_instance) as (page, log):
                dialogs = []
                page.on("dialog", lambda dialog, dialogs=dialogs: (dialogs.append(dialog.message), dialog.dismiss()))
                page.goto(url)
                page.keyboard.press("Tab")
                page.wait_for_timeout(300)
                assert dialogs == [], f"{url}: {dialogs}"


# --- files under docs/ -------------------------------------------------------------------------------------


def test_symlink_to_the_environment_is_refused_before_anything_is_read(fixture_project, tmp_path):
    (fixture_project / "docs/env.txt").symlink_to("/proc/self/environ")
    output = build_refused(
        fixture_project, tmp_path, "docs/env.txt:1: symbolic link to '/proc/self/environ' leads outside the repository"
    )
    assert "PATH=" not in output
    refused(fixture_project, "symbolic link to '/proc/self/environ' leads outside the repository")


def test_symlinked_folder_outside_the_repository_is_refused(fixture_project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# secret\n", encoding="utf-8")
    (fixture_project / "docs/more").symlink_to(outside)
    build_refused(fixture_project, tmp_path, "docs/more:1: symbolic link to")


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda docs: (docs / "gone.md").symlink_to(docs / "nowhere.md"), "docs/gone.md:1: symbolic link to"),
        (lambda docs: ((docs / "a.md").symlink_to(docs / "b.md"), (docs / "b.md").symlink_to(docs / "a.md")), "loops"),
        (lambda docs: (docs / "x.md").mkdir(), "docs/x.md:1: is a folder named like a page"),
    ],
    ids=["dangling", "loop", "folder-named-md"],
)
def test_broken_entries_under_docs_are_clear_errors(fixture_project, tmp_path, make, expected):
    make(fixture_project / "docs")
    refused(fixture_project, expected)
    build_refused(fixture_project, tmp_path, expected)


def test_symlink_inside_the_repository_is_allowed(fixture_project, tmp_path):
    (fixture_project / "docs/extra.css").symlink_to(fixture_project / "docs/assets/stylesheets/timeline.css")
    assert (build(fixture_project, tmp_path) / "extra.css").is_file()


# --- facts that must not pass --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ('version: "1.6"', 'version: "1.7"', f"{RELEASE_16}:2: version '1.7' does not match the file name 1.6.md"),
        ('version: "1.6"', 'version: "1.06"', f"{RELEASE_16}:2: bad version '1.06'"),
        ("date: 2020-07-28", "date: 2999-01-01", f"{RELEASE_16}:3: date 2999-01-01 is in the future"),
        (
            "date: 2020-07-28",
            "date: 2019-01-01",
            f"{RELEASE_16}:3: date 2019-01-01 is earlier than the release before it (1.5: 2020-04-21)",
        ),
        ('title: "PyTorch 1.6：测试页"', 'title: !custom "PyTorch 1.6"', f"{RELEASE_16}:4: unknown YAML tag '!custom'"),
        (
            'title: "PyTorch 1.6：测试页"',
            "title: !!python/object/apply:os.system [id]",
            "unknown YAML tag 'tag:yaml.org,2002:python/object/apply:os.system'",
        ),
        (
            "source: https://pytorch.org/blog/pytorch-1.6-released/",
            'source: "https://"',
            "bad source URL 'https://': it has no valid host name",
        ),
        (
            "source: https://pytorch.org/blog/pytorch-1.6-released/",
            "source: 'https://pytorch.org/\"onmouseover=\"alert(1)'",
            "it contains characters a link may not hold",
        ),
        (
            "source: https://pytorch.org/blog/pytorch-1.6-released/",
            "source: https://pytorch.org/blog/[x](y)",
            "it contains characters a link may not hold",
        ),
        (
            "source: https://pytorch.org/blog/pytorch-1.6-released/",
            "source: javascript:alert(1)",
            "expected an https:// link",
        ),
        (
            'summary: "用于测试的 1.6 页面"',
            'summary: &s "用于测试的 1.6 页面"\ndescription: *s',
            f"{RELEASE_16}:6: YAML aliases (*s) are not allowed",
        ),
        (
            '      version: "0.7.0"',
            '      version: "0.7.0"\n      note: nowhere',
            "note 'nowhere' is not defined under compat.notes",
        ),
        ('    - supported: ["3.6", "3.7", "3.8"]', '    - supported: ["3.6", "3.1O"]', "unknown Python version '3.1O'"),
        (
            '    - torch: ["1.6.0"]',
            '    - torch: ["1.6.9"]',
            "torch 1.6.9 is not a patch release of 1.6 listed in 'patches'",
        ),
        ("      sources: [P, V]\n", "", "a torchvision claim is missing required field 'sources'"),
        (
            '    follows: "1.5#int-div-warning"',
            '    follows: "1.5#no-such-change"',
            "follows 'no-such-change', which docs/releases/1.5.md does not list",
        ),
    ],
    ids=[
        "version-vs-file-name",
        "version-leading-zero",
        "date-in-future",
        "date-before-previous",
        "unknown-yaml-tag",
        "python-yaml-tag",
        "url-without-host",
        "url-with-quotes",
        "url-with-brackets",
        "javascript-url",
        "yaml-alias",
        "undefined-compat-note",
        "unknown-python-version",
        "pairing-for-missing-patch",
        "pairing-without-source",
        "follows-missing-change",
    ],
)
def test_bad_release_facts_are_refused(fixture_project, old, new, expected):
    _edit(fixture_project, RELEASE_16, old, new)
    refused(fixture_project, expected)


def test_a_second_page_for_an_existing_version_is_refused(fixture_project):
    for suffix in ("", ".en"):
        text = (fixture_project / f"docs/releases/1.6{suffix}.md").read_text(encoding="utf-8")
        (fixture_project / f"docs/releases/1.06{suffix}.md").write_text(text, encoding="utf-8")
    refused(fixture_project, "docs/releases/1.06.md:1: a release page is named <version>.md or <version>.en.md")


def test_malformed_front_matter_on_a_non_release_page(fixture_project):
    (fixture_project / "docs/lifecycle.en.md").write_text(
        "---\ntitle: Lifecycle\ndescription: [unclosed\n---\n\n# Lifecycle\n", encoding="utf-8"
    )
    refused(fixture_project, "docs/lifecycle.en.md:3: malformed front matter")


def test_release_front_matter_outside_releases_is_refused(fixture_project):
    (fixture_project / "docs/notes.md").write_text(
        '---\ntitle: Notes\nversion: "3.0"\nfeatures: []\n---\n\n# Notes\n', encoding="utf-8"
    )
    refused(fixture_project, "docs/notes.md:3: 'version' is release front matter")


@pytest.mark.parametrize(
    "line, expected",
    [
        ("<!-- time line -->", "unknown marker '<!-- time line -->'; did you mean '<!-- timeline -->'?"),
        ("<!-- topic: Quantum -->", "unknown area 'Quantum' in topic marker"),
        ('<!-- snipet: skip reason="x" -->', "looks like a misspelt snippet directive"),
    ],
    ids=["timeline", "topic-area", "snippet-directive"],
)
def test_misspelt_markers_name_their_line(fixture_project, tmp_path, line, expected):
    path = fixture_project / "docs/topics/misspelt.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"---\ntitle: Topic\n---\n\n# Topic\n\n{line}\n```python\nprint(1)\n```\n", encoding="utf-8")
    refused(fixture_project, f"docs/topics/misspelt.md:7: {expected}" if "snipet" not in line else expected)
    build_refused(fixture_project, tmp_path, expected)


@pytest.mark.parametrize(
    "written",
    ['if a < b, <div class="x" stays in the paragraph', 'see <span class="x">this, never closed'],
    ids=["tag-left-unclosed", "element-left-open"],
)
def test_markup_left_open_in_a_release_page_names_its_line(fixture_project, tmp_path, written):
    """The parser first has to recover far below the mistake (in the changes section a view generates, or at the
    paragraph's end), where no source line holds the markup: the build still names the line the mistake is on."""
    page = fixture_project / RELEASE_16
    text = page.read_text(encoding="utf-8").replace("测试页面。\n", f"测试页面。\n\n{written}\n", 1)
    page.write_text(text, encoding="utf-8")
    line = text.split("\n").index(written) + 1
    build_refused(fixture_project, tmp_path, f"{RELEASE_16}:{line}: HTML parse error")


def test_home_page_without_its_timeline_marker(fixture_project):
    _edit(fixture_project, "docs/index.md", "<!-- timeline -->", "")
    refused(fixture_project, "docs/index.md:4: the home page has no '<!-- timeline -->' marker")


def test_misspelt_snippet_directive_is_caught_by_the_snippet_checker_too(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.md").write_text(
        '# Page\n\n<!-- snipet: skip reason="x" -->\n```python\nprint(1)\n```\n', encoding="utf-8"
    )
    result = subprocess.run(
        [sys.executable, "-m", "scripts.snippets", "check", "--docs-dir", str(docs), "--no-run", "--no-cpp"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert (
        result.returncode == 1
        and "page.md:3:1: error: '<!-- snipet: … -->' looks like a misspelt snippet directive" in result.stdout
    )


def test_truncated_snippet_status_file_stops_the_build(fixture_project, tmp_path):
    (fixture_project / "docs/.snippet-status.json").write_text(
        '{"schema": 1, "snippets": {"releases/1.6#01": {"page":', encoding="utf-8"
    )
    build_refused(fixture_project, tmp_path, "docs/.snippet-status.json:1: the snippet status file is not valid JSON")


@pytest.mark.parametrize(
    "body, expected",
    [
        ("```python\nprint(1)\n", "code fence '```' opened here is never closed"),
        ("- item\n\n    ```python\n\tprint(1)\n  print(2)\n    ```\n", "is indented less than the code fence"),
        ("```python\nif True:\nprint(1)\n```\n", "SyntaxError"),
    ],
    ids=["unclosed-fence", "badly-indented-block", "python-that-does-not-parse"],
)
def test_broken_code_blocks_outside_release_pages_stop_the_build(fixture_project, tmp_path, body, expected):
    (fixture_project / "docs/guide.md").write_text(f"---\ntitle: Guide\n---\n\n# Guide\n\n{body}", encoding="utf-8")
    refused(fixture_project, expected)
    build_refused(fixture_project, tmp_path, expected)


def test_non_utf8_bytes_are_reported_at_their_line(fixture_project):
    path = fixture_project / RELEASE_16
    lines = path.read_bytes().split(b"\n")
    lines[22] = lines[22] + b" \xff\xfe"
    path.write_bytes(b"\n".join(lines))
    refused(fixture_project, f"{RELEASE_16}:23: not valid UTF-8 (byte 0xff")


def test_every_problem_of_several_files_is_reported_in_one_run(fixture_project):
    _edit(fixture_project, RELEASE_16, "date: 2020-07-28", "date: 2999-01-01")
    (fixture_project / "docs/x.md").mkdir()
    (fixture_project / "docs/guide.md").write_text("# Guide\n\n<!-- time line -->\n", encoding="utf-8")
    (fixture_project / "docs/guide.en.md").write_text("# Guide\n", encoding="utf-8")
    output = refused(fixture_project, "3 problem(s) found")
    assert "is in the future" in output and "folder named like a page" in output and "unknown marker" in output


# --- raw HTML in a page body: parsed as a browser parses it (issue 24) -------------------------------------

# Each way found to run script, load from another host or cover the page, as a Markdown author would write
# it, with what the build must say about its line. tests/test_html_policy.py shows each acting in Chromium.
RAW_HTML_CASES = [
    ('<script type="text/javascript" type="application/json">alert(2)</script>', "<script>"),
    ('<noscript><p title="</noscript><img src=x onerror=alert(3)>"></noscript>', "<img onerror=…>"),
    ('<xmp><p title="</xmp><img src=x onerror=alert(4)>"></xmp>', "<xmp>"),
    ('<noembed><p title="</noembed><img src=x onerror=alert(5)>"></noembed>', "<noembed>"),
    ('<textarea><p title="</textarea><img src=x onerror=alert(6)>"></textarea>', "<textarea>"),
    ('<a href="jav&#x09;ascript:alert(7)">x</a>', "the URL scheme 'javascript:' is not allowed"),
    ('<a href="java&Tab;script:alert(8)">x</a>', "the URL scheme 'javascript:' is not allowed"),
    (
        '<svg><a><animate attributeName="href" values="javascript:alert(9)"/><text y="20">x</text></a></svg>',
        "<animate>",
    ),
    ('<span style="background:url(https://evil.example/bg.png)">x</span>', "<span style=…>"),
    ('<svg><image href="https://evil.example/i.png"/></svg>', "<image>"),
    ('<img srcset="https://evil.example/s.png 1x" alt="x">', "<img srcset=…>"),
    ('<video poster="https://evil.example/p.png"></video>', "<video>"),
    ('An overlay.\n{: style="position:fixed; top:0; left:0; width:100%; height:100%; z-index:99999" }', "<p style=…>"),
    ("[x](jav&#x09;ascript:alert(10))", "the URL scheme 'javascript:' is not allowed"),
    ("<svg/onload=alert(1)>", "<svg onload=…>"),  # last: the <svg> it opens would take in what follows
]


def test_raw_html_that_would_act_stops_the_build_at_its_line_even_quiet(fixture_project, tmp_path):
    """One build with every case: each is named with the page's file and the line it was written on, by the
    build's own error (MkDocs' warnings about odd links vanish under -q)."""
    body = "\n\n".join(case for case, _ in RAW_HTML_CASES)
    _edit(fixture_project, RELEASE_16, "测试页面。", f"测试页面。\n\n{body}\n")
    lines = (fixture_project / RELEASE_16).read_text(encoding="utf-8").split("\n")
    result = mkdocs_build(fixture_project, tmp_path / "out", "-q")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    assert not (tmp_path / "out" / "index.html").exists()
    reported = output.split("\n")
    missing = []
    for case, expected in RAW_HTML_CASES:
        where = f"{RELEASE_16}:{next(i for i, text in enumerate(lines, 1) if text == case.split(chr(10))[-1])}: "
        if not any(line.startswith(where) and expected in line for line in reported):
            missing.append(where + expected)
    assert missing == [], output


# An SVG drawn by hand, as a chart would be: the allowlist's shapes and text, presentational attributes only.
CHART = (
    '<svg class="chart" viewBox="0 0 100 20" role="img" aria-label="chart" xmlns="http://www.w3.org/2000/svg" focusable="false">'
    '<title>chart</title><g transform="translate(0 2)"><rect x="0" y="0" width="40" height="8" rx="1" fill="currentColor"/>'
    '<line x1="0" y1="10" x2="100" y2="10" stroke="currentColor" stroke-width="0.5"/>'
    '<text x="50" y="18" text-anchor="middle" font-size="6">2.0</text></g></svg>'
)


def test_allowed_raw_html_and_svg_files_build_and_stay_quiet_in_chromium(
    fixture_project, tmp_path, playwright_instance
):
    """What the allowlist is for: an inline chart, an aligned table column, a link, an SVG file under assets;
    the page builds, and in Chromium nothing runs and nothing is requested from another host."""
    from browser import browser_page, serve_directory

    (fixture_project / "docs/assets/images").mkdir(parents=True, exist_ok=True)
    (fixture_project / "docs/assets/images/chart.svg").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n{CHART}\n', encoding="utf-8"
    )
    table = "| a | b |\n|:--|--:|\n| 1 | 2 |"
    _edit(
        fixture_project,
        RELEASE_16,
        "测试页面。",
        f"测试页面。\n\n{CHART}\n\n{table}\n\n[官方](https://pytorch.org/) ![图](../assets/images/chart.svg)\n",
    )
    site = build(fixture_project, tmp_path)
    page_html = soup(site, "releases/1.6")
    assert page_html.select_one("svg.chart rect") and page_html.select_one('th[style="text-align: right;"]')
    assert (site / "assets/images/chart.svg").is_file()
    with serve_directory(site) as base, browser_page(playwright_instance) as (page, log):
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(base + "releases/1.6/", wait_until="networkidle")
        assert page.locator("svg.chart").is_visible()
        assert dialogs == [] and log.foreign_requests == []


def test_an_svg_file_that_would_run_script_is_refused(fixture_project, tmp_path):
    (fixture_project / "docs/assets/images").mkdir(parents=True, exist_ok=True)
    (fixture_project / "docs/assets/images/logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg">\n<rect width="1" height="1"/>\n<script>alert(document.domain)</script>\n</svg>\n',
        encoding="utf-8",
    )
    expected = "docs/assets/images/logo.svg:3: SVG file: <script>"
    refused(fixture_project, expected)
    build_refused(fixture_project, tmp_path, expected)


def test_a_link_to_the_git_folder_is_refused(fixture_project, tmp_path):
    """The deploy checkout writes its token into .git/config; a link inside the repository reaching it is as bad
    as one leaving it."""
    (fixture_project / ".git").mkdir()
    (fixture_project / ".git/config").write_text(
        "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n", encoding="utf-8"
    )
    (fixture_project / "docs/assets/x.txt").symlink_to("../../.git/config")
    (fixture_project / "docs/repo").symlink_to("..")
    output = build_refused(
        fixture_project,
        tmp_path,
        "docs/assets/x.txt:1: symbolic link to '../../.git/config' reaches the repository's .git folder",
    )
    assert "c2VjcmV0" not in output and "docs/repo:1: symbolic link to '..' loops" in output
    refused(
        fixture_project,
        "docs/assets/x.txt:1: symbolic link to '../../.git/config' reaches the repository's .git folder",
    )


# Nine short lines that expand into 9**9 (387 million) strings if anything composes or walks them.
ALIAS_BOMB = "\n".join(
    ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
)


def test_a_yaml_alias_bomb_is_refused_before_it_expands(fixture_project, tmp_path):
    _edit(fixture_project, "docs/index.en.md", "---\n", f"---\n{ALIAS_BOMB}\n")
    started = time.monotonic()
    refused(fixture_project, "docs/index.en.md:3: YAML aliases (*a0) are not allowed in front matter")
    assert time.monotonic() - started < 30
    build_refused(fixture_project, tmp_path, "docs/index.en.md:2: YAML anchors (&a0) are not allowed in front matter")


@pytest.mark.parametrize(
    "old, new, expected",
    [
        (
            'summary: "用于测试的 1.6 页面"',
            'summary: "用于测试的 1.6 页面 \\uFFFE"',
            f"{RELEASE_16}:5: U+FFFE is not allowed in front matter",
        ),
        (
            'title: "PyTorch 1.6：测试页"',
            'title: "PyTorch 1.6：测试页 \ufdd0"',
            f"{RELEASE_16}:4: U+FDD0 is not allowed in front matter",
        ),
        (
            "    name: 原生自动混合精度",
            '    name: "原生自动混合精度 \\U0010FFFF"',
            f"{RELEASE_16}:9: U+10FFFF is not allowed in front matter",
        ),
        (
            "      print(torch.tensor([5]) // torch.tensor([2]))",
            '      print(torch.tensor([5]) // torch.tensor([2]))\n      x = "\ufdef"',
            f"{RELEASE_16}:30: U+FDEF is not allowed in front matter",
        ),
        (
            'summary: "用于测试的 1.6 页面"',
            'summary: "用于测试的 1.6 页面 \\x02"',
            f"{RELEASE_16}:5: U+0002 is not allowed in front matter",
        ),
    ],
    ids=[
        "noncharacter-escaped",
        "noncharacter-raw",
        "last-plane-noncharacter",
        "noncharacter-in-code-block",
        "control-escaped",
    ],
)
def test_code_points_xml_cannot_carry_are_refused_at_their_line(fixture_project, old, new, expected):
    """Every front matter text reaches the RSS feed; one such code point makes it no longer XML."""
    _edit(fixture_project, RELEASE_16, old, new)
    refused(fixture_project, expected)


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"checked": "2026-11-26",\n "torch": {oops}\n}\n', "docs/.pypi-evidence.json:2: not valid JSON"),
        ('["not", "an", "object"]\n', "docs/.pypi-evidence.json:1: an evidence file is an object"),
        (
            '{"checked": "2026-11-28", "torchvision": {}, "torchaudio": {},\n "torch": {"1.6.0": {"dists": [\n'
            '  {"platform": "win_amd64",\n   "python": "cp38-cp38", "requires_python": ">=3.x"}]}}}\n',
            "docs/.pypi-evidence.json:4: torch 1.6.0: 'requires_python' of a dists entry is not a Requires-Python",
        ),
    ],
)
def test_a_broken_registry_evidence_file_stops_the_build_with_its_file_and_line(
    fixture_project, tmp_path, text, expected
):
    (fixture_project / "docs" / ".pypi-evidence.json").write_text(text, encoding="utf-8")
    result = mkdocs_build(fixture_project, tmp_path / "site")
    assert result.returncode != 0
    assert expected in result.stdout + result.stderr
