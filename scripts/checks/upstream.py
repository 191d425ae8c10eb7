"""Notice what PyPI has that the site does not know yet, and say what a maintainer must do about it.

    python -m scripts.checks.upstream                  ask PyPI once, report; exit 0 up to date, 1 behind, 2 error
    python -m scripts.checks.upstream --update         the same, then rewrite docs/.pypi-evidence.json, dated today
    python -m scripts.checks.upstream --recorded DIR   read saved answers instead of asking (tests; offline)

PyPI's answers are asked and compared with the evidence in scripts/registry/upstream.py; here they meet the release
pages: torch releases with no page, patch releases a page does not list, the `torch==` pins of torchvision and
torchaudio that no page pairs, yanked files and new Python tags a page states. Each becomes one sentence with the
command or file to edit.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import zipfile
from pathlib import Path

from scripts.catalog.loader import load_catalog
from scripts.catalog.model import RELEASES_DIR, ReleaseDataError
from scripts.registry.evidence import EVIDENCE_FILE, write_evidence
from scripts.registry.pypi import REGISTRY, fetch_evidence
from scripts.registry.upstream import (
    LIBRARIES,
    Findings,
    PyPI,
    PyPIRelease,
    Recorded,
    UpstreamError,
    ask,
    compare,
    declared_torch,
    load_upstream_evidence,
    releases_of,
    report,
)
from scripts.registry.wheels import PACKAGES, version_key

ROOT = Path(__file__).resolve().parents[2]
# Where the project keeps copies of official posts (outside the repository, so absent on CI runners).
REFERENCE_POSTS = ROOT.parent / "shared" / "reference" / "official-posts"


# --- what to do -----------------------------------------------------------------------------------------------


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def _page(release) -> str:
    return str(release.facts.path)


REFETCH = "refetch the evidence"


def actions(
    findings: Findings, catalog, evidence: dict, now: dict[str, dict[str, PyPIRelease]], docs_dir: Path, posts: Path
) -> list[str]:
    """Each thing a maintainer must do, as one sentence with the command or file to edit. The refetch comes
    first: a provisional page is written from the evidence (`python -m scripts.new_release X --provisional`)."""
    pages = catalog.by_version()
    then = " after the refetch" if findings.evidence_outdated else ""
    todo: list[str] = []
    if findings.evidence_outdated:
        todo.append(
            f"{REFETCH}: make check-upstream UPDATE=1 (rewrites {docs_dir / EVIDENCE_FILE}), then run "
            "`python -m scripts.checks.verify_compat` and fix what it lists; commit the evidence with the pages"
        )
    todo += _missing_pages(now["torch"], pages, posts, then)
    todo += _posts_arrived(pages, posts)
    todo += _unlisted_patches(now["torch"], pages, then)
    todo += _missing_pairings(findings, evidence, now, pages, docs_dir, then)
    todo += _yanked_on_pages(findings, pages, then)
    todo += _new_pythons_on_pages(findings, pages, then)
    return list(dict.fromkeys(todo))


def _or_rerun(release, then: str, fix: str) -> str:
    """`fix` for a full page; a provisional page is not edited by hand but rewritten from the evidence."""
    if release.provisional:
        return f"rerun `python -m scripts.new_release {release.version} --provisional`{then}"
    return fix


def _installable_minors(torch: dict[str, PyPIRelease]) -> dict[str, list[str]]:
    minors: dict[str, list[str]] = {}
    for version in sorted(torch, key=version_key):
        if torch[version].installable:
            minors.setdefault(_minor(version), []).append(version)
    return minors


def _missing_pages(torch: dict[str, PyPIRelease], pages: dict, posts: Path, then: str) -> list[str]:
    todo = []
    for minor, patches in _installable_minors(torch).items():
        if minor in pages:
            continue
        listed = " and ".join(f"torch {p}" for p in patches)
        verb = "is" if len(patches) == 1 else "are"
        post = posts / f"{minor}.md"
        if post.is_file():
            how = f"its official post is in {post}: run `python -m scripts.new_release {minor}` and fill the page in from it"
        else:
            how = f"run `python -m scripts.new_release {minor} --provisional`{then} (a provisional entry until its post is in shared/reference)"
        todo.append(f"{listed} {verb} on PyPI but has no page: {how}")
    return todo


def _posts_arrived(pages: dict, posts: Path) -> list[str]:
    todo = []
    for minor, release in pages.items():
        post = posts / f"{minor}.md"
        if release.provisional and post.is_file():
            todo.append(
                f"{_page(release)} is provisional, and its official post is in {post} now: run `python -m scripts.new_release {minor}` "
                "(a full scaffold that keeps the registry facts) and fill it in from the post"
            )
    return todo


def _unlisted_patches(torch: dict[str, PyPIRelease], pages: dict, then: str) -> list[str]:
    todo = []
    for minor, patches in _installable_minors(torch).items():
        release = pages.get(minor)
        for patch in patches:
            if release is not None and patch not in release.patches:
                fix = _or_rerun(release, then, f'add "{patch}" to its patches (and its pairings)')
                todo.append(f"torch {patch} is on PyPI but {_page(release)} does not list it: {fix}")
    return todo


def _pins(findings: Findings, evidence: dict) -> dict[tuple[str, str], str]:
    """(library, version) -> the torch release it pins, from the evidence and from the new releases."""
    pins = {}
    for library in LIBRARIES:
        for version, record in evidence.get(library, {}).items():
            if record.get("requires_torch") and not record.get("yanked", False):
                pins[(library, version)] = record["requires_torch"]
    for key, (pin, _floor) in findings.declared.items():
        if pin:
            pins[key] = pin
    return pins


def _paired(release, library: str, version: str, pin: str) -> bool:
    # As verify_compat's pairing check: any claim for that library release whose torch scope names the pin.
    compat = release.compat
    claims = compat.claims(library) if compat else []
    return any(c.values and c.values[0] == version and pin in c.torch for c in claims)


def _missing_pairings(
    findings: Findings, evidence: dict, now: dict[str, dict[str, PyPIRelease]], pages: dict, docs_dir: Path, then: str
) -> list[str]:
    todo = []
    on_pypi = {v for v, r in now["torch"].items() if r.installable}
    for (library, version), pin in sorted(
        _pins(findings, evidence).items(), key=lambda item: (item[0][0], version_key(item[0][1]))
    ):
        if now[library].get(version) is not None and not now[library][version].installable:
            continue  # yanked since: reported as such, not as a pairing to add
        release = pages.get(_minor(pin))
        if release is None and pin not in on_pypi:
            continue  # a pin to a torch PyPI does not have: nothing a page could pair
        declared = f"{library} {version} declares torch=={pin}"
        if release is None:
            where = docs_dir / RELEASES_DIR / f"{_minor(pin)}.md"
            todo.append(
                f"{declared}: add that pairing to {where} compat (a provisional page gets it from the evidence)"
            )
        elif pin in release.patches and not _paired(release, library, version, pin):
            todo.append(f"{declared}: " + _or_rerun(release, then, f"add that pairing to {_page(release)} compat"))
    return todo


def _yanked_on_pages(findings: Findings, pages: dict, then: str) -> list[str]:
    todo = []
    for release, what in findings.yanked:
        if release.package == "torch":
            page = pages.get(_minor(release.version))
            if page is not None and release.version in page.patches:
                fix = _or_rerun(page, then, "say so there (its install box must not offer it)")
                todo.append(f"torch {release.version}: {what}; {_page(page)} lists it: {fix}")
            continue
        for page in pages.values():
            claims = page.compat.claims(release.package) if page.compat else []
            if any(c.values and c.values[0] == release.version for c in claims):
                fix = _or_rerun(page, then, "review that pairing")
                todo.append(f"{release.name}: {what}; {_page(page)} pairs it with torch: {fix}")
    return todo


def _new_pythons_on_pages(findings: Findings, pages: dict, then: str) -> list[str]:
    todo = []
    for release, added in findings.new_pythons:
        page = pages.get(_minor(release.version)) if release.package == "torch" else None
        if page is not None:
            fix = _or_rerun(
                page,
                then,
                f"add them{then} to {_page(page)} compat python (a claim with sources [PyPI], or fix the value)",
            )
            todo.append(f"torch {release.version} now has wheels for Python {', '.join(added)}: {fix}")
    return todo


# --- command line ---------------------------------------------------------------------------------------------


def check(registry, docs_dir: Path, posts: Path = REFERENCE_POSTS) -> tuple[str, list[str]]:
    """(the report, what to do): one question per package to `registry`, plus one Requires-Dist per new
    library release. Raises UpstreamError when an answer is missing or malformed."""
    evidence = load_upstream_evidence(docs_dir / EVIDENCE_FILE)
    try:
        catalog = load_catalog(docs_dir)
    except ReleaseDataError as exc:
        raise UpstreamError(f"the release pages do not load:\n{exc}") from None
    now = {package: releases_of(package, ask(registry, package)) for package in PACKAGES}
    findings = compare(evidence, now)
    for package, version in sorted(findings.new_releases):
        if package in LIBRARIES:
            findings.declared[(package, version)] = declared_torch(registry, package, now[package][version].installable)
    todo = actions(findings, catalog, evidence, now, docs_dir, posts)
    return report(findings, todo, docs_dir / EVIDENCE_FILE), todo


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.checks.upstream",
        description="\n\n".join(__doc__.split("\n\n")[:2]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 up to date, 1 behind (something to do), 2 network or parse error.",
    )
    parser.add_argument("--docs-dir", default=Path("docs"), type=Path, help="the MkDocs docs_dir (default: docs)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--registry", default=REGISTRY, help=f"the registry to ask (default: {REGISTRY})")
    source.add_argument(
        "--recorded", type=Path, metavar="DIR", help="read saved answers from DIR instead of asking (offline)"
    )
    parser.add_argument(
        "--update", action="store_true", help=f"after the report, ask again and rewrite DOCS_DIR/{EVIDENCE_FILE}"
    )
    parser.add_argument(
        "--date", type=dt.date.fromisoformat, default=None, help='the day --update writes as "checked" (default: today)'
    )
    parser.add_argument(
        "--posts",
        type=Path,
        default=REFERENCE_POSTS,
        help="copies of official posts, <minor>.md (default: ../shared/reference/official-posts)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.update and args.recorded:
        parser.error("--update asks the registry itself; it cannot read --recorded answers")
    registry = Recorded(args.recorded) if args.recorded else PyPI(args.registry.rstrip("/"))
    try:
        text, todo = check(registry, args.docs_dir, args.posts)
    except UpstreamError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(text)
    if not args.update:
        return 1 if todo else 0
    return _update(args, todo)


def _update(args, todo: list[str]) -> int:
    path = args.docs_dir / EVIDENCE_FILE
    day = args.date or dt.date.today()
    try:
        evidence = fetch_evidence(day, log=lambda line: print(f"  {line}"), registry=args.registry.rstrip("/"))
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        print(f"error: refetching the evidence failed, {path} is unchanged: {exc}", file=sys.stderr)
        return 2
    write_evidence(path, evidence)
    print(f"wrote {path} (checked {evidence['checked']})")
    remaining = [line for line in todo if not line.startswith(REFETCH)]
    return 1 if remaining else 0


if __name__ == "__main__":
    sys.exit(main())
