"""Bad release pages fed to a real `mkdocs build`: each must stop the build with `path:line: message`."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit as _edit
from conftest import mkdocs_build

RELEASE_16 = "docs/releases/1.6.md"


def _build_fails_with(project: Path, tmp_path: Path, expected: str) -> str:
    result = mkdocs_build(project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"build should fail but exited 0:\n{output}"
    assert expected in output, f"expected {expected!r} in build output:\n{output}"
    assert not (tmp_path / "out" / "index.html").exists(), "a failed validation must not leave a built site"
    return output


def test_fixture_project_builds(fixture_project, tmp_path):
    result = mkdocs_build(fixture_project, tmp_path / "out")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "out" / "en" / "releases" / "1.6" / "index.html").is_file()


def test_missing_required_field(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, 'summary: "用于测试的 1.6 页面"\n', "")
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:1: missing required field 'summary'")


@pytest.mark.parametrize(
    "bad_date, reason",
    [
        ("2020-13-28", "no month 13"),
        ("2020-02-30", "no 30 February"),
        ("28/07/2020", "not ISO"),
        ("July 2020", "words"),
    ],
)
def test_bad_date(fixture_project, tmp_path, bad_date, reason):
    _edit(fixture_project, RELEASE_16, "date: 2020-07-28", f"date: {bad_date}")
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:3: bad date '{bad_date}'")


def test_unknown_maturity_label(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, "maturity: Beta", "maturity: Alpha")
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:15: unknown maturity label 'Alpha'")


def test_unknown_area(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, "area: JIT", "area: Quantum")
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:14: unknown area 'Quantum'")


def test_page_name_that_is_not_a_version(fixture_project, tmp_path):
    # A second pair of files that claims to be 1.6 as well: the file name is what names a release.
    for suffix in ("", ".en"):
        src = fixture_project / f"docs/releases/1.6{suffix}.md"
        (fixture_project / f"docs/releases/1.6-copy{suffix}.md").write_text(
            src.read_text(encoding="utf-8"), encoding="utf-8"
        )
    output = _build_fails_with(
        fixture_project, tmp_path, "docs/releases/1.6-copy.md:1: a release page is named <version>.md"
    )
    assert "docs/releases/1.6-copy.en.md:1: a release page is named" in output


def test_version_that_does_not_match_the_file_name(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, 'version: "1.6"', 'version: "1.7"')
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:2: version '1.7' does not match the file name 1.6.md")


def test_duplicate_feature_id(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, "  - id: torchscript-fork-join", "  - id: native-amp")
    _build_fails_with(
        fixture_project, tmp_path, f"{RELEASE_16}:12: duplicate feature id 'native-amp' (first used on line 8)"
    )


def test_release_missing_in_one_language(fixture_project, tmp_path):
    (fixture_project / "docs/releases/1.5.en.md").unlink()
    _build_fails_with(
        fixture_project,
        tmp_path,
        "docs/releases/1.5.md:2: release 1.5 has no English page: add docs/releases/1.5.en.md",
    )


def test_malformed_front_matter(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, 'title: "PyTorch 1.6：测试页"', 'title: "PyTorch 1.6：测试页')
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:")
    result = mkdocs_build(fixture_project, tmp_path / "again")
    assert "malformed front matter" in result.stdout + result.stderr


def test_unclosed_front_matter(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, "---\n\n测试页面。", "\n测试页面。")
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:1: front matter is not closed")


def test_fact_written_in_the_english_page(fixture_project, tmp_path):
    _edit(
        fixture_project,
        "docs/releases/1.6.en.md",
        'title: "PyTorch 1.6: test page"',
        'title: "PyTorch 1.6: test page"\ndate: 2020-07-28',
    )
    _build_fails_with(
        fixture_project,
        tmp_path,
        "docs/releases/1.6.en.md:3: 'date' is a fact, written once in the Chinese page 1.6.md",
    )


def test_feature_name_missing_in_translation(fixture_project, tmp_path):
    _edit(fixture_project, "docs/releases/1.6.en.md", '  torchscript-fork-join: "TorchScript fork/join"\n', "")
    _build_fails_with(
        fixture_project, tmp_path, "docs/releases/1.6.en.md:6: feature 'torchscript-fork-join' has no English name"
    )


def test_feature_without_section(fixture_project, tmp_path):
    _edit(
        fixture_project, RELEASE_16, "### TorchScript fork/join { #torchscript-fork-join }", "### TorchScript fork/join"
    )
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:12: feature 'torchscript-fork-join' has no section")


def test_unclosed_code_fence(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, "print(torch.ones(2))\n```\n", "print(torch.ones(2))\n")
    _build_fails_with(fixture_project, tmp_path, f"{RELEASE_16}:50: code fence '```' opened here is never closed")


def test_every_problem_is_reported_at_once(fixture_project, tmp_path):
    _edit(fixture_project, RELEASE_16, "maturity: Beta", "maturity: Alpha")
    _edit(fixture_project, "docs/releases/1.5.md", "area: Distributed", "area: Nowhere")
    output = _build_fails_with(fixture_project, tmp_path, "2 problem(s)")
    assert "unknown maturity label 'Alpha'" in output and "unknown area 'Nowhere'" in output
