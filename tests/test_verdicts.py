"""scripts/verdicts/rules.py: one answer per version question, held to the registry evidence; and where the site shows
it (quick facts, matrix) it is that answer, not a platform-blind union."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from conftest import ROOT
from parsed_pages import parsed_page

from scripts.catalog.model import version_key
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.registry.wheels import cuda_of_version_py, library_record, release_record
from scripts.verdicts.rules import accepts, command_pythons, default_cuda, install_patch, library_pin, python_verdict

EVIDENCE = load_evidence(ROOT / "docs" / EVIDENCE_FILE)


def test_python_verdicts_follow_the_main_platform_not_a_single_odd_wheel(catalog):
    releases = catalog.by_version()
    # 1.10.2's only cp310 wheel is manylinux aarch64; 1.5.0's only cp27 wheel is a macOS one.
    assert "3.10" not in python_verdict(releases["1.10"], EVIDENCE).versions
    assert "3.10" in python_verdict(releases["1.10"], EVIDENCE).per_platform["linux-aarch64"]
    assert "2.7" not in python_verdict(releases["1.5"], EVIDENCE).versions
    assert "2.7" in python_verdict(releases["1.5"], EVIDENCE).per_platform["macos-x86_64"]
    assert python_verdict(releases["2.14"], EVIDENCE).versions == ("3.10", "3.11", "3.12", "3.13", "3.14", "3.14t")
    assert python_verdict(releases["2.2"], EVIDENCE).versions[-1] == "3.12"  # the first cp312 wheels


def test_the_default_build_is_read_from_the_wheels_own_version_file(catalog):
    releases = catalog.by_version()
    assert default_cuda(releases["2.14"], EVIDENCE) == "13.0"
    assert default_cuda(releases["1.0"], EVIDENCE) == "9.0"  # version.py wrote '9.0.176'
    assert cuda_of_version_py("cuda: Optional[str] = '13.0'\n") == "13.0"
    assert cuda_of_version_py("cuda = None\n") is None


def test_pins_follow_requires_dist_and_avoid_yanked_files(catalog):
    releases = catalog.by_version()
    pin = library_pin(releases["2.14"], EVIDENCE, "torchvision", "2.14.1")
    assert (pin.version, pin.claimed, pin.why) == ("0.29.1", "0.29.0", "rejects")
    assert library_pin(releases["2.14"], EVIDENCE, "torchvision", "2.14.0").version == "0.29.0"
    yanked = library_pin(releases["1.0"], EVIDENCE, "torchvision", "1.0.1")
    assert yanked.yanked and yanked.version == "0.2.2"
    assert install_patch(releases["1.8"], EVIDENCE) == "1.8.1"  # 1.8.2 (LTS) was never on PyPI


def test_requires_dist_is_read_as_pip_reads_it():
    assert not accepts(["torch==2.14.0"], "2.14.1")
    assert accepts(["torch>=2.14.0"], "2.15.0")
    assert accepts([], "2.15.0")
    assert accepts(['torch==1.0; python_version < "3"'], "2.0.0"), "a marker line is a platform detail"
    assert command_pythons(EVIDENCE, {"torch": "2.5.1", "torchvision": "0.20.1"}) == ("3.9", "3.10", "3.11", "3.12")
    assert command_pythons(EVIDENCE, {"torch": "2.14.1", "torchvision": "0.29.2"})[-1] == "3.14t", (
        "a py3 wheel fits any"
    )


def test_evidence_records_keep_yanked_files_and_platforms():
    files = [
        {
            "filename": "torchvision-0.2.2-py2.py3-none-any.whl",
            "yanked": "reason",
            "upload-time": "2019-02-27T00:00:00Z",
        },
    ]
    record = library_record(files, ["torch"])
    assert record["yanked"] and record["yanked_reason"] == "reason" and record["wheels"] == {"any": ["py2", "py3"]}
    mixed = release_record([
        {"filename": "torch-1.0.0-cp37-cp37m-manylinux1_x86_64.whl", "upload-time": "2018-12-07T00:00:00Z"},
        {"filename": "torch-1.0.0-cp27-none-macosx_10_7_x86_64.whl", "upload-time": "2018-12-07T00:00:00Z", "yanked": True},
    ])  # fmt: skip
    assert mixed["wheels"] == {"linux-x86_64": ["3.7"]} and mixed["yanked_files"] == [
        "torch-1.0.0-cp27-none-macosx_10_7_x86_64.whl"
    ]


def _soup(built_site, path: str) -> BeautifulSoup:
    return parsed_page(built_site / path)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_matrix_gives_one_verdict_per_cell_and_keeps_the_sources_one_click_away(built_site, lang):
    prefix = "" if lang == "zh" else "en/"
    soup = _soup(built_site, f"{prefix}compatibility/index.html")
    table = soup.select_one("#compat-table")
    assert table.find_parent(class_="compat-scroll") is None, "no inner scroll box"
    rows = {tr["data-version"]: tr for tr in table.select("tbody tr.compat-row")}
    sources = {tr["data-sources-for"]: tr for tr in table.select("tbody tr.compat-sources-row")}
    for version, row in rows.items():
        for cell in row.select("td")[:-1]:
            assert not cell.select(".claim-conflict"), (version, cell)
            assert len(cell.select(".verdict-value")) <= 1
        toggle = row.select_one("td.row-sources-cell button.row-sources-toggle")
        assert (toggle is not None and version in sources) or version.startswith("0."), version
        if toggle is not None:
            # The button opens a row of its own right under the release's, hidden until then.
            assert toggle["aria-controls"] == sources[version]["id"] and toggle["aria-expanded"] == "false"
            assert row.find_next_sibling("tr") is sources[version] and sources[version].has_attr("hidden")
    assert rows["1.10"].select_one("td .verdict-value").get_text() == "3.6–3.9"
    assert rows["1.5"].select_one("td .verdict-value").get_text() == "3.5–3.8"
    assert (
        json.loads(rows["1.10"].select_one("[data-python-by-platform]")["data-python-by-platform"])["linux-aarch64"]
        == "3.6–3.10"
    )
    assert "3.10" not in rows["1.10"]["data-python"].split()
    assert rows["2.14"].select_one("td:nth-of-type(6) .verdict-value").get_text() == "2.14.0 → 0.29.0 · 2.14.1 → 0.29.1"
    # Every source's claim is still there, folded: 2.14's three Python claims.
    assert len(sources["2.14"].select("ul.claims")[0].select("li")) == 3


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_quick_facts_open_every_release_page(built_site, catalog, lang):
    prefix = "" if lang == "zh" else "en/"
    for release in catalog.releases:
        article = _soup(built_site, f"{prefix}releases/{release.version}/index.html").select_one("article")
        quick = article.select_one("section.quick-facts")
        assert quick is not None, release.version
        headings = article.select("h2")
        assert not headings or quick.sourceline < headings[0].sourceline, "quick facts come before the content"
        assert article.select_one(".quick-links a[href='#install']") is not None
        assert quick.select_one(".quick-date time")["datetime"] == release.date_iso
        notes = f"https://github.com/pytorch/pytorch/releases/tag/v{release.version}.0"
        has_notes = article.select_one(f'.quick-links a[href="{notes}"]') is not None
        assert has_notes == (version_key(release.version) >= (1, 0) and not release.provisional), release.version
        if version_key(release.version) >= (1, 0):
            verdict = python_verdict(release, EVIDENCE)
            assert quick.select_one(".quick-python dd") is not None, release.version
            if verdict.source == "PyPI":
                assert quick.select_one(".quick-python dd").get_text().startswith(verdict.versions[0])
        # Provenance caveats are folded behind their marker, never shown above the content.
        for note in article.select(".release-date-note, .release-source-note"):
            assert note.find_parent("details") is not None
