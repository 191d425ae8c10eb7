"""Unit tests of the data model, the renderers and the scaffold (no MkDocs build)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from scripts.new_release import scaffold
from scripts.releases import ReleaseDataError, heading_anchors, language_of, load_catalog, version_key
from scripts.render import join_cjk_soft_breaks, release_header, timeline


def test_versions_sort_as_numbers():
    assert sorted(["1.10", "1.9", "2.0", "1.2"], key=version_key) == ["1.2", "1.9", "1.10", "2.0"]


def test_language_from_file_name():
    assert language_of(Path("releases/1.6.md")) == "zh"
    assert language_of(Path("releases/1.6.en.md")) == "en"
    assert language_of(Path("releases/1.10.md")) == "zh"


def test_fixture_catalog_newest_first():
    catalog = load_catalog(FIXTURES / "site")
    assert [r.version for r in catalog.releases] == ["1.6", "1.5"]
    assert catalog.previous("1.6").version == "1.5" and catalog.previous("1.5") is None
    assert catalog.page("1.6", "en").url == "en/releases/1.6/"
    assert catalog.page("1.6", "zh").maturity_counts() == {"Stable": 1, "Beta": 1}


def test_unquoted_version_keeps_its_text(tmp_path):
    docs = tmp_path / "docs"
    (docs / "releases").mkdir(parents=True)
    for name in ("1.10.md", "1.10.en.md"):
        text = (FIXTURES / "site/releases" / name.replace("1.10", "1.6")).read_text(encoding="utf-8")
        (docs / "releases" / name).write_text(text.replace('version: "1.6"', "version: 1.10"), encoding="utf-8")
    assert load_catalog(docs).releases[0].version == "1.10"


def test_heading_anchors_ignore_code_fences():
    body = "### Real { #real }\n```markdown\n### Fake { #fake }\n```\n"
    assert heading_anchors(body) == {"real"}


def test_timeline_markdown_links_and_counts():
    catalog = load_catalog(FIXTURES / "site")
    text = timeline(catalog, "en")
    assert text.index('data-version="1.6"') < text.index('data-version="1.5"')
    assert "(releases/1.6.md)" in text and "(releases/1.5.md)" in text
    assert 'data-maturity="Prototype">0 Prototype<' in text


def test_release_header_has_facts():
    page = load_catalog(FIXTURES / "site").page("1.6", "zh")
    header = release_header(page)
    assert header.startswith("# PyTorch 1.6：测试页")
    assert '<time datetime="2020-07-28">' in header and page.source in header
    assert "[原生自动混合精度](#native-amp)" in header


def test_cjk_soft_breaks_are_joined_outside_code():
    text = "只有“稳定”和\n“实验性”两种。\n\n```python\n# 中文\n# 注释\n```\n- 列表\n- 项\nEnglish\nwords"
    joined = join_cjk_soft_breaks(text)
    assert "只有“稳定”和“实验性”两种。" in joined
    assert "# 中文\n# 注释" in joined and "- 列表\n- 项" in joined and "English\nwords" in joined


def test_scaffold_creates_both_pages_that_fail_until_filled(tmp_path):
    created = scaffold("2.10", tmp_path / "docs")
    assert [p.name for p in created] == ["2.10.md", "2.10.en.md"]
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(tmp_path / "docs")
    assert "docs/releases/2.10.md:3: bad date 'TODO'" in str(info.value).replace(str(tmp_path) + "/", "")
    with pytest.raises(FileExistsError):
        scaffold("2.10", tmp_path / "docs")


def test_scaffold_cli_rejects_bad_version(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "scripts.new_release", "two", "--docs-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 1 and "bad version 'two'" in result.stderr


def test_validator_cli_reports_and_exits_nonzero(tmp_path):
    scaffold("3.0", tmp_path / "docs")
    result = subprocess.run(
        [sys.executable, "-m", "scripts.releases", "--docs-dir", str(tmp_path / "docs")], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 1
    assert "3.0.en.md:6: bad source URL 'TODO'" in result.stderr and "problem(s) found" in result.stderr
