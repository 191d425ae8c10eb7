"""Generated HTML that goes into a page after Markdown, through a placeholder (overrides/hooks/release_pages.py:
a release page's header; overrides/hooks/generated_views.py: the views): the page gets it where Markdown left
the placeholder, and a page that writes a placeholder of its own is refused instead of getting it twice."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup
from conftest import edit, mkdocs_build

RELEASE_16 = "docs/releases/1.6.md"
HEADER_PLACEHOLDER = '<div class="generated-view" data-view="release-header"></div>'


def test_a_release_page_gets_its_header_where_the_placeholder_was(fixture_project, tmp_path):
    result = mkdocs_build(fixture_project, tmp_path / "out")
    assert result.returncode == 0, result.stdout + result.stderr
    page = (tmp_path / "out" / "releases" / "1.6" / "index.html").read_text(encoding="utf-8")
    article = BeautifulSoup(page, "html.parser").select_one("article")
    assert 'data-view="release-header"' not in page
    first = article.find(["h1", "div", "p"])
    assert first.name == "h1" and "release-title" in first["class"], first
    assert article.select_one("h1.release-title + div.release-meta > section.quick-facts"), "the facts follow the H1"


def test_a_page_that_writes_the_header_placeholder_is_refused(fixture_project, tmp_path):
    edit(fixture_project, RELEASE_16, "测试页面。", f"测试页面。\n\n{HEADER_PLACEHOLDER}\n")
    result = mkdocs_build(fixture_project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    # Refused at its line before MkDocs reads the page (reserved markup: scripts/checks/markup/page_markup.py); the
    # hook's own guard ("the release header's placeholder did not survive Markdown") is the second line.
    assert "docs/releases/1.6.md:" in output and "data-view" in output, output
    assert "Traceback" not in output, output
    assert not Path(tmp_path / "out" / "index.html").exists()
