"""What a wheel's tags and Requires-Python decide (scripts/registry/tags.py) and the files of a release as pip sees
them (scripts/registry/dists.py): the manylinux mapping of PEP 600, pip's macOS acceptance (macosx_11_1_arm64 is
installed nowhere), Requires-Python exclusions, build tags, and the evidence's `dists` groups."""

from __future__ import annotations

import pytest
from conftest import ROOT

from scripts.registry.dists import Dist, build_key, dist_groups, dists_of, group_problem, installable
from scripts.registry.evidence import EVIDENCE_FILE, EvidenceError, load_evidence
from scripts.registry.tags import (
    ARCH,
    MACOS_RELEASES,
    admits,
    first_patch,
    floor_of,
    glibc_of,
    mac_accepts,
    macos_floor,
    pip_platforms,
    refused_patches,
)

EVIDENCE = load_evidence(ROOT / "docs" / EVIDENCE_FILE)


@pytest.mark.parametrize(
    "tag, glibc",
    [
        ("manylinux1_x86_64", (2, 5)),  # PEP 513, an alias of manylinux_2_5 (PEP 600)
        ("manylinux2010_x86_64", (2, 12)),  # PEP 571
        ("manylinux2014_x86_64", (2, 17)),  # PEP 599
        ("manylinux2014_aarch64", (2, 17)),
        ("manylinux_2_28_x86_64", (2, 28)),  # PEP 600
        ("manylinux_2_34_aarch64", (2, 34)),
        ("macosx_11_0_arm64", None),
        ("win_amd64", None),
        ("linux_x86_64", None),  # not a manylinux tag: no glibc promise
    ],
)
def test_the_glibc_of_a_manylinux_tag_is_the_one_pep_600_gives(tag, glibc):
    assert glibc_of(tag) == glibc


def test_a_linux_floor_needs_the_right_architecture_and_reads_compressed_tag_sets():
    assert floor_of("manylinux2014_aarch64", "linux-aarch64") == (2, 17)
    assert floor_of("manylinux2014_aarch64", "linux-x86_64") is False
    assert floor_of("manylinux_2_17_x86_64.manylinux2014_x86_64", "linux-x86_64") == (2, 17)
    assert floor_of("manylinux_2_28_x86_64.manylinux_2_17_x86_64", "linux-x86_64") == (2, 17)  # the lowest wins
    assert floor_of("win_amd64", "windows") is True and floor_of("win_amd64", "linux-x86_64") is False
    assert all(floor_of("any", platform) is True for platform in ARCH), "a pure wheel installs everywhere"


def test_macosx_11_1_arm64_is_never_installable_by_pip():
    """pip reads only the major version from macOS 11 on, so it asks for macosx_11_0, never macosx_11_1."""
    assert not any(mac_accepts(version, "arm64", "macosx_11_1_arm64") for version in MACOS_RELEASES)
    assert macos_floor("macosx_11_1_arm64", "arm64") is None
    assert floor_of("macosx_11_1_arm64", "macos-arm64") is False
    assert any(version[0] == 11 and version[1] > 1 for version in MACOS_RELEASES), "minor releases of 11 are tried"


@pytest.mark.parametrize(
    "tag, platform, floor",
    [
        ("macosx_11_0_arm64", "macos-arm64", (11, 0)),
        ("macosx_14_0_arm64", "macos-arm64", (14, 0)),
        ("macosx_10_9_x86_64", "macos-x86_64", (10, 9)),
        ("macosx_10_6_x86_64", "macos-x86_64", (10, 6)),
        ("macosx_10_9_x86_64", "macos-arm64", False),  # an arm64 Python takes no x86_64 wheel
        ("macosx_11_0_arm64", "macos-x86_64", False),
    ],
)
def test_the_oldest_macos_pip_installs_a_wheel_on(tag, platform, floor):
    assert floor_of(tag, platform) == floor


def test_pip_platforms_stand_for_a_machine_at_its_floor():
    linux = pip_platforms("linux-x86_64", (2, 17))
    assert {"manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64"} <= set(linux)
    assert "manylinux_2_28_x86_64" not in linux and "manylinux_2_18_x86_64" not in linux
    assert "manylinux2014_aarch64" in pip_platforms("linux-aarch64", (2, 17))
    assert pip_platforms("macos-arm64", (14, 0)) == ["macosx_14_0_arm64"]
    assert pip_platforms("macos-x86_64", (10, 9)) == ["macosx_10_9_x86_64"]
    assert pip_platforms("windows", None) == ["win_amd64"]


@pytest.mark.parametrize(
    "requires, python, refused",
    [
        ("!=3.14.1,>=3.10", "3.14", (1,)),  # torchvision 0.26-0.29
        ("!=3.14.1,>=3.10", "3.14t", (1,)),
        ("!=3.14.1,>=3.10", "3.13", ()),
        (">=3.6.2", "3.6", (0, 1)),  # torch 1.6-1.10
        (">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*, !=3.4.*, !=3.6.0", "3.6", (0,)),
        (None, "3.12", ()),
    ],
)
def test_requires_python_refuses_patch_releases(requires, python, refused):
    assert refused_patches(requires, python) == refused
    assert first_patch(refused) == min(set(range(10)) - set(refused))


def test_a_requires_python_floor_refuses_a_whole_minor_version():
    assert not admits(">=3.10", "3.9") and admits(">=3.10", "3.10") and admits(None, "2.7")
    with pytest.raises(ValueError):
        refused_patches(">=three", "3.10")


def test_dist_groups_keep_what_pip_decides_by_compactly():
    files = [
        {"filename": "torch-9.0.0-cp310-cp310-manylinux_2_28_x86_64.whl", "requires-python": ">=3.10"},
        {"filename": "torch-9.0.0-cp311-cp311-manylinux_2_28_x86_64.whl", "requires-python": ">=3.10"},
        {"filename": "torch-9.0.0-3-cp310-cp310-manylinux_2_28_x86_64.whl", "requires-python": ">=3.10"},
        {"filename": "torch-9.0.0-cp39-cp39-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "yanked": "broken"},
        {"filename": "torch-9.0.0.tar.gz"},
    ]
    groups = dist_groups(files)
    assert groups == [
        {"platform": "manylinux_2_17_x86_64.manylinux2014_x86_64", "python": "cp39-cp39", "yanked": True},
        {"platform": "manylinux_2_28_x86_64", "python": "cp310-cp310 cp311-cp311", "requires_python": ">=3.10"},
        {"build": "3", "platform": "manylinux_2_28_x86_64", "python": "cp310-cp310", "requires_python": ">=3.10"},
    ]
    assert all(group_problem(g) is None for g in groups)
    assert dists_of({"dists": groups})[2] == Dist("manylinux_2_28_x86_64", ("cp310-cp310",), "3", ">=3.10")


@pytest.mark.parametrize(
    "group, problem",
    [
        ({"platform": "win_amd64"}, "'python' of a dists entry"),
        ({"platform": "win amd64", "python": "cp310-cp310"}, "needs 'platform'"),
        ({"platform": "win_amd64", "python": "cp310-cp310", "build": "x1"}, "'build'"),
        ({"platform": "win_amd64", "python": "cp310-cp310", "requires_python": ">=three"}, "not a Requires-Python"),
        ({"platform": "win_amd64", "python": "cp310-cp310", "yanked": False}, "'yanked'"),
        ({"platform": "win_amd64", "python": "cp310-cp310", "abi": "x"}, "unknown key 'abi'"),
        (["win_amd64"], "is an object"),
    ],
)
def test_a_bad_dists_entry_says_what_is_wrong(group, problem):
    found = group_problem(group)
    assert found is not None and problem in found[1]


def test_build_tags_order_as_pep_427_says():
    assert build_key(None) < build_key("1") < build_key("2") < build_key("10") and build_key("2a") > build_key("2")


def test_pip_prefers_the_re_uploaded_2_10_0_builds():
    """torch 2.10.0 was uploaded again as build 3 (Linux x86_64) and build 2 (macOS arm64): pip takes those."""
    torch = EVIDENCE["torch"]["2.10.0"]
    assert installable(torch, "linux-x86_64")["3.12"].build == "3"
    assert installable(torch, "macos-arm64")["3.12"].build == "2"
    assert installable(torch, "windows")["3.12"].build is None


def test_what_pip_installs_per_python_comes_from_the_files_it_accepts():
    # 1.8.0's only Apple-silicon wheel is macosx_11_1_arm64: nothing to install.
    assert installable(EVIDENCE["torch"]["1.8.0"], "macos-arm64") == {}
    assert set(installable(EVIDENCE["torch"]["1.9.0"], "macos-arm64")) == {"3.8", "3.9"}
    # 2.10.0 on macOS: the GIL builds of 3.10-3.13 are macosx_11_0, 3.13t and 3.14 macosx_14_0.
    mac = installable(EVIDENCE["torch"]["2.10.0"], "macos-arm64")
    assert mac["3.12"].floor == (11, 0) and mac["3.14"].floor == (14, 0) and mac["3.13t"].floor == (14, 0)
    assert installable(EVIDENCE["torch"]["2.6.0"], "linux-x86_64")["3.12"].floor == (2, 5)  # manylinux1
    assert installable(EVIDENCE["torch"]["2.7.0"], "linux-x86_64")["3.12"].floor == (2, 28)
    vision = installable(EVIDENCE["torchvision"]["0.29.2"], "linux-x86_64")
    assert set(vision) == {"py3"} and vision["py3"].requires_python == ">=3.10,!=3.14.1"
    assert installable(EVIDENCE["torch"]["1.8.0"], "linux-x86_64")["3.6"].refused == (0, 1)  # >=3.6.2


def test_the_evidence_loader_names_the_line_of_a_bad_dists_entry(tmp_path):
    text = (ROOT / "docs" / EVIDENCE_FILE).read_text(encoding="utf-8")
    bad = text.replace('"build": "3"', '"build": "three"', 1)
    path = tmp_path / EVIDENCE_FILE
    path.write_text(bad, encoding="utf-8")
    line = bad[: bad.index('"build": "three"')].count("\n") + 1
    with pytest.raises(EvidenceError) as raised:
        load_evidence(path)
    assert f"{EVIDENCE_FILE}:{line}: torch 2.10.0: 'build' of a dists entry" in str(raised.value)
    path.write_text(text.replace('"dists": [', '"dists": {"x": [', 1).replace('],\n   "files"', ']},\n   "files"', 1))
    with pytest.raises(EvidenceError, match="'dists' is a list of file groups"):
        load_evidence(path)


def test_every_release_of_the_evidence_records_its_files_groups():
    for package in ("torch", "torchvision", "torchaudio"):
        for version, record in EVIDENCE[package].items():
            assert record.get("dists"), (package, version)
            # The groups hold every file the release counts.
            assert (
                sum(len(g["python"].split(" ")) for g in record["dists"] if not g.get("yanked")) == record["files"]
                or record["yanked"]
            ), (package, version)
