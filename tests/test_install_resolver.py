"""Every plain PyPI command on every page (both languages) is resolved by pip's own resolver, offline, against
stand-in wheels made from the registry evidence (scripts/checks/install_resolver.py); yanked pins are labelled; the Python line
above a command is what PyPI has for every package it pins."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup, Tag
from conftest import ROOT

from scripts.checks.install_resolver import check_site, plain_commands, resolve, stand_in_wheels
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.rules import command_pythons

EVIDENCE = load_evidence(ROOT / "docs" / EVIDENCE_FILE)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    out = tmp_path_factory.mktemp("stand-in-wheels")
    assert stand_in_wheels(EVIDENCE, "linux-x86_64", out) > 500  # 661 on 2026-11-26
    return out


@pytest.mark.parametrize(
    "pins, python, ok",
    [
        # The 2.14 box before this check: torchvision 0.29.0 declares torch==2.14.0.
        (["torch==2.14.1", "torchvision==0.29.0", "torchaudio==2.11.0"], "3.12", False),
        (["torch==2.14.1", "torchvision==0.29.1", "torchaudio==2.11.0"], "3.12", True),
        # torchvision 0.20.1 has no cp313 wheel on PyPI although torch 2.5.1 has.
        (["torch==2.5.1", "torchvision==0.20.1", "torchaudio==2.5.1"], "3.13", False),
        (["torch==2.5.1", "torchvision==0.20.1", "torchaudio==2.5.1"], "3.12", True),
        # 2.15.0 (provisional) with torchvision 0.29.2 (torch>=2.14.0): resolved as PyPI would, not under this
        # machine's pip configuration (its constraint file caps torch at 2.14.1).
        (["torch==2.15.0", "torchvision==0.29.2"], "3.11", True),
        # 1.10's cp310 wheel is an aarch64 one: Linux x86_64 has none.
        (["torch==1.10.2"], "3.10", False),
    ],
)
def test_the_resolver_check_tells_a_working_command_from_a_broken_one(wheels, pins, python, ok):
    resolved, why = resolve(pins, wheels, python, "linux-x86_64")
    assert resolved is ok, why


def test_every_plain_pip_command_on_the_site_resolves(built_site):
    results = check_site(built_site, EVIDENCE)
    commands = {r.command.text for r in results}
    pages = {p for r in results for p in r.command.pages}
    assert len(commands) >= 28, "every release page from 1.0 on shows a plain PyPI command"
    assert any(p.startswith("en/") for p in pages) and any(not p.startswith("en/") for p in pages)
    failed = [f"{r.command.pages[0]}: {r.command.text} (Python {r.python}): {r.why}" for r in results if not r.ok]
    assert not failed, "\n".join(failed)


def test_the_python_line_above_each_command_is_what_pypi_has_for_every_pinned_package(built_site):
    commands = plain_commands(built_site)
    stated = [c for c in commands if c.stated is not None]
    assert len(stated) >= 28
    for command in stated:
        assert command.stated == command_pythons(EVIDENCE, command.pins), command.text
    # The cases: 2.14's line offered 3.15 (PyPI has none) and left out 3.14t (PyPI has it); 2.5.1's
    # command stops at 3.12 (torchvision 0.20.1 has no cp313 wheel).
    by_torch = {c.pins["torch"]: c for c in stated}
    assert "3.15" not in by_torch["2.14.1"].stated and "3.14t" in by_torch["2.14.1"].stated
    assert by_torch["2.5.1"].stated[-1] == "3.12"


def _install_section(built_site, version: str, lang: str) -> Tag:
    prefix = "" if lang == "zh" else "en/"
    soup = BeautifulSoup(
        (built_site / f"{prefix}releases/{version}/index.html").read_text(encoding="utf-8"), "html.parser"
    )
    article = soup.select_one("article")
    assert article is not None, version
    return article


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_yanked_pin_is_labelled_as_yanked(built_site, catalog, lang):
    """Every pin of a plain command that PyPI has yanked carries the label on its page (1.0: torchvision 0.2.2)."""
    seen = 0
    for release in catalog.releases:
        article = _install_section(built_site, release.version, lang)
        notes = " ".join(n.get_text(" ", strip=True) for n in article.select(".install-note"))
        verdict = article.select_one("#install-verdict code")
        if verdict is None:
            continue
        for name, version in re.findall(r"(torch|torchvision|torchaudio)==([0-9.]+)", verdict.get_text()):
            if EVIDENCE.get(name, {}).get(version, {}).get("yanked"):
                seen += 1
                assert f"{name} {version}" in notes and ("yanked" in notes), (release.version, name, version, notes)
    assert seen >= 1, "1.0's torchvision 0.2.2 is yanked on PyPI"


def test_a_changed_pin_says_what_the_sources_paired_and_why(built_site):
    article = _install_section(built_site, "2.14", "en")
    assert "torchvision==0.29.1" in article.select_one("#install-verdict code").get_text()
    notes = " ".join(n.get_text(" ", strip=True) for n in article.select(".install-note"))
    assert "torchvision 0.29.0" in notes and "does not admit torch 2.14.1" in notes
