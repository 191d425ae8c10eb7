"""Python's end-of-life dates in the catalog (scripts/catalog/python_eol.py): every Python a release names has one,
and "past its end of life on a day" reads the devguide's planned months as their last day."""

from __future__ import annotations

import datetime as dt

from conftest import ROOT

from scripts.catalog.compat import python_key
from scripts.catalog.python_eol import END_OF_LIFE, SOURCE, end_of_life, ended_by, last_day
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.compute import verdicts_of


def test_every_python_a_release_names_has_an_end_of_life(catalog):
    verdicts = verdicts_of(catalog, load_evidence(ROOT / "docs" / EVIDENCE_FILE))
    named = set()
    for verdict in verdicts.releases.values():
        for python in (verdict.python, verdict.patch_python):
            named |= set(python.versions)
            for versions in python.per_platform.values():
                named |= set(versions)
    for release in catalog.releases:
        for claim in release.compat.python if release.compat else ():
            named |= set(claim.values) | set(claim.experimental)
    assert {"2.7", "3.6", "3.14t"} <= named
    assert [p for p in named if end_of_life(p) is None] == []


def test_dates_are_days_or_planned_months_and_follow_the_versions():
    assert SOURCE == "https://devguide.python.org/versions/"
    lines = sorted(END_OF_LIFE, key=python_key)
    ends = [last_day(END_OF_LIFE[line]) for line in lines]
    for end in ends:
        dt.date.fromisoformat(end)
    assert ends[1:] == sorted(ends[1:]), "3.x lines end in the order they came"
    assert END_OF_LIFE["3.8"] == "2024-10-07" and END_OF_LIFE["2.7"] == "2020-01-01"


def test_past_end_of_life_is_after_its_last_day_and_a_free_threaded_build_follows_its_line():
    assert not ended_by("3.8", "2024-10-07") and ended_by("3.8", "2024-10-08")
    assert last_day("2026-10") == "2026-10-31" and last_day("2028-02") == "2028-02-29"
    assert not ended_by("3.10", "2026-10-31") and ended_by("3.10", "2026-11-01")
    assert ended_by("3.13t", "2029-11-01") == ended_by("3.13", "2029-11-01") is True
    assert not ended_by("4.0", "2999-01-01"), "a line the guide does not list is never said to have ended"
