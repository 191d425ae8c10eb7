"""scripts/checks/verify_compat.py: asking the registry (against a local stand-in for PyPI, never the network) and
comparing the catalog with what it said."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
import zipfile

import pytest
from conftest import FIXTURES

from scripts.catalog.loader import load_catalog
from scripts.checks.verify_compat import disagreements, pending_release
from scripts.registry.pypi import fetch_evidence
from scripts.registry.wheels import python_of


def _wheel(requires: list[str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        wheel.writestr("pkg/__init__.py", "# padding\n" * 20000)  # so the metadata is not in the first block
        wheel.writestr(
            "pkg-0.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: pkg\n" + "".join(f"Requires-Dist: {r}\n" for r in requires),
        )
    return buffer.getvalue()


def _torch_wheel(cuda: str | None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        wheel.writestr("torch/__init__.py", "# padding\n" * 20000)
        value = f"'{cuda}'" if cuda else "None"
        wheel.writestr("torch/version.py", f"__version__ = '1.6.0'\ncuda: Optional[str] = {value}\n")
        wheel.writestr("torch-1.6.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\n")
    return buffer.getvalue()


@pytest.fixture
def fake_pypi(tmp_path):
    """A directory served over HTTP that answers like PyPI's simple index (PEP 691 JSON) and file host."""
    from browser import serve_directory

    files = {
        "torch": {
            "torch-1.6.0-cp38-cp38-manylinux1_x86_64.whl": _torch_wheel("10.2.89"),
            "torch-1.6.0-cp37-cp37m-macosx_10_9_x86_64.whl": _torch_wheel(None),
            "torch-9.9.0-cp313t-cp313t-win_amd64.whl": _torch_wheel(None),
        },
        "torchvision": {
            "torchvision-0.7.0-cp38-cp38-manylinux1_x86_64.whl": _wheel(["numpy", "torch (==1.6.0)"]),
            "torchvision-0.2.2-py2.py3-none-any.whl": _wheel(["torch"]),
        },
        "torchaudio": {"torchaudio-2.11.0-py3-none-any.whl": _wheel(["numpy"])},
    }
    yanked = {"torchvision-0.2.2-py2.py3-none-any.whl": "broken"}
    with serve_directory(tmp_path) as base:
        for name, wheels in files.items():
            listing = []
            for filename, data in wheels.items():
                (tmp_path / filename).write_bytes(data)
                listing.append(
                    {
                        "filename": filename,
                        "url": base + filename,
                        "size": len(data),
                        "upload-time": "2020-07-28T10:00:00Z",
                        "yanked": yanked.get(filename, False),
                    }
                )
            (tmp_path / "simple" / name).mkdir(parents=True)
            (tmp_path / "simple" / name / "index.html").write_text(json.dumps({"files": listing}), encoding="utf-8")
        yield base.rstrip("/")


def test_fetch_reads_wheel_tags_and_requires_dist_through_ranges(fake_pypi):
    evidence = fetch_evidence(dt.date(2026, 11, 23), log=lambda *_: None, registry=fake_pypi)
    assert evidence["checked"] == "2026-11-23"
    assert evidence["torch"]["1.6.0"]["python"] == ["3.7", "3.8"]
    assert evidence["torch"]["1.6.0"]["platforms"] == ["linux-x86_64", "macos-x86_64"]
    assert evidence["torch"]["1.6.0"]["wheels"] == {"linux-x86_64": ["3.8"], "macos-x86_64": ["3.7"]}
    # The CUDA build of each platform's wheel, from its own torch/version.py (major.minor).
    assert evidence["torch"]["1.6.0"]["cuda"] == {"linux-x86_64": "10.2", "macos-x86_64": None}
    assert evidence["torch"]["9.9.0"]["python"] == ["3.13t"]
    assert evidence["torchvision"]["0.7.0"]["requires_torch"] == "1.6.0"
    assert evidence["torchvision"]["0.7.0"]["requires"] == ["torch==1.6.0"]
    assert evidence["torchvision"]["0.2.2"]["yanked"] and evidence["torchvision"]["0.2.2"]["yanked_reason"] == "broken"
    audio = evidence["torchaudio"]["2.11.0"]
    assert (audio["python"], audio["requires"], audio["requires_torch"], audio["uploaded"]) == (
        ["py3"],
        [],
        None,
        "2020-07-28",
    )


@pytest.mark.parametrize(
    "abi, py, expected",
    [
        ("cp38", "cp38", "3.8"),
        ("cp313t", "cp313t", "3.13t"),
        ("cp27mu", "cp27", "2.7"),
        ("none", "py3", None),
        ("abi3", "cp310", "3.10"),
    ],
)
def test_python_version_of_a_wheel(abi, py, expected):
    assert python_of(abi, py) == expected


def _evidence(**torch):
    base = {
        "torch": {"1.6.0": {"python": ["3.6", "3.7", "3.8"], "files": 3, "uploaded": "2020-07-28", "platforms": []}},
        "torchvision": {"0.7.0": {"requires_torch": "1.6.0"}},
        "torchaudio": {},
        "checked": "2026-11-23",
    }
    base["torch"].update(torch)
    return base


def test_catalog_that_agrees_has_no_disagreement():
    assert disagreements(load_catalog(FIXTURES / "site"), _evidence()) == []


def test_a_patch_pypi_has_must_be_listed():
    evidence = _evidence(**{"1.6.1": {"python": ["3.8"], "files": 1}})
    (problem,) = disagreements(load_catalog(FIXTURES / "site"), evidence)
    assert "PyPI has torch 1.6.1, which 'patches' does not list" in problem.message


def test_python_versions_must_match_or_be_shown_as_pypi_claim(tmp_path):
    evidence = _evidence(**{"1.6.0": {"python": ["3.6", "3.7", "3.8", "3.9"], "files": 4}})
    (problem,) = disagreements(load_catalog(FIXTURES / "site"), evidence)
    assert problem.path.endswith("1.6.md") and "Python 3.6, 3.7, 3.8, 3.9" in problem.message
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    page = docs / "releases/1.6.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "  torchvision:\n",
            '    - {supported: ["3.6", "3.7", "3.8", "3.9"], sources: [PyPI], evidence: official}\n  torchvision:\n',
            1,
        ),
        encoding="utf-8",
    )
    assert disagreements(load_catalog(docs), evidence) == []


def test_a_pairing_the_library_contradicts_and_a_missing_pairing():
    evidence = _evidence()
    evidence["torchvision"] = {"0.7.0": {"requires_torch": "1.5.0"}, "0.7.1": {"requires_torch": "1.6.0"}}
    messages = sorted(p.message for p in disagreements(load_catalog(FIXTURES / "site"), evidence))
    assert messages == [
        "torchvision 0.7.0 declares torch==1.5.0 on PyPI, but the catalog pairs it with torch 1.6.0",
        "torchvision 0.7.1 declares torch==1.6.0 on PyPI: add that pairing",
    ]


def test_the_newest_minor_release_without_a_page_is_pending():
    evidence = _evidence(
        **{"2.15.0": {"python": ["3.11"], "files": 1, "uploaded": "2026-10-28"}, "1.7.0": {"python": [], "files": 0}}
    )
    assert pending_release(load_catalog(FIXTURES / "site"), evidence) == ("2.15.0", "2026-10-28")


def test_a_pypi_claim_is_held_to_the_main_platform_not_to_one_odd_wheel(tmp_path):
    """1.10's "PyPI: Python 3.10" rested on a single aarch64 wheel: a PyPI claim must match Linux x86_64."""
    wheels = {"linux-x86_64": ["3.6", "3.7", "3.8"], "linux-aarch64": ["3.6", "3.7", "3.8", "3.9"]}
    evidence = _evidence(**{"1.6.0": {"python": ["3.6", "3.7", "3.8", "3.9"], "files": 4, "wheels": wheels}})
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    page = docs / "releases/1.6.md"
    claim = '    - {supported: ["3.6", "3.7", "3.8", "3.9"], sources: [PyPI], evidence: official}\n'
    page.write_text(
        page.read_text(encoding="utf-8").replace("  torchvision:\n", claim + "  torchvision:\n", 1), encoding="utf-8"
    )
    (problem,) = disagreements(load_catalog(docs), evidence)
    assert "linux-x86_64 wheels are 3.6, 3.7, 3.8" in problem.message and problem.path.endswith("1.6.md")
    page.write_text(page.read_text(encoding="utf-8").replace(claim, claim.replace(', "3.9"', ""), 1), encoding="utf-8")
    assert disagreements(load_catalog(docs), evidence) == []
