"""Facts computed across releases: each feature's label journey and where it stands today, and what
changed between two releases. Pure functions of the catalog; the views and tests share them.
"""

from __future__ import annotations

from dataclasses import dataclass

from scripts.catalog.model import AREAS, Catalog, Change, Release, version_key


@dataclass(frozen=True)
class Status:
    """Where a feature stands in the newest release that says anything about it."""

    kind: str  # "label" (its newest label) | "deprecated" | "removed"
    version: str  # the release that says so
    label: str | None = None  # the maturity label, for kind == "label"
    change: Change | None = None  # the change that deprecated/removed it


def feature_history(catalog: Catalog, lang: str) -> list[dict]:
    """One entry per feature id: its area, its name (from the newest release), and per release its label.

    `steps` is the journey: one (version, label) per release where the label differs from the one before.
    Ordered newest first, like every list on the site: by the newest release that mentions the feature, then
    by the one that first did, then by area (as in AREAS), so the view opens on what current posts talk about.
    """
    oldest_first = list(reversed(catalog.releases))
    history: dict[str, dict] = {}
    for index, release in enumerate(oldest_first):
        for feature in release.pages[lang].features:
            entry = history.setdefault(
                feature.id, {"id": feature.id, "area": feature.area, "first": index, "cells": {}, "steps": []}
            )
            entry["name"] = feature.name  # the newest release's wording wins
            entry["last"] = index
            entry["cells"][release.version] = feature.maturity
            if not entry["steps"] or entry["steps"][-1][1] != feature.maturity:
                entry["steps"].append((release.version, feature.maturity))
    area_order = {area: i for i, area in enumerate(AREAS)}
    return sorted(history.values(), key=lambda e: (-e["last"], -e["first"], area_order[e["area"]], e["id"]))


def status_today(catalog: Catalog) -> dict[str, Status]:
    """Every feature's status today: removed where a change says so, else deprecated since the first change
    that deprecates it, else its label in the newest release listing it."""
    status: dict[str, Status] = {}
    for release in reversed(catalog.releases):  # oldest first: newer facts overwrite older ones
        for feature in release.features:
            current = status.get(feature.id)
            if current is None or current.kind == "label":
                status[feature.id] = Status("label", release.version, label=feature.maturity)
        for change in release.changes:
            for fid in change.affects:
                if change.category == "removal":
                    status[fid] = Status("removed", release.version, change=change)
                elif change.category == "deprecation" and status.get(fid, Status("label", "")).kind == "label":
                    status[fid] = Status("deprecated", release.version, change=change)
    return status


_STATUS: list[tuple[Catalog, dict[str, Status]]] = []


def cached_status_today(catalog: Catalog) -> dict[str, Status]:
    """status_today of this very catalog object, computed once: every release page of a build asks, and the
    catalog is the same object for all of them (scripts/catalog/loader.py `cached_catalog`)."""
    if not _STATUS or _STATUS[0][0] is not catalog:
        _STATUS[:] = [(catalog, status_today(catalog))]
    return _STATUS[0][1]


def between(catalog: Catalog, from_version: str, to_version: str) -> list[Release]:
    """The releases after `from_version` up to and including `to_version`, oldest first (either order given)."""
    lo, hi = sorted((from_version, to_version), key=version_key)
    return [r for r in reversed(catalog.releases) if version_key(lo) < version_key(r.version) <= version_key(hi)]


def release_changes(catalog: Catalog, from_version: str, to_version: str, lang: str) -> list[dict]:
    """Features that appeared or changed label after `from_version` up to and including `to_version`.

    The Python twin of the upgrade page's script, used by tests to check what the page computes.
    """
    lo, hi = sorted((from_version, to_version), key=version_key)
    state: dict[str, str] = {}
    for release in reversed(catalog.releases):
        if version_key(release.version) > version_key(lo):
            break
        for f in release.pages[lang].features:
            state[f.id] = f.maturity
    changes = []
    for release in between(catalog, lo, hi):
        for f in release.pages[lang].features:
            before = state.get(f.id)
            if before != f.maturity:
                changes.append({"id": f.id, "version": release.version, "from": before, "to": f.maturity})
            state[f.id] = f.maturity
    return changes
