"""Every plain PyPI command the site offers, on every platform and Python version it offers it for (both languages),
is resolved by pip's own resolver, offline, against stand-in wheels that carry each PyPI file's own tags, build tag
and Requires-Python (scripts/checks/install_resolver.py); the pages' per-platform lines are the verdicts' commands;
the 13 (release, platform, Python) combinations a page once offered and pip refused are named regressions."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from bs4 import Tag
from conftest import ROOT
from parsed_pages import parsed_page

from scripts.checks.install_resolver import (
    Job,
    Offer,
    abis_of,
    bare_pip_env,
    check_site,
    offers_of,
    pip_argv,
    resolve_all,
    stand_in_wheels,
)
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.registry.wheels import PLATFORMS
from scripts.verdicts.compute import cached_verdicts

EVIDENCE = load_evidence(ROOT / "docs" / EVIDENCE_FILE)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    out = tmp_path_factory.mktemp("stand-in-wheels")
    assert stand_in_wheels(EVIDENCE, out) > 2500  # 2,771 files of live groups on 2026-11-28
    return out


def _job(pins: str, platform: str, python: str, floor: str | None, patch: str | None = None) -> Job:
    offer = Offer(f"pip install {pins}", platform, python, floor, (), "test")
    return Job(offer, patch or f"{python.rstrip('t')}.0", True)


CASES = [
    # The 2.14 box before the resolver check: torchvision 0.29.0 declares torch==2.14.0.
    ("torch==2.14.1 torchvision==0.29.0 torchaudio==2.11.0", "linux-x86_64", "3.12", "2.28", None, False),
    ("torch==2.14.1 torchvision==0.29.1 torchaudio==2.11.0", "linux-x86_64", "3.12", "2.28", None, True),
    # torchvision 0.20.1 has no cp313 wheel on PyPI although torch 2.5.1 has.
    ("torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1", "linux-x86_64", "3.13", "2.5", None, False),
    ("torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1", "linux-x86_64", "3.12", "2.5", None, True),
    # 2.15.0 (provisional) with torchvision 0.29.2 (torch>=2.14.0), resolved as PyPI would, not as this machine's
    # pip configuration would (its constraint file caps torch at 2.14.1).
    ("torch==2.15.0 torchvision==0.29.2", "linux-x86_64", "3.11", "2.28", None, True),
    # 1.10's cp310 wheel is an aarch64 one: Linux x86_64 has none.
    ("torch==1.10.2", "linux-x86_64", "3.10", "2.5", None, False),
    ("torch==1.10.2", "linux-aarch64", "3.10", "2.17", None, True),
    # macosx_11_1_arm64 (torch 1.8.0's only Apple-silicon wheel) is installed on no macOS; 1.9.0's 11_0 one is.
    ("torch==1.8.0", "macos-arm64", "3.8", "11.0", None, False),
    ("torch==1.8.0", "macos-arm64", "3.8", "26.0", None, False),
    ("torch==1.9.0", "macos-arm64", "3.8", "11.0", None, True),
    ("torch==1.9.0", "macos-arm64", "3.8", "10.15", None, False),
    # glibc: manylinux_2_28 from 2.7 (2.6's PyPI wheel is manylinux1).
    ("torch==2.7.0", "linux-x86_64", "3.12", "2.28", None, True),
    ("torch==2.7.0", "linux-x86_64", "3.12", "2.27", None, False),
    ("torch==2.6.0", "linux-x86_64", "3.12", "2.17", None, True),
    # Requires-Python: torchvision 0.29.x excludes 3.14.1; torch 1.x wants 3.6.2 or later.
    ("torch==2.14.1 torchvision==0.29.1", "linux-x86_64", "3.14", "2.28", "3.14.1", False),
    ("torch==2.14.1 torchvision==0.29.1", "linux-x86_64", "3.14", "2.28", "3.14.2", True),
    ("torch==2.14.1 torchvision==0.29.1", "linux-x86_64", "3.14t", "2.28", "3.14.1", False),
    ("torch==1.10.2", "linux-aarch64", "3.6", "2.17", "3.6.1", False),
    ("torch==1.10.2", "linux-aarch64", "3.6", "2.17", "3.6.2", True),
    # Free-threaded: cp313t wheels were dropped in 2.12.1.
    ("torch==2.12.0", "linux-x86_64", "3.13t", "2.28", None, True),
    ("torch==2.12.1", "linux-x86_64", "3.13t", "2.28", None, False),
    # Windows: PyPI's win_amd64 wheels from 1.7.0 on.
    ("torch==1.7.1", "windows", "3.8", None, None, True),
    ("torch==1.6.0", "windows", "3.8", None, None, False),
]


def test_the_resolver_check_tells_a_working_command_from_a_broken_one(wheels):
    jobs = [_job(pins, platform, python, floor, patch) for pins, platform, python, floor, patch, _ in CASES]
    results = resolve_all(jobs, wheels)
    wrong = [
        f"{c[0]} on {c[1]} Python {j.python_version} at {c[3]}: expected {'ok' if c[5] else 'refused'}, pip: {r.why}"
        for c, j, r in zip(CASES, jobs, results, strict=True)
        if r.ok is not c[5]
    ]
    assert not wrong, "\n".join(wrong)


def test_pip_prefers_the_re_uploaded_build_as_the_evidence_says(wheels, tmp_path):
    """torch 2.10.0 has the file twice on Linux x86_64 (no build tag, and build 3): pip picks build 3."""
    job = _job("torch==2.10.0", "linux-x86_64", "3.12", "2.28")
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "pip", *pip_argv(job, wheels), "--report", str(report)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=bare_pip_env())
    assert done.returncode == 0, done.stderr
    url = json.loads(report.read_text())["install"][0]["download_info"]["url"]
    assert url.endswith("torch-2.10.0-3-cp312-cp312-manylinux_2_28_x86_64.whl"), url


def test_abi_tags_follow_the_cpython_version():
    assert abis_of("3.7") == ["cp37m", "cp37"] and abis_of("3.8") == ["cp38"] and abis_of("3.13t") == ["cp313t"]
    assert abis_of("2.7") == ["cp27mu", "cp27m"]


@pytest.fixture(scope="module")
def site_results(built_site):
    return check_site(built_site, EVIDENCE)


def test_every_command_the_site_offers_resolves_where_the_site_offers_it(site_results):
    commands = {r.job.offer.command for r in site_results}
    platforms = {r.job.offer.platform for r in site_results}
    assert len(commands) >= 30, "every release page from 1.0 on shows a plain PyPI command"
    assert platforms == set(PLATFORMS)
    assert len(site_results) >= 600, "every platform and Python version, not only the lowest and highest"
    assert any(not r.job.expect for r in site_results), "the refused patch releases are tried too"
    failed = [
        f"{r.job.offer.page}: {r.job.offer.command} on {r.job.offer.platform}, Python {r.job.python_version}: {r.why}"
        for r in site_results
        if not r.ok
    ]
    assert not failed, "\n".join(failed)


def _offered(built_site, lang: str) -> set[tuple[str, str, str, str | None]]:
    prefix = "en/" if lang == "en" else ""
    out = set()
    for page in sorted((built_site / prefix / "releases").glob("*/index.html")):
        soup = parsed_page(page)
        for element in soup.select("[data-command]"):
            command, system = str(element["data-command"]), str(element["data-system"])
            pythons, floors = str(element["data-python"]).split(), str(element["data-os"]).split()
            for python, floor in zip(pythons, floors, strict=True):
                out.add((command, system, python, None if floor == "-" else floor))
    return out


def test_the_pages_offer_exactly_the_verdicts_commands_in_both_languages(built_site):
    verdicts = cached_verdicts(ROOT / "docs")
    expected = {
        (command.text, platform, python.version, python.floor)
        for verdict in verdicts.releases.values()
        if verdict.machine
        for platform, build in verdict.machine.pypi.items()
        for command in build.commands
        for python in command.pythons
    }
    assert _offered(built_site, "zh") == expected
    assert _offered(built_site, "en") == expected
    assert {(o.command, o.platform, o.python, o.floor) for o in offers_of(built_site)} == expected


# The combinations a page offered before this check covered every package of a command on every platform: each
# is now offered with a command that installs, and the release's plain command is not offered there.
THIRTEEN = [
    ("1.7", "windows", "3.6"),
    ("1.7", "windows", "3.7"),
    ("1.7", "windows", "3.8"),
    ("1.7", "windows", "3.9"),
    ("1.8", "linux-aarch64", "3.6"),
    ("1.8", "linux-aarch64", "3.7"),
    ("1.8", "linux-aarch64", "3.8"),
    ("1.8", "linux-aarch64", "3.9"),
    ("1.10", "linux-x86_64", "3.6"),
    ("1.12", "macos-arm64", "3.7"),
    ("1.13", "macos-arm64", "3.7"),
    ("1.13", "linux-x86_64", "3.11"),
    ("2.5", "linux-x86_64", "3.13"),
]


def _thirteen_jobs(version: str, platform: str, python: str) -> tuple[Job, Job]:
    """(the release's plain command, the command its page offers) for one combination, as resolver jobs."""
    verdict = cached_verdicts(ROOT / "docs")[version]
    assert verdict.command is not None and verdict.machine is not None, version
    main = verdict.command.text
    offered = [c for c in verdict.machine.pypi[platform].commands if python in {p.version for p in c.pythons}]
    assert len(offered) == 1 and offered[0].text != main and offered[0].lacking, offered
    floor = next(p.floor for p in offered[0].pythons if p.version == python)
    patch = "3.6.2" if python == "3.6" else None  # torch 1.x: Requires-Python >=3.6.2
    return (
        _job(main.removeprefix("pip install "), platform, python, floor, patch),
        _job(offered[0].text.removeprefix("pip install "), platform, python, floor, patch),
    )


@pytest.fixture(scope="module")
def thirteen(wheels) -> dict[tuple[str, str, str], tuple]:
    """Both commands of every combination, resolved in one batch."""
    jobs = {combo: _thirteen_jobs(*combo) for combo in THIRTEEN}
    results = iter(resolve_all([job for pair in jobs.values() for job in pair], wheels))
    return {combo: (next(results), next(results)) for combo in jobs}


@pytest.mark.parametrize("version, platform, python", THIRTEEN, ids=["-".join(c) for c in THIRTEEN])
def test_the_thirteen_combinations_pip_refused_are_offered_with_a_command_that_installs(
    thirteen, version, platform, python
):
    plain, fixed = thirteen[(version, platform, python)]
    assert not plain.ok, f"pip installs {plain.job.offer.command} on {platform} {python}: the premise is gone"
    assert fixed.ok, fixed.why


def _article(built_site, version: str, lang: str) -> Tag:
    prefix = "" if lang == "zh" else "en/"
    article = parsed_page(built_site / f"{prefix}releases/{version}/index.html").select_one("article")
    assert article is not None, version
    return article


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_apple_silicon_on_1_8_and_1_9_says_what_pip_can_install(built_site, lang):
    reasons = " ".join(
        r.get_text() for r in _article(built_site, "1.8", lang).select('.install-reason[data-system="macos-arm64"]')
    )
    assert "1.9.0" in reasons and "macosx_11_1_arm64" in reasons and "2.15.0" not in reasons
    nine = _article(built_site, "1.9", lang)
    assert "2.15.0" not in " ".join(r.get_text() for r in nine.select('.install-reason[data-system="macos-arm64"]'))
    options = [
        o
        for o in nine.select(".install-option[data-pm=pip][data-compute=default]")
        if "macos-arm64" in o["data-systems"].split()
    ]
    assert len(options) == 1 and "torch==1.9.0" in options[0].select_one("pre code").get_text()


@pytest.mark.parametrize("lang, words", [("zh", "不含 3.14.1"), ("en", "not 3.14.1")])
def test_torchvisions_exclusion_of_python_3_14_1_is_said_where_it_applies(built_site, lang, words):
    for version in ("2.11", "2.12", "2.13", "2.14", "2.15"):
        # On each platform's line, or once in the note under the lines of the platforms it applies to.
        article = _article(built_site, version, lang)
        lines = " ".join(p.get_text() for p in article.select(".install-system, .install-system-note"))
        assert words in lines and "torchvision 0.2" in lines, version
    ten = _article(built_site, "2.10", lang)
    assert words not in " ".join(p.get_text() for p in ten.select(".install-system, .install-system-note"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_yanked_pin_is_labelled_as_yanked(built_site, catalog, lang):
    """Every pin of a plain command that PyPI has yanked carries the label on its page (1.0: torchvision 0.2.2)."""
    seen = 0
    for release in catalog.releases:
        article = _article(built_site, release.version, lang)
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
    article = _article(built_site, "2.14", "en")
    assert "torchvision==0.29.1" in article.select_one("#install-verdict code").get_text()
    notes = " ".join(n.get_text(" ", strip=True) for n in article.select(".install-note"))
    assert "torchvision 0.29.0" in notes and "does not admit torch 2.14.1" in notes


def test_a_forked_job_reports_its_own_status_and_output():
    from scripts.checks.pip_fork import last_error, run_forked

    def says(argv):  # pip's handlers write to file descriptors 1 and 2, as this does
        os.write(1, b"Looking in links: nowhere\n")
        os.write(2, ("ERROR: first\nERROR: " + " ".join(argv) + "\n").encode())
        return 1

    def breaks(argv):
        raise RuntimeError("inside the job")

    code, output = run_forked(says, ["the", "last"])
    assert code == 1 and last_error(output) == "ERROR: the last"
    assert run_forked(breaks, [])[0] == 3
    assert run_forked(lambda argv: sys.exit(7), [])[0] == 7
    assert run_forked(lambda argv: None, [])[0] == 0
