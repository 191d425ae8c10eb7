"""Hostile and broken input fed to the real tools: each case ends in a clear `file:line` error (non-zero exit,
no traceback) or in a correct, safe site.

Cases are grouped as the issue that asked for them: script injection through front matter, files under
docs/, and facts that must not pass. Most run `make check-pages`' command (`python -m scripts.releases`),
which is what the build's first hook runs too; the ones whose outcome is a safe page run a real build.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import ROOT, edit as _edit, mkdocs_build

RELEASE_16 = "docs/releases/1.6.md"
RELEASE_16_EN = "docs/releases/1.6.en.md"


def check_pages(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scripts.releases", "--docs-dir", "docs"], cwd=project, capture_output=True, text=True, timeout=120,
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
    found += [a["href"] for a in page.find_all("a", href=True) if a["href"].strip().lower().startswith("javascript:")]
    found += [str(s)[:60] for s in page.find_all("script") if "alert(1)" in s.get_text()]
    return found


def test_title_with_html_is_text_everywhere(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, 'title: "PyTorch 1.6：测试页"', f'title: "PyTorch 1.6 {IMG}"')
    page = soup(build(fixture_project, tmp_path), "releases/1.6")
    assert IMG in page.title.get_text() and IMG in page.find("h1").get_text()
    assert page.find("img", src="x") is None and not _executable_markup(page)
    assert page.find("meta", property="og:title")["content"].endswith(IMG)


def test_title_cannot_add_attributes_to_the_heading(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, 'title: "PyTorch 1.6：测试页"', 'title: "PyTorch 1.6 { autofocus onfocus=\\"alert(1)\\" }"')
    page = soup(build(fixture_project, tmp_path), "releases/1.6")
    heading = page.find("h1")
    assert "onfocus" not in heading.attrs and "autofocus" not in heading.attrs
    assert 'onfocus="alert(1)"' in heading.get_text()


def test_description_is_text_in_meta_tags_of_every_page(fixture_project, tmp_path):
    attack = '"><script>alert(1)</script>'
    _edit(fixture_project, RELEASE_16, 'summary: "用于测试的 1.6 页面"', f'summary: "用于测试的 1.6 页面"\ndescription: {attack!r}')
    _edit(fixture_project, RELEASE_16_EN, 'summary: "A 1.6 page for tests"', f'summary: "A 1.6 page for tests"\ndescription: {attack!r}')
    (fixture_project / "docs/other.en.md").write_text(f"---\ntitle: Other\ndescription: {attack!r}\n---\n\n# Other\n", encoding="utf-8")
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

    _edit(fixture_project, RELEASE_16, 'title: "PyTorch 1.6：测试页"', f'title: "PyTorch 1.6 {IMG} {{ autofocus onfocus=\\"alert(2)\\" }}"')
    _edit(fixture_project, RELEASE_16, "    name: 原生自动混合精度", f"    name: {IMG + ' Stable ABI](javascript:alert(3)) [x'!r}")
    _edit(fixture_project, RELEASE_16, 'summary: "用于测试的 1.6 页面"', 'summary: "用于测试的 1.6 页面"\ndescription: "\\"><script>alert(4)</script>"')
    _edit(fixture_project, RELEASE_16_EN, 'summary: "A 1.6 page for tests"', 'summary: "A 1.6 page for tests"\ndescription: "\\"><script>alert(5)</script>"')
    site = build(fixture_project, tmp_path)
    with serve_directory(site) as base:
        for url in (base + "releases/1.6/", (site / "releases/1.6/index.html").as_uri(), base):
            with browser_page(playwright_instance) as (page, log):
                dialogs = []
                page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
                page.goto(url)
                page.keyboard.press("Tab")
                page.wait_for_timeout(300)
                assert dialogs == [], f"{url}: {dialogs}"


# --- files under docs/ -------------------------------------------------------------------------------------


def test_symlink_to_the_environment_is_refused_before_anything_is_read(fixture_project, tmp_path):
    (fixture_project / "docs/env.txt").symlink_to("/proc/self/environ")
    output = build_refused(fixture_project, tmp_path, "docs/env.txt:1: symbolic link to '/proc/self/environ' leads outside the repository")
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
        ("date: 2020-07-28", "date: 2019-01-01", f"{RELEASE_16}:3: date 2019-01-01 is earlier than the release before it (1.5: 2020-04-21)"),
        ('title: "PyTorch 1.6：测试页"', 'title: !custom "PyTorch 1.6"', f"{RELEASE_16}:4: unknown YAML tag '!custom'"),
        ('title: "PyTorch 1.6：测试页"', "title: !!python/object/apply:os.system [id]", "unknown YAML tag 'tag:yaml.org,2002:python/object/apply:os.system'"),
        ("source: https://pytorch.org/blog/pytorch-1.6-released/", 'source: "https://"', "bad source URL 'https://': it has no valid host name"),
        ("source: https://pytorch.org/blog/pytorch-1.6-released/", "source: 'https://pytorch.org/\"onmouseover=\"alert(1)'", "it contains characters a link may not hold"),
        ("source: https://pytorch.org/blog/pytorch-1.6-released/", "source: https://pytorch.org/blog/[x](y)", "it contains characters a link may not hold"),
        ("source: https://pytorch.org/blog/pytorch-1.6-released/", "source: javascript:alert(1)", "expected an https:// link"),
        ('summary: "用于测试的 1.6 页面"', 'summary: &s "用于测试的 1.6 页面"\ndescription: *s', "YAML aliases (*name) are not allowed"),
        ('      version: "0.7.0"', '      version: "0.7.0"\n      note: nowhere', "note 'nowhere' is not defined under compat.notes"),
        ('    - supported: ["3.6", "3.7", "3.8"]', '    - supported: ["3.6", "3.1O"]', "unknown Python version '3.1O'"),
        ('    - torch: ["1.6.0"]', '    - torch: ["1.6.9"]', "torch 1.6.9 is not a patch release of 1.6 listed in 'patches'"),
        ("      sources: [P, V]\n", "", "a torchvision claim is missing required field 'sources'"),
        ('    follows: "1.5#int-div-warning"', '    follows: "1.5#no-such-change"', "follows 'no-such-change', which docs/releases/1.5.md does not list"),
    ],
    ids=[
        "version-vs-file-name", "version-leading-zero", "date-in-future", "date-before-previous", "unknown-yaml-tag", "python-yaml-tag",
        "url-without-host", "url-with-quotes", "url-with-brackets", "javascript-url", "yaml-alias", "undefined-compat-note",
        "unknown-python-version", "pairing-for-missing-patch", "pairing-without-source", "follows-missing-change",
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
    (fixture_project / "docs/lifecycle.en.md").write_text("---\ntitle: Lifecycle\ndescription: [unclosed\n---\n\n# Lifecycle\n", encoding="utf-8")
    refused(fixture_project, "docs/lifecycle.en.md:3: malformed front matter")


def test_release_front_matter_outside_releases_is_refused(fixture_project):
    (fixture_project / "docs/notes.md").write_text('---\ntitle: Notes\nversion: "3.0"\nfeatures: []\n---\n\n# Notes\n', encoding="utf-8")
    refused(fixture_project, "docs/notes.md:3: 'version' is release front matter")


@pytest.mark.parametrize(
    "line, expected",
    [
        ("<!-- time line -->", "unknown marker '<!-- time line -->'; did you mean '<!-- timeline -->'?"),
        ("<!-- topic: Quantum -->", "unknown area 'Quantum' in topic marker"),
        ("<!-- snipet: skip reason=\"x\" -->", "looks like a misspelt snippet directive"),
    ],
    ids=["timeline", "topic-area", "snippet-directive"],
)
def test_misspelt_markers_name_their_line(fixture_project, tmp_path, line, expected):
    path = fixture_project / "docs/topics/misspelt.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"---\ntitle: Topic\n---\n\n# Topic\n\n{line}\n```python\nprint(1)\n```\n", encoding="utf-8")
    refused(fixture_project, f"docs/topics/misspelt.md:7: {expected}" if "snipet" not in line else expected)
    build_refused(fixture_project, tmp_path, expected)


def test_home_page_without_its_timeline_marker(fixture_project):
    _edit(fixture_project, "docs/index.md", "<!-- timeline -->", "")
    refused(fixture_project, "docs/index.md:4: the home page has no '<!-- timeline -->' marker")


def test_misspelt_snippet_directive_is_caught_by_the_snippet_checker_too(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.md").write_text('# Page\n\n<!-- snipet: skip reason="x" -->\n```python\nprint(1)\n```\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "scripts.snippets", "check", "--docs-dir", str(docs), "--no-run", "--no-cpp"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 1 and "page.md:3:1: error: '<!-- snipet: … -->' looks like a misspelt snippet directive" in result.stdout


def test_truncated_snippet_status_file_stops_the_build(fixture_project, tmp_path):
    (fixture_project / "docs/.snippet-status.json").write_text('{"schema": 1, "snippets": {"releases/1.6#01": {"page":', encoding="utf-8")
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
    output = refused(fixture_project, "3 problem(s) found")
    assert "is in the future" in output and "folder named like a page" in output and "unknown marker" in output
