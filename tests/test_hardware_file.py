"""docs/.hardware.yml (scripts/catalog/hardware/model.py, hardware_file.py): the real file loads and agrees with the release
pages; every kind of bad input is a file:line problem, like the release front matter; the lookups the verdicts use."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES, ROOT

from scripts.catalog.hardware.file import hardware_problems, load_hardware
from scripts.catalog.hardware.model import HARDWARE_FILE, cuda_of_build
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import ReleaseDataError

REAL = (ROOT / "docs" / HARDWARE_FILE).read_text(encoding="utf-8")


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _load(tmp_path, text: str):
    (tmp_path / HARDWARE_FILE).write_text(text, encoding="utf-8")
    return load_hardware(tmp_path)


def test_the_real_file_loads_and_agrees_with_the_pages(catalog):
    hardware = catalog.hardware
    assert hardware is not None and hardware_problems(hardware, catalog.releases) == []
    cu130 = hardware.arch_list("2.14", "cu130", "linux-x86_64")
    assert cu130 is not None and cu130.archs[0] == "7.5" and cu130.ptx == ("12.0",)
    assert hardware.arch_list("2.14", "cu130", "windows").ptx == ()  # +PTX on Linux only
    assert hardware.arch_list("2.8", "cu128", "windows") is None  # Windows lists are known from 2.9 on
    assert hardware.driver("12.8").linux == "525" and hardware.driver("13.2").linux == "580"
    assert hardware.driver("10.2").fact.evidence == "copy" and hardware.driver("10.2").fact.caveat
    assert hardware.generation("8.9").name == "Ada" and hardware.generation("6.1").name == "Pascal"
    assert hardware.generation("8.7") is None  # no official source names it here
    assert hardware.mps_floor("1.11") is None and hardware.mps_floor("2.5").macos == "12.3"
    assert hardware.mps_floor("2.5").raised_later and hardware.mps_floor("2.9").macos == "14.0"
    assert hardware.conda.last == "2.5" and hardware.xpu.since == "2.5"
    assert hardware.binary_compatibility.sources == ("NV-ADA",)
    cudnn, nccl = hardware.build_libraries("2.13", "cu130")
    assert (cudnn.cudnn, nccl.nccl) == ("9.20.0.48", "2.29.7")


def test_every_source_has_a_name_in_each_language_and_a_fact_shows_the_pages_one(catalog, verdicts):
    """A Chinese page names a source in Chinese (docs/.hardware.yml `zh`), an English page in English (`name`)."""
    hardware = catalog.hardware
    for source in hardware.sources.values():
        assert set(source.names()) == {"zh", "en"} and source.zh and source.names()["en"] == source.name
    nvr = hardware.sources["NVR"]
    assert nvr.names() == {
        "zh": "NVIDIA CUDA Toolkit 发行说明中的驱动版本表（逐字副本）",
        "en": "NVIDIA CUDA Toolkit Release Notes, driver tables (verbatim copy)",
    }
    driver = verdicts["1.0"].machine.pypi["linux-x86_64"].driver.fact
    assert driver.links("zh") == ((nvr.zh, nvr.url),) and driver.links("en") == ((nvr.name, nvr.url),)


def test_every_value_that_is_not_official_names_a_caveat_in_both_languages(catalog):
    hardware = catalog.hardware
    facts = [e.fact for e in hardware.arch_lists + hardware.drivers + hardware.libraries + hardware.generations]
    for fact in facts:
        if fact.evidence != "official":
            assert set(hardware.caveats[fact.caveat]) == {"zh", "en"}, fact


@pytest.mark.parametrize("build, cuda", [("cu126", "12.6"), ("cu92", "9.2"), ("cu100", "10.0"), ("cu80", "8.0")])
def test_a_build_tag_names_its_cuda_version(build, cuda):
    assert cuda_of_build(build) == cuda


BAD = [
    ("sources: [GH-182849], evidence: official}", "sources: [GH-1], evidence: official}", "unknown source 'GH-1'"),
    ("builds: [cu80]", "builds: [cuda80]", "bad builds 'cuda80'"),
    ('archs: ["3.5", "5.0", "6.0", "6.1"], ptx: ["5.0"]', 'archs: ["3.5", "5.0"], ptx: ["7.0"]', "ptx 7.0 is not one"),
    ("evidence: derived, caveat: builder-main}", "evidence: derived}", "needs a caveat"),
    ("caveat: conda-packages}", "caveat: conda}", "unknown caveat 'conda'"),
    ('platforms: [linux-x86_64], archs: ["3.5"', 'platforms: [linux-x64], archs: ["3.5"', "unknown platform"),
    ('releases: ["1.0", "1.3"]', 'releases: ["1.3", "1.0"]', "the first comes before the last"),
    ('linux: "580"', 'linux: "five-eighty"', "bad linux 'five-eighty'"),
    ('{since: "2.9", macos: "14.0"', '{since: "2.9", macos: "Sonoma"', "bad macos 'Sonoma'"),
    ("xpu: {since:", "xpu: {from:", "unknown field 'from'"),
    ("  BLD: {name:", "  BLD: {title:", "unknown field 'title' in source BLD"),
    (
        '  NVR: {name: "NVIDIA CUDA Toolkit Release Notes, driver tables (verbatim copy)", zh: "NVIDIA CUDA Toolkit 发行说明中的驱动版本表（逐字副本）", ',
        '  NVR: {name: "NVIDIA CUDA Toolkit Release Notes, driver tables (verbatim copy)", ',
        "source NVR has no Chinese name",
    ),
    ('zh: "pytorch/pytorch#100879"', 'zh: ""', "field 'zh' must be a non-empty text"),
]


@pytest.mark.parametrize("old, new, message", BAD, ids=[b[2] for b in BAD])
def test_bad_input_is_a_problem_at_its_line(tmp_path, old, new, message):
    assert old in REAL, old
    text = REAL.replace(old, new, 1)
    hardware, problems = _load(tmp_path, text)
    assert hardware is None
    line = _line(text, new)
    assert any(p.line == line and message in p.message for p in problems), [str(p) for p in problems]
    assert all(str(p).startswith(f"{tmp_path / HARDWARE_FILE}:") or ".hardware.yml:" in str(p) for p in problems)


def test_unused_sources_and_caveats_and_yaml_tricks_are_refused(tmp_path):
    unused = REAL.replace("sources:\n", 'sources:\n  SPARE: {name: "spare", url: "https://example.org/"}\n', 1)
    _, problems = _load(tmp_path, unused)
    assert any("source 'SPARE' is not used" in p.message for p in problems)
    aliased = REAL.replace("conda: {last:", "conda: &end {last:", 1)
    _, problems = _load(tmp_path, aliased)
    assert any(p.line == _line(aliased, "&end") and "anchors" in p.message for p in problems)
    _, problems = _load(tmp_path, REAL.replace("mps:\n", "mps: [\n", 1))
    assert problems and "malformed YAML" in problems[0].message


def test_the_file_is_held_to_the_release_pages(tmp_path, catalog):
    # A build no release of its range claims, a release without a page, a build listed twice.
    text = REAL.replace('{releases: ["1.0", "1.3"], builds: [cu80]', '{releases: ["1.4", "1.5"], builds: [cu80]', 1)
    text = text.replace('conda: {last: "2.5"', 'conda: {last: "2.99"', 1)
    hardware, problems = _load(tmp_path, text)
    assert problems == []
    found = hardware_problems(hardware, catalog.releases)
    line = _line(text, '{releases: ["1.4", "1.5"], builds: [cu80]')
    assert any(p.line == line and "cu80: no release from 1.4 to 1.5 claims CUDA 8.0" in p.message for p in found)
    assert any(p.line == _line(text, "conda: {") and "2.99 has no release page" in p.message for p in found)
    twice = REAL.replace("builds: [cu92, cu101], platforms", "builds: [cu92, cu101, cu102], platforms", 1)
    found = hardware_problems(_load(tmp_path, twice)[0], catalog.releases)
    assert any("cu102 of 1.6 on linux-x86_64 is also listed at line" in p.message for p in found)
    # A CUDA version a page claims that no driver entry covers.
    no_driver = REAL.replace(
        '  - {cuda: "9.2", linux: "396.26", windows: "397.44", sources: [NVR], evidence: copy, caveat: release-notes-copy}\n',
        "",
    )
    found = hardware_problems(_load(tmp_path, no_driver)[0], catalog.releases)
    assert any("no driver entry covers CUDA 9.2" in p.message and "releases/1.2.md" in p.message for p in found)


def test_load_catalog_reports_the_hardware_file_with_the_pages(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    (docs / HARDWARE_FILE).write_text(REAL.replace("evidence: derived, caveat: builder-main}", "evidence: derived}", 1))
    with pytest.raises(ReleaseDataError) as raised:
        load_catalog(docs)
    assert (
        f"{HARDWARE_FILE}:{_line(REAL, 'evidence: derived, caveat: builder-main}')}: a value with evidence 'derived' needs a caveat"
        in str(raised.value)
    )
