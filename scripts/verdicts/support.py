"""Support over time, from the verdicts: for every Python and CUDA version the first and the last release that
supported it, the newest release's drops, the releases only another source counts, and the planned releases that
neither the catalog nor PyPI lists yet. Pure functions of the catalog and its verdicts; no build clock.

- Python: a release supports what its Python verdict says (PyPI's Linux x86_64 wheels, the tables' claim where PyPI
  has no wheels of it). Another source's extra release is kept ("disputed") only where PyPI has no wheels of that
  release to contradict it.
- CUDA: the catalog's claims (`compat.primary("cuda")`), stable and experimental; a provisional release knows only
  the CUDA of its PyPI wheel (`pypi_cuda`), so it cannot end a CUDA version's support, only extend it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scripts.catalog.model import Catalog, Plan, Release, version_key
from scripts.verdicts.model import PYPI, ReleaseVerdict, Verdicts

FIELDS = ("python", "cuda")


def version_order(version: str) -> tuple:
    return tuple(int(p) for p in version.rstrip("t").split(".")) + ((1,) if version.endswith("t") else (0,))


def release_values(release: Release, field: str, verdict: ReleaseVerdict) -> tuple[set[str], bool]:
    """(versions the release supports, whether that list is complete). Python: the verdict. CUDA: the claims;
    a release without CUDA claims knows at most its PyPI wheel's CUDA, which is not the whole list."""
    if field == "python":
        versions = set(verdict.python.versions)
        return versions, bool(versions)
    compat = release.compat
    if compat is None:
        return set(), False
    claimed = {v for claim in compat.primary("cuda") for v in claim.values + claim.experimental}
    if claimed:
        return claimed, True
    return {v for claim in compat.primary("pypi_cuda") for v in claim.values}, False


@dataclass(frozen=True)
class SupportRange:
    """One row of a support table: a Python/CUDA version, the first and last release with it, and what the
    newest release says: `current` (it supports it) or `unknown` (its list for this field is not complete)."""

    value: str
    first: Release
    last: Release
    current: bool
    unknown: bool
    disputed_before: tuple[Release, tuple[str, ...]] | None = None
    disputed_after: tuple[Release, tuple[str, ...]] | None = None


def support_ranges(catalog: Catalog, field: str, verdicts: Verdicts) -> list[SupportRange]:
    """Every Python/CUDA version any release supports, newest version first."""
    first: dict[str, Release] = {}
    last: dict[str, Release] = {}
    complete_after: dict[str, bool] = {}  # value -> a release after its last one has a complete list
    for release in reversed(catalog.releases):  # oldest first
        values, complete = release_values(release, field, verdicts[release.version])
        for value in values:
            first.setdefault(value, release)
            last[value] = release
            complete_after[value] = False
        if complete:
            for value in complete_after:
                if value not in values:
                    complete_after[value] = True
    newest = catalog.releases[0] if catalog.releases else None
    disputed = disputed_support(catalog, field, verdicts)
    out = []
    for value in sorted(first, key=version_order, reverse=True):
        current = last[value] is newest
        earlier = [d for d in disputed.get(value, []) if version_key(d[0].version) < version_key(first[value].version)]
        later = [d for d in disputed.get(value, []) if version_key(d[0].version) > version_key(last[value].version)]
        out.append(
            SupportRange(
                value, first[value], last[value], current,
                unknown=not current and not complete_after[value],
                disputed_before=earlier[0] if earlier else None,
                disputed_after=later[-1] if later else None,
            )
        )  # fmt: skip
    return out


def disputed_support(
    catalog: Catalog, field: str, verdicts: Verdicts
) -> dict[str, list[tuple[Release, tuple[str, ...]]]]:
    """Releases that only another source counts for a Python/CUDA version, where PyPI cannot contradict it:
    {version: [(release, sources)]}, oldest first.

    Python: only releases PyPI has no Linux x86_64 wheels of (their verdict is the tables' claim); where PyPI has
    them, its wheels are the answer and a table's extra version is contradicted (2.5 has no cp38 wheel).
    CUDA: PyPI does not list the index's variants, so a disagreeing claim stays."""
    out: dict[str, list[tuple[Release, tuple[str, ...]]]] = {}
    for release in reversed(catalog.releases):  # oldest first
        if release.compat is None:
            continue
        verdict = verdicts[release.version]
        if field == "python" and verdict.python.source == PYPI:
            continue
        shown, _ = release_values(release, field, verdict)
        others: dict[str, list[str]] = {}
        for _, claim in release.compat.conflicts(field):
            for value in set(claim.values + claim.experimental) - shown:
                others.setdefault(value, [])
                others[value] += [s for s in claim.sources if s not in others[value] and s != PYPI]
        for value, sources in others.items():
            if sources:
                out.setdefault(value, []).append((release, tuple(sources)))
    return out


def dropped_by_newest(catalog: Catalog, field: str, verdicts: Verdicts) -> list[str] | None:
    """The Python/CUDA versions the previous release had and the newest does not; None when the newest
    release's list is not complete (a provisional release's CUDA builds)."""
    if len(catalog.releases) < 2:
        return []
    newest, previous = catalog.releases[0], catalog.releases[1]
    now, complete = release_values(newest, field, verdicts[newest.version])
    if not complete:
        return None
    before, _ = release_values(previous, field, verdicts[previous.version])
    return sorted(before - now, key=version_order)


def planned_releases(catalog: Catalog, verdicts: Verdicts) -> list[Plan]:
    """The schedule's next release (the newest release page's `next_release`, with its source), unless PyPI lists
    it already: a plan is shown only until the release exists."""
    plan = catalog.releases[0].next_release if catalog.releases else None
    if plan is None or plan.version in {r.version for r in catalog.releases} | verdicts.pypi_minors:
        return []
    return [plan]
