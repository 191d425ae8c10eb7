"""What a machine needs, per release (scripts/verdicts/platforms.py, hardware.py): every fact PyPI's files decide,
held to the evidence file by a second, independent reading of its tags; the catalog's machine facts joined as the
hardware file says; the "runs on" quick fact on the pages, both languages."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT
from parsed_pages import parsed_page

from scripts.registry.dists import dists_of, installable
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.registry.tags import refused_patches
from scripts.registry.wheels import MAIN_PLATFORM, PACKAGES, PLATFORMS
from scripts.verdicts.compute import cached_verdicts
from scripts.verdicts.install import cuda_tag
from scripts.verdicts.platforms import pip_command
from scripts.verdicts.rules import installs

EVIDENCE = load_evidence(ROOT / "docs" / EVIDENCE_FILE)
VERDICTS = cached_verdicts(ROOT / "docs")

# An oracle of its own for the tags PyPI's torch, torchvision and torchaudio files use (PEP 600 aliases; pip asks
# for macosx_N_0 only from macOS 11 on).
LEGACY = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}
ARCH = {"linux-x86_64": "x86_64", "linux-aarch64": "aarch64", "macos-arm64": "arm64", "macos-x86_64": "x86_64"}


def oracle_floor(tag: str, platform: str):
    if tag == "any":
        return "any"
    if platform == "windows":
        return "any" if tag == "win_amd64" else None
    match = re.fullmatch(r"(manylinux1|manylinux2010|manylinux2014|manylinux_(\d+)_(\d+))_(\w+)", tag)
    if match and platform.startswith("linux"):
        glibc = LEGACY.get(match.group(1)) or (int(match.group(2)), int(match.group(3)))
        return glibc if match.group(4) == ARCH[platform] else None
    match = re.fullmatch(r"macosx_(\d+)_(\d+)_(\w+)", tag)
    if match and platform.startswith("macos") and match.group(3) == ARCH[platform]:
        major, minor = int(match.group(1)), int(match.group(2))
        return (major, minor) if major == 10 or minor == 0 else None
    return None


def _python(pair: str) -> list[str]:
    py, abi = pair.split("-")
    found = re.fullmatch(r"cp(\d)(\d+)(t?)", abi) or re.fullmatch(r"cp(\d)(\d+)(t?)", py)
    if found:
        return [f"{found.group(1)}.{found.group(2)}{found.group(3)}"]
    return [p for p in py.split(".") if p in ("py2", "py3")]


def test_every_derived_fact_of_the_evidence_matches_a_second_reading_of_its_tags():
    never = []
    for package in PACKAGES:
        for version, record in EVIDENCE[package].items():
            dists = dists_of(record)
            live = [d for d in dists if not d.yanked] or dists
            for platform in PLATFORMS:
                expected: dict[str, list] = {}
                for dist in live:
                    for pair in dist.pairs:
                        floors = [oracle_floor(tag, platform) for tag in dist.platform.split(".")]
                        accepted = [f for f in floors if f is not None]
                        for python in _python(pair):
                            if accepted:
                                expected.setdefault(python, []).extend(accepted)
                            elif any(_meant_for(tag, platform) for tag in dist.platform.split(".")):
                                never.append((package, version, platform, python))
                found = installable(record, platform)
                assert set(found) == set(expected), (package, version, platform)
                for python, floors in expected.items():
                    real = [f for f in floors if f != "any"]
                    assert found[python].floor == (min(real) if real else None), (package, version, platform, python)
                # The legacy per-platform list (from the same file names, by the older code) agrees but for wheels
                # pip never installs.
                legacy = set(record["wheels"].get(platform, [])) | set(record["wheels"].get("any", []))
                assert set(found) <= legacy, (package, version, platform)
    assert never == [("torch", "1.8.0", "macos-arm64", "3.8")]


def _meant_for(tag: str, platform: str) -> bool:
    """Whether a tag names the platform's system and architecture (whatever its version)."""
    if platform == "windows":
        return tag == "win_amd64"
    prefix = "manylinux" if platform.startswith("linux") else "macosx"
    return tag.startswith(prefix) and tag.endswith("_" + ARCH[platform])


def test_build_tags_and_requires_python_come_from_the_evidence():
    builds = {
        (package, version, platform, python): one.build
        for package in PACKAGES
        for version, record in EVIDENCE[package].items()
        for platform in PLATFORMS
        for python, one in installable(record, platform).items()
        if one.build
    }
    # Every re-uploaded build pip prefers is one a dists group records; torch 2.10.0's are among them.
    assert builds[("torch", "2.10.0", "linux-x86_64", "3.12")] == "3"
    assert builds[("torch", "2.10.0", "macos-arm64", "3.12")] == "2"
    for (package, version, _, _), build in builds.items():
        assert build in {d.build for d in dists_of(EVIDENCE[package][version])}
    assert refused_patches(
        installable(EVIDENCE["torchvision"]["0.26.0"], "linux-x86_64")["3.14"].requires_python, "3.14"
    ) == (1,)


def test_every_command_python_is_decided_for_every_package_of_the_command():
    for version, verdict in VERDICTS.releases.items():
        if verdict.machine is None:
            continue
        for platform, build in verdict.machine.pypi.items():
            assert build.commands and all(c.pythons for c in build.commands), (version, platform)
            covered = [p.version for c in build.commands for p in c.pythons]
            assert len(covered) == len(set(covered)), (version, platform, "one command per Python")
            for command in build.commands:
                pins = dict(command.pins)
                assert command.text == pip_command(pins)
                for python in command.pythons:
                    wheels = {}
                    for name, pinned in pins.items():
                        found = installs(EVIDENCE, name, pinned, platform)
                        one = found.get(python.version) or found.get("py3")
                        assert one is not None, (version, platform, command.text, python.version, name)
                        wheels[name] = one
                    floors = [w.floor for w in wheels.values() if w.floor]
                    assert python.floor == (".".join(map(str, max(floors))) if floors else None)
                    refused = {p for w in wheels.values() for p in refused_patches(w.requires_python, python.version)}
                    minor = python.version.rstrip("t")
                    assert set(python.refused) == {f"{minor}.{p}" for p in refused}, (version, platform, python)


def test_machine_facts_join_the_hardware_file_and_the_evidence(catalog):
    hardware = catalog.hardware
    for release in catalog.releases:
        machine = VERDICTS[release.version].machine
        if machine is None:
            continue
        torch = EVIDENCE["torch"]
        for platform, build in machine.pypi.items():
            assert build.cuda == torch[build.torch]["cuda"].get(platform)
            if build.cuda:
                entry = hardware.arch_list(release.version, cuda_tag(build.cuda), platform)
                assert (build.archs.archs if build.archs else None) == (entry.archs if entry else None)
                assert build.driver.linux == hardware.driver(build.cuda).linux
        if "windows" in machine.pypi:
            assert machine.windows_cuda_only_from_index, release.version  # every Windows wheel on PyPI is CPU
        for variant in machine.variants:
            if variant.kind == "cuda":
                assert variant.driver is not None and variant.tag == cuda_tag(variant.version), variant
        key = tuple(int(x) for x in release.version.split("."))
        assert (machine.conda.on_channel if machine.conda else None) == (key <= (2, 5))
        assert (machine.xpu is not None) == (key >= (2, 5))
        if key < (1, 12):
            assert machine.mps is None
        elif key < (2, 9):
            assert (machine.mps.macos, machine.mps.raised_later, machine.mps.next_floor) == ("12.3", True, "14.0")
        else:
            assert (machine.mps.macos, machine.mps.raised_later) == ("14.0", False)
        for platform, pythons in machine.free_threaded.items():
            assert all(p.endswith("t") for p in pythons) and set(pythons) <= set(
                installs(EVIDENCE, "torch", machine.pypi[platform].torch, platform)
            )
    assert VERDICTS["2.14"].machine.free_threaded[MAIN_PLATFORM] == ("3.14t",)  # cp313t dropped in 2.12.1


def _quick(built_site, version: str, lang: str) -> str:
    prefix = "" if lang == "zh" else "en/"
    soup = parsed_page(built_site / f"{prefix}releases/{version}/index.html")
    line = soup.select_one("section.quick-facts .quick-runs-on dd")
    assert line is not None, (version, lang)
    return line.get_text(" ", strip=True)


@pytest.mark.parametrize(
    "version, lang, expected",
    [
        (
            "2.14",
            "en",
            [
                "Linux x86_64, aarch64: glibc ≥ 2.28",
                "macOS (Apple silicon) ≥ 14.0",
                "sm_50–sm_90 (cu126)",
                "sm_75–sm_120+PTX (cu130, cu132)",
                "NVIDIA driver ≥ 580",
            ],
        ),
        (
            "2.14",
            "zh",
            ["glibc ≥ 2.28", "sm_50–sm_90（cu126）", "sm_75–sm_120+PTX（cu130、cu132）", "NVIDIA 驱动 ≥ 580"],
        ),
        (
            "2.10",
            "en",
            [
                "macOS (Apple silicon) ≥ 11.0",
                "macOS (Apple silicon): some Python versions have wheels that need a later one",
                "NVIDIA driver ≥ 525",
                "the oldest that PyPI's default CUDA 12.8 build loads with, on Linux",
            ],
        ),
        (
            "1.8",
            "zh",
            ["Linux x86_64：glibc ≥ 2.5", "Linux aarch64：glibc ≥ 2.17", "sm_37–sm_70（cu101、cu102）"],
        ),
        ("1.0", "en", ["Linux x86_64: glibc ≥ 2.5", "NVIDIA driver ≥ 384.81", "From pytorch/builder", "driver tables"]),
        # The sources' names in the page's language (docs/.hardware.yml `zh`), with the caveats.
        (
            "1.0",
            "zh",
            [
                "NVIDIA 驱动 ≥ 384.81",
                "NVIDIA CUDA Toolkit 发行说明中的驱动版本表（逐字副本）",
                "取自当时 pytorch/builder",
            ],
        ),
    ],
)
def test_the_runs_on_line_of_the_quick_facts(built_site, version, lang, expected):
    line = _quick(built_site, version, lang)
    for words in expected:
        assert words in line, (version, lang, words, line)


def test_the_runs_on_line_is_short_and_its_sources_are_one_click_away(built_site, catalog):
    """The line says the values; what qualifies them and every source link are in its disclosure (the quick facts
    stay on the first screen: tests/test_answers_browser.py)."""
    for release in catalog.releases:
        for lang in ("zh", "en"):
            prefix = "" if lang == "zh" else "en/"
            page = parsed_page(built_site / f"{prefix}releases/{release.version}/index.html")
            value = page.select_one("section.quick-facts .quick-runs-on dd")
            if value is None:
                continue
            line, more = value.select_one(".runs-on-line"), value.select_one("details.quick-more")
            assert line is not None and more is not None and more.select_one("summary"), (release.version, lang)
            assert line.select("a") == [] and len(value.select("a")) == len(more.select("a")), (release.version, lang)


@pytest.mark.parametrize(
    "version, build, capability, expected",
    [
        ("2.14", "cu130", "8.9", "cubin"),  # an RTX 4090 runs the build's 8.6 code
        ("2.14", "cu130", "12.1", "cubin"),  # 12.0 code on 12.1
        ("2.14", "cu130", "11.0", None),  # no 11.x code on x86_64, and PTX of 12.0 does not run on an older GPU
        ("1.0", "cu80", "7.0", "ptx"),  # a Volta GPU on 1.0's CUDA 8.0 build: only the 5.0 PTX, compiled by the driver
        ("2.14", "cu126", "6.1", "cubin"),  # Pascal 6.1 runs the 6.0 code
        ("2.14", "cu130", "6.1", None),  # nothing below 7.5 in the 13.x builds
        ("2.14", "cu126", "10.0", None),  # no PTX in the 12.6 build: Blackwell needs cu128 or later
        ("2.5", "cu121", "3.7", None),  # Kepler K80 only in the cu118 build from 2.1
        ("2.5", "cu118", "3.7", "cubin"),
    ],
)
def test_nvidias_binary_compatibility_rule_decides_what_runs_on_a_gpu(catalog, version, build, capability, expected):
    from scripts.verdicts.hardware import arch_fact, gpu_support

    fact = arch_fact(catalog.hardware, version, f"{build[2:-1]}.{build[-1]}", "linux-x86_64")
    assert fact is not None and gpu_support(fact, capability) == expected
