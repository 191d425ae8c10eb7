"""Loading the release catalog: every page under docs/releases/ read, joined and checked across releases, or
ReleaseDataError listing every problem as `path:line: message`; `cached_catalog` for the build's hooks.

A release is `docs/releases/<version>.md` (Chinese, the default language) and `<version>.en.md` (English).
The **Chinese page's front matter holds every language-neutral fact** — version, date, official source,
patch releases, each feature's id/area/maturity, each breaking change's category/source/code, the
compatibility data — together with its Chinese words. The **English page's front matter holds only words**:
title, summary, notes, and the English name of every feature and text of every change, keyed by id.
So a fact cannot disagree between languages, and a missing translation is an error with its line.

Two facts describe a release as a whole:
- `provisional: true` — the release is on PyPI but its official post is not available yet. Its page pair is
  written from the registry evidence (`python -m scripts.tools.new_release 2.15 --provisional`): `date` is PyPI's
  first upload day (the required `date_note` says so), `source` the version's PyPI page, every compatibility
  claim `sources: [PyPI]`, `evidence: official`; `features` and `changes` are refused on both pages (a registry
  has no labels or highlights). Views mark it (`Release.provisional`); `python -m scripts.tools.new_release 2.15`
  turns it into a full page when the post arrives.
- `lts: {patches: [...], source: <url>, evidence: ..., note: <Chinese words>}` — the release's long-term
  support line (1.8: 1.8.2); the English page translates the note as `lts_note` (`Release.lts`).
- `announced: [{id, text, source, evidence}]` (provisional pages only) — changes an official source announced
  before the post exists (RFCs, the release schedule); the English page gives their words by id.
- `next_release: {version, date, source, evidence}` — the release schedule's next release: a plan, shown as one
  on the newest release's page, the timeline and the support page while the catalog and PyPI lack that release.

The machine facts of `docs/.hardware.yml` (scripts/catalog/hardware/file.py) are read with the pages and held to
them: `Catalog.hardware`.

Every generated view (timeline, navigation, lifecycle, topics, compare/upgrade, compatibility, feeds,
releases.json) reads releases through `load_catalog`. `python -m scripts.checks.pages` (make check-pages) checks
the pages without building the site.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from scripts.catalog.frontmatter import Problem, shown_path
from scripts.catalog.hardware.file import hardware_problems, load_hardware
from scripts.catalog.hardware.model import HARDWARE_FILE
from scripts.catalog.join import join_languages
from scripts.catalog.model import (
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LANGUAGES,
    RELEASES_DIR,
    VERSION_RE,
    Catalog,
    Feature,
    Release,
    ReleaseDataError,
    language_of,
    page_file_name,
    version_key,
)
from scripts.catalog.page import ParsedPage, parse_page
from scripts.catalog.paths import language_suffix_problem, unsafe_path_problem


def _stem(path: Path) -> str:
    """`1.6.en.md` -> `1.6`: the name shared by a release's language pages."""
    stem = path.name[: -len(".md")]
    lang = language_of(path)
    return stem[: -len(lang) - 1] if stem.endswith(f".{lang}") else stem


def _release_files(docs_dir: Path) -> tuple[dict[str, dict[str, Path]], list[Problem]]:
    """docs/releases/*.md grouped by version and language; a file whose name is not a version is a problem."""
    grouped: dict[str, dict[str, Path]] = {}
    problems: list[Problem] = []
    folder = docs_dir / RELEASES_DIR
    if not folder.is_dir():
        return grouped, problems
    for path in sorted(folder.iterdir()):
        if not path.name.endswith(".md") or path.name.startswith("."):
            continue
        shown = shown_path(path)
        unsafe = unsafe_path_problem(path, docs_dir.parent, shown) or language_suffix_problem(path, shown)
        if unsafe:
            problems.append(unsafe)
            continue
        stem, lang = _stem(path), language_of(path)
        if not VERSION_RE.match(stem):
            problems.append(
                Problem(
                    shown,
                    1,
                    f"a release page is named <version>.md or <version>.en.md (e.g. 2.10.md), not '{path.name}'",
                )
            )
            continue
        grouped.setdefault(stem, {})[lang] = path
    return grouped, problems


def load_catalog(docs_dir: Path | str, today: dt.date | None = None) -> Catalog:
    """Read and validate every release page under docs_dir/releases; raise ReleaseDataError on any problem."""
    docs_dir = Path(docs_dir)
    today = today or dt.date.today()
    grouped, problems = _release_files(docs_dir)
    releases: list[Release] = []
    for version, files in grouped.items():
        parsed: dict[str, ParsedPage] = {}
        for lang, path in files.items():
            page, found = parse_page(path, shown_path(path), version, lang)
            problems.extend(found)
            if page is not None:
                parsed[lang] = page
        missing = [lang for lang in LANGUAGES if lang not in files]
        for lang in missing:
            present = next(iter(files.values()))
            expected = shown_path(docs_dir / RELEASES_DIR / page_file_name(version, lang))
            line = parsed[language_of(present)].lines.get("version", 1) if language_of(present) in parsed else 1
            problems.append(
                Problem(
                    shown_path(present), line, f"release {version} has no {LANGUAGE_NAMES[lang]} page: add {expected}"
                )
            )
        if missing or len(parsed) != len(LANGUAGES):
            continue
        release, found = join_languages(parsed[DEFAULT_LANGUAGE], parsed["en"], docs_dir)
        problems.extend(found)
        if release:
            releases.append(release)
    releases.sort(key=lambda r: version_key(r.version), reverse=True)
    problems.extend(_catalog_problems(releases, today))
    hardware, found = load_hardware(docs_dir)
    problems.extend(found + hardware_problems(hardware, releases))
    if problems:
        raise ReleaseDataError(problems)
    return Catalog(releases, hardware)


def _catalog_problems(releases: list[Release], today: dt.date) -> list[Problem]:
    """Facts that involve more than one release: dates in order and not in the future, links between
    changes, features named by changes, one area per feature id."""
    problems: list[Problem] = []
    oldest_first = list(reversed(releases))
    for older, newer in zip(oldest_first, oldest_first[1:], strict=False):
        page = newer.facts
        older_day = older.date if older.facts.date_precision == "day" else older.date.replace(day=1)
        newer_last_day = page.date if page.date_precision == "day" else _month_end(page.date)
        if newer_last_day < older_day:
            problems.append(
                Problem(
                    page.path,
                    page.lines["date"],
                    f"date {page.date_iso} is earlier than the release before it ({older.version}: {older.date_iso})",
                )
            )
    for release in releases:
        page = release.facts
        if page.date > today:
            problems.append(
                Problem(
                    page.path,
                    page.lines["date"],
                    f"date {page.date_iso} is in the future (today is {today.isoformat()})",
                )
            )
    by_version = {r.version: r for r in releases}
    feature_ids = {f.id for r in releases for f in r.features}
    area_of: dict[str, tuple[str, Release, Feature]] = {}
    for release in oldest_first:
        for feature in release.features:
            seen = area_of.setdefault(feature.id, (feature.area, release, feature))
            if seen[0] != feature.area:
                problems.append(
                    Problem(
                        release.facts.path,
                        feature.line,
                        f"feature '{feature.id}' is in area '{feature.area}' here but '{seen[0]}' in {seen[1].facts.path}:{seen[2].line}: one id is one feature, in one area",
                    )
                )
        for change in release.changes:
            for fid in change.affects:
                if fid not in feature_ids:
                    problems.append(
                        Problem(
                            release.facts.path,
                            change.line,
                            f"change '{change.id}' affects feature '{fid}', which no release lists",
                        )
                    )
            if change.follows:
                version, cid = change.follows
                target = by_version.get(version)
                if target is None:
                    problems.append(
                        Problem(
                            release.facts.path,
                            change.line,
                            f"change '{change.id}' follows release {version}, which has no page",
                        )
                    )
                elif cid not in {c.id for c in target.changes}:
                    problems.append(
                        Problem(
                            release.facts.path,
                            change.line,
                            f"change '{change.id}' follows '{cid}', which {target.facts.path} does not list under changes",
                        )
                    )
            if change.last_supported and change.last_supported not in by_version:
                problems.append(
                    Problem(
                        release.facts.path,
                        change.line,
                        f"change '{change.id}': last_supported release {change.last_supported} has no page",
                    )
                )
    problems += _plan_problems(releases)
    return problems


def _plan_problems(releases: list[Release]) -> list[Problem]:
    """A `next_release` plan falls after the release whose page names it. Adding the planned release is one page
    pair and nothing else: the older page's plan is then fulfilled (or overtaken) and no view shows it any more
    (scripts/verdicts/support.py `planned_releases`)."""
    problems = []
    for release in releases:
        plan = release.next_release
        if plan is not None and plan.date <= release.date:
            message = f"next_release.date {plan.date_iso} is not after this release's date {release.date_iso}"
            problems.append(Problem(release.facts.path, plan.line, message))
    return problems


def _month_end(day: dt.date) -> dt.date:
    following = day.replace(day=28) + dt.timedelta(days=4)
    return following - dt.timedelta(days=following.day)


# --- shared by the build hooks ----------------------------------------------------------------------

_CACHE: dict[str, tuple[tuple, Catalog]] = {}


def _stamp(docs_dir: Path) -> tuple:
    """Name, modification time and size of every release file (`*.md` in the releases folder) and of the hardware
    file. One directory read and one lstat per file: the hooks ask for the catalog a few times per page."""
    found = []
    try:
        with os.scandir(docs_dir / RELEASES_DIR) as entries:
            found = sorted((entry.name, entry.path) for entry in entries if entry.name.endswith(".md"))
    except (FileNotFoundError, NotADirectoryError):
        pass
    hardware = docs_dir / HARDWARE_FILE
    if hardware.is_file():
        found.append((hardware.name, str(hardware)))
    return tuple((name, *_times(path)) for name, path in found)


def _times(path: str) -> tuple[int, int]:
    status = os.lstat(path)
    return status.st_mtime_ns, status.st_size


def cached_catalog(docs_dir: Path | str) -> Catalog:
    """load_catalog, memoised on the release files' names and modification times.

    static-i18n runs a full build per language and `mkdocs serve` rebuilds on every change, so every
    hook asks for the catalog many times; re-parsing only when a file changed keeps that cheap.
    """
    docs_dir = Path(docs_dir)
    stamp = _stamp(docs_dir)
    key = os.path.abspath(docs_dir)  # a key only: no system call to resolve links
    hit = _CACHE.get(key)
    if hit and hit[0] == stamp:
        return hit[1]
    catalog = load_catalog(docs_dir)
    _CACHE[key] = (stamp, catalog)
    return catalog
