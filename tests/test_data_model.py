"""Unit tests of the data model, the renderers and the scaffold (no MkDocs build)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

from scripts.catalog.fences import heading_anchors
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import ReleaseDataError, language_of, version_key
from scripts.tools.new_release import scaffold
from scripts.views.html import join_cjk_soft_breaks
from scripts.views.release.features import features_section
from scripts.views.release.header import release_header
from scripts.views.timeline import timeline


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
        (docs / "releases" / name).write_text(
            text.replace('version: "1.6"', "version: 1.10")
            .replace("1.6.0", "1.10.0")
            .replace('    follows: "1.5#int-div-warning"\n', ""),
            encoding="utf-8",
        )
    assert load_catalog(docs).releases[0].version == "1.10"


def test_heading_anchors_ignore_code_fences():
    body = "### Real { #real }\n```markdown\n### Fake { #fake }\n```\n"
    assert heading_anchors(body) == {"real"}


def test_timeline_markdown_links_and_counts():
    catalog = load_catalog(FIXTURES / "site")
    text = timeline(catalog, "en")
    assert text.index('data-version="1.6"') < text.index('data-version="1.5"')
    assert "(releases/1.6.md)" in text and "(releases/1.5.md)" in text
    # One pill per label the release uses, none at zero (scripts/views/timeline.py maturity_counts_html).
    assert 'data-maturity="Stable">1 Stable<' in text and 'data-maturity="Prototype"' not in text


def test_release_header_has_facts():
    page = load_catalog(FIXTURES / "site").page("1.6", "zh")
    header = release_header(page)
    assert header.startswith('<h1 class="release-title">PyTorch 1.6：测试页</h1>')
    assert '<time datetime="2020-07-28">' in header and page.source in header
    assert '<a href="#native-amp">原生自动混合精度</a>' in features_section(page)


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
    assert "docs/releases/2.10.md:4: bad date 'TODO'" in str(info.value).replace(str(tmp_path) + "/", "")
    with pytest.raises(FileExistsError):
        scaffold("2.10", tmp_path / "docs")


def test_scaffold_cli_rejects_bad_version(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "scripts.new_release", "two", "--docs-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1 and "bad version 'two'" in result.stderr


def test_validator_cli_reports_and_exits_nonzero(tmp_path):
    scaffold("3.0", tmp_path / "docs")
    result = subprocess.run(
        [sys.executable, "-m", "scripts.checks.pages", "--docs-dir", str(tmp_path / "docs")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "3.0.md:5: bad source URL 'TODO'" in result.stderr and "problem(s) found" in result.stderr


def _fixture_docs(tmp_path):
    import shutil

    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    return docs


def test_a_change_without_english_text_is_a_missing_translation(tmp_path):
    docs = _fixture_docs(tmp_path)
    page = docs / "releases/1.6.en.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            '  int-div-error: "Integer tensors divided with `/` raise an error"\n', ""
        ),
        encoding="utf-8",
    )
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(docs)
    assert "change 'int-div-error' has no English text" in str(info.value)


def test_a_compat_note_without_english_text_is_a_missing_translation(tmp_path):
    docs = _fixture_docs(tmp_path)
    page = docs / "releases/1.6.md"
    text = page.read_text(encoding="utf-8")
    text = text.replace('      version: "0.7.0"\n', '      version: "0.7.0"\n      note: readme\n').replace(
        "---\n\n测试页面。", "  notes:\n    - {id: readme, text: 说明}\n---\n\n测试页面。"
    )
    page.write_text(text, encoding="utf-8")
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(docs)
    assert "compatibility note 'readme' has no English text" in str(info.value)
    en = docs / "releases/1.6.en.md"
    en.write_text(
        en.read_text(encoding="utf-8").replace("features:\n", "compat_notes:\n  readme: A note\nfeatures:\n", 1),
        encoding="utf-8",
    )
    assert load_catalog(docs).page("1.6", "en").compat.notes == {"readme": "A note"}


def test_a_month_only_date_needs_its_evidence(tmp_path):
    docs = _fixture_docs(tmp_path)
    page = docs / "releases/1.6.md"
    page.write_text(page.read_text(encoding="utf-8").replace("date: 2020-07-28", "date: 2020-07"), encoding="utf-8")
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(docs)
    assert "releases/1.6.md:3: a date known only to the month needs a 'date_note'" in str(info.value)


def test_feature_id_in_two_areas_is_refused(tmp_path):
    docs = _fixture_docs(tmp_path)
    page = docs / "releases/1.5.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        .replace("  - id: distributed-rpc", "  - id: native-amp")
        .replace("{ #distributed-rpc }", "{ #native-amp }"),
        encoding="utf-8",
    )
    en = docs / "releases/1.5.en.md"
    en.write_text(
        en.read_text(encoding="utf-8")
        .replace("  distributed-rpc:", "  native-amp:")
        .replace("{ #distributed-rpc }", "{ #native-amp }"),
        encoding="utf-8",
    )
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(docs)
    assert "feature 'native-amp' is in area 'Performance' here but 'Distributed'" in str(info.value)


# --- LTS --------------------------------------------------------------------------------------------------

LTS_FIELD = 'lts:\n  patches: ["1.6.0"]\n  source: https://pytorch.org/get-started/previous-versions/\n  evidence: official\n  note: 长期支持\n'


def test_an_lts_line_is_read_with_its_note_in_each_language(tmp_path):
    docs = _fixture_docs(tmp_path)
    page = docs / "releases/1.6.md"
    page.write_text(page.read_text(encoding="utf-8").replace("patches:", LTS_FIELD + "patches:", 1), encoding="utf-8")
    en = docs / "releases/1.6.en.md"
    en.write_text(
        en.read_text(encoding="utf-8").replace("features:\n", "lts_note: Long-term support\nfeatures:\n", 1),
        encoding="utf-8",
    )
    release = load_catalog(docs).by_version()["1.6"]
    assert (release.lts.patches, release.lts.evidence, release.lts.note) == (("1.6.0",), "official", "长期支持")
    assert release.pages["en"].lts.note == "Long-term support" and release.lts.source.startswith("https://pytorch.org/")
    assert load_catalog(docs).by_version()["1.5"].lts is None


@pytest.mark.parametrize(
    "field, english, message",
    [
        (LTS_FIELD, "", "missing 'lts_note'"),
        (LTS_FIELD.replace('["1.6.0"]', '["1.6.2"]'), "lts_note: x\n", "lts: patch '1.6.2' is not listed in 'patches'"),
        (LTS_FIELD.replace("evidence: official", "evidence: rumour"), "lts_note: x\n", "unknown evidence 'rumour'"),
        (LTS_FIELD.replace("  note: 长期支持\n", ""), "lts_note: x\n", "lts is missing required field 'note'"),
        ("", "lts_note: x\n", "'lts_note' has nothing to translate"),
    ],
)
def test_a_broken_lts_line_is_refused_with_its_line(tmp_path, field, english, message):
    docs = _fixture_docs(tmp_path)
    page = docs / "releases/1.6.md"
    page.write_text(page.read_text(encoding="utf-8").replace("patches:", field + "patches:", 1), encoding="utf-8")
    en = docs / "releases/1.6.en.md"
    en.write_text(en.read_text(encoding="utf-8").replace("features:\n", english + "features:\n", 1), encoding="utf-8")
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(docs)
    assert message in str(info.value) and "releases/1.6" in str(info.value)
