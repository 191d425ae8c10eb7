"""The "Status" of a release in its quick facts: what matters about it today, computed from the catalog and the
verdicts, never written per page: whether a newer release exists, the newest patch of its line, whether every Python
it has wheels for is past its end of life (Python's dates: scripts/catalog/python_eol.py, as of the day PyPI's
evidence was checked), which of its features a later release deprecated or removed, with a link to what to use
instead where that release's page shows it (the change's "after" code), and its LTS line."""

from __future__ import annotations

from collections.abc import Callable

from scripts.catalog.compat import python_key
from scripts.catalog.history import cached_status_today
from scripts.catalog.model import Catalog, Change, Release, version_key
from scripts.catalog.python_eol import SOURCE as PYTHON_EOL_SOURCE
from scripts.catalog.python_eol import end_of_life, ended_by
from scripts.verdicts.model import PYPI, Verdicts
from scripts.views.html import esc, evidence_mark

WORDS = {
    "zh": {
        "newest": "最新版本",
        "newest_provisional": "PyPI 上的最新版本（暂定条目）",
        "newer": "已有更新的 {version}",
        "newer_provisional": "已有更新的 {version}（PyPI 上已发布，暂定条目）",
        "patch_newest": "这一系列最新的补丁版本：{patch}",
        "patch_only": "{patch} 之后没有补丁版本",
        "python_ended": "它有 wheel 的每个 Python 版本都已{eol}（其中最新的 {python} 于 {date} 停止）",
        "python_ended_claim": "它支持的每个 Python 版本都已{eol}（其中最新的 {python} 于 {date} 停止）",
        "eol": "停止维护",
        "deprecated": "{version} 起弃用：{features}",
        "removed": "{version} 中移除：{features}",
        "instead": "（替代写法见 {release}）",
        "release": "PyTorch {version}",
        "sep": "、",
        "lts": "LTS：{patches}",
    },
    "en": {
        "newest": "newest release",
        "newest_provisional": "newest release on PyPI (provisional entry)",
        "newer": "{version} is newer",
        "newer_provisional": "{version} is newer (on PyPI; provisional entry)",
        "patch_newest": "newest patch of the line: {patch}",
        "patch_only": "no patch release after {patch}",
        "python_ended": "every Python it has wheels for is past its {eol} (the newest, {python}, since {date})",
        "python_ended_claim": "every Python it supports is past its {eol} (the newest, {python}, since {date})",
        "eol": "end of life",
        "deprecated": "deprecated in {version}: {features}",
        "removed": "removed in {version}: {features}",
        "instead": " (what to use instead: {release})",
        "release": "PyTorch {version}",
        "sep": ", ",
        "lts": "LTS: {patches}",
    },
}


def _newer(catalog: Catalog, release: Release, lang: str) -> str:
    w = WORDS[lang]
    newest = catalog.releases[0]
    if release is newest:
        return esc(w["newest_provisional"] if release.provisional else w["newest"])
    return esc((w["newer_provisional"] if newest.provisional else w["newer"]).format(version=newest.version))


def _patch(catalog: Catalog, release: Release, lang: str) -> str | None:
    """The newest patch of the line; for the newest release with a single patch, nothing (one may still come)."""
    w = WORDS[lang]
    patches = sorted(release.patches, key=version_key)
    if not patches:
        return None
    if len(patches) == 1:
        return None if release is catalog.releases[0] else esc(w["patch_only"].format(patch=patches[0]))
    return esc(w["patch_newest"].format(patch=patches[-1]))


def _python(release: Release, verdicts: Verdicts, lang: str) -> str | None:
    """Said only where every Python of the release (as its quick facts give them) has reached its end of life by the
    day the registry evidence was checked: the build stays reproducible, and the claim dated."""
    w = WORDS[lang]
    verdict = verdicts[release.version]
    python = verdict.patch_python if verdict.pins else verdict.python
    day = verdicts.checked
    if not python.versions or day is None or not all(ended_by(v, day) for v in python.versions):
        return None
    newest = max(python.versions, key=python_key)
    key = "python_ended" if python.source == PYPI else "python_ended_claim"
    eol = f'<a href="{esc(PYTHON_EOL_SOURCE)}">{esc(w["eol"])}</a>'
    line = newest[:-1] if newest.endswith("t") else newest
    return esc(w[key]).format(eol=eol, python=esc(line), date=esc(end_of_life(newest) or ""))


def _features(
    catalog: Catalog, release: Release, lang: str, release_href: Callable[[str], str | None] | None
) -> list[str]:
    """One item per later change that deprecated or removed features of this release, oldest change first."""
    w = WORDS[lang]
    statuses = cached_status_today(catalog)
    groups: dict[tuple[str, str], tuple[str, Change, list[str]]] = {}
    for feature in release.pages[lang].features:
        status = statuses.get(feature.id)
        if status is None or status.kind == "label" or status.change is None:
            continue
        key = (status.version, status.change.id)
        groups.setdefault(key, (status.kind, status.change, []))[2].append(feature.name)
    out = []
    for (version, _), (kind, change, names) in sorted(groups.items(), key=lambda item: version_key(item[0][0])):
        href = release_href(version) if release_href else None
        text = esc(w[kind].format(version=version, features=w["sep"].join(names)))
        if href and change.after:
            link = f'<a href="{esc(href)}#{esc(change.anchor)}">{esc(w["release"].format(version=version))}</a>'
            text += esc(w["instead"]).format(release=link)
        out.append(text)
    return out


def release_status(
    catalog: Catalog,
    release: Release,
    lang: str,
    verdicts: Verdicts,
    release_href: Callable[[str], str | None] | None = None,
) -> str:
    """The status value of the quick facts, as HTML: a list of what matters about the release today."""
    w = WORDS[lang]
    items = [_newer(catalog, release, lang)]
    for item in (_patch(catalog, release, lang), _python(release, verdicts, lang)):
        if item:
            items.append(item)
    items += _features(catalog, release, lang, release_href)
    lts = release.lts
    if lts:
        items.append(esc(w["lts"].format(patches=", ".join(lts.patches))) + evidence_mark(lts.evidence, lang))
    return '<ul class="status-list">' + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
