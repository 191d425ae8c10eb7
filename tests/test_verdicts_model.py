"""The verdict model (scripts/verdicts/model.py, compute.py): one frozen record per release, computed once per build
and handed to the views, which print what it says and decide nothing themselves."""

from __future__ import annotations

import dataclasses
import json
import shutil

import pytest
from conftest import ROOT

from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.compute import cached_verdicts, verdicts_of
from scripts.verdicts.model import MAIN_PLATFORM, ReleaseVerdict, Verdicts
from scripts.verdicts.rules import install_patch, pypi_builds, python_verdict
from scripts.views.matrix import compat_matrix
from scripts.views.release.quick_facts import quick_facts


@pytest.fixture(scope="module")
def evidence():
    return load_evidence(ROOT / "docs" / EVIDENCE_FILE)


@pytest.fixture(scope="module")
def verdicts(catalog, evidence):
    return verdicts_of(catalog, evidence)


def _href(page, anchor=None):
    return page.url + (f"#{anchor}" if anchor else "")


def test_one_frozen_verdict_per_release_holding_the_rules_answers(catalog, evidence, verdicts):
    assert list(verdicts.releases) == [r.version for r in catalog.releases]
    assert verdicts.checked == evidence["checked"]
    for release in catalog.releases:
        verdict = verdicts[release.version]
        assert isinstance(verdict, ReleaseVerdict) and verdict.version == release.version
        assert verdict.patch == install_patch(release, evidence)
        assert verdict.python == python_verdict(release, evidence)
        assert dict(verdict.builds) == pypi_builds(release, evidence, verdict.patch)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdicts["2.14"].patch = "2.14.0"  # type: ignore[misc]


def test_the_install_verdict_of_2_14(verdicts):
    verdict = verdicts["2.14"]
    assert verdict.patch == "2.14.1" and verdict.pins is not None
    assert verdict.command is not None and verdict.command.platform == MAIN_PLATFORM
    assert verdict.command.text == "pip install " + " ".join(f"{k}=={v}" for k, v in verdict.pins.as_dict().items())
    assert verdict.options[0].command == verdict.command.text and verdict.options[0].compute == "default"
    assert verdicts["0.4"].pins is None and verdicts["0.4"].options == ()


def test_without_evidence_the_tables_decide(catalog):
    verdicts = verdicts_of(catalog, None)
    assert verdicts.checked is None and verdicts.pending is None and verdicts.pypi_minors == frozenset()
    assert verdicts["2.6"].python.versions and verdicts["2.6"].python.source != "PyPI"
    assert all(not v.no_wheels and not v.builds for v in verdicts.releases.values())


def test_views_print_what_the_model_says(catalog, verdicts):
    """A verdict changed in the model alone shows in the matrix and the quick facts: the views read it, they do
    not work it out again from the evidence (which they never get)."""
    release = catalog.by_version()["2.14"]
    changed = dataclasses.replace(verdicts["2.14"], builds={**verdicts["2.14"].builds, MAIN_PLATFORM: "99.9"})
    edited = Verdicts({**verdicts.releases, "2.14": changed}, verdicts.checked, verdicts.pending, verdicts.pypi_minors)
    _href.view = lambda name, anchor=None: name  # type: ignore[attr-defined]
    assert "CUDA 99.9" not in compat_matrix(catalog, "en", _href, verdicts)
    assert "CUDA 99.9" in compat_matrix(catalog, "en", _href, edited)
    assert "CUDA 99.9 build" in quick_facts(catalog, release, "en", edited)
    assert "CUDA 99.9 build" not in quick_facts(catalog, release, "en", verdicts)


def test_cached_verdicts_are_computed_once_until_the_evidence_or_the_pages_change(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs" / "releases", docs / "releases")
    shutil.copy2(ROOT / "docs" / EVIDENCE_FILE, docs / EVIDENCE_FILE)
    first = cached_verdicts(docs)
    assert cached_verdicts(docs) is first
    evidence = json.loads((docs / EVIDENCE_FILE).read_text(encoding="utf-8"))
    evidence["checked"] = "2026-12-31"
    (docs / EVIDENCE_FILE).write_text(json.dumps(evidence), encoding="utf-8")
    second = cached_verdicts(docs)
    assert second is not first and second.checked == "2026-12-31"
    page = docs / "releases" / "2.14.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert cached_verdicts(docs) is not second
