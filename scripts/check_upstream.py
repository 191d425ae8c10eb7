"""Notice what PyPI has that the site does not know yet, and say what a maintainer must do about it.

    python -m scripts.check_upstream                  ask PyPI once, report; exit 0 up to date, 1 behind, 2 error
    python -m scripts.check_upstream --update         the same, then rewrite docs/.pypi-evidence.json, dated today
    python -m scripts.check_upstream --recorded DIR   read saved answers instead of asking (tests; offline)

What is asked: PyPI's simple index (PEP 691 JSON) of torch, torchvision and torchaudio, one request each, and,
for a torchvision or torchaudio release the evidence does not have yet, the Requires-Dist of one of its wheels
(read by range requests, as `scripts/registry.py` reads it). A `--recorded` folder holds the same answers:
`<package>.json` (the simple index JSON) and `metadata/<wheel file name>.metadata` (the wheel's METADATA).

What is compared, with the committed evidence (`docs/.pypi-evidence.json`) and the release pages:
- files uploaded after the evidence's "checked" day (and any of a release it lacks), by package and release;
- releases or wheels yanked (or removed) since: the evidence records which releases were yanked and which
  wheels of a live release were;
- Python versions a release now has wheels for that the evidence does not list (a cp316 wheel added later);
- torch releases with no page, patch releases a page does not list, and the `torch==` pins of torchvision and
  torchaudio that no page pairs.
Only final releases (X.Y.Z) count, as in the evidence.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from scripts.catalog.loader import load_catalog
from scripts.catalog.model import RELEASES_DIR, ReleaseDataError
from scripts.registry import (
    EVIDENCE_FILE,
    MAIN_PLATFORM,
    PACKAGES,
    REGISTRY,
    RELEASE_RE,
    WHEEL_RE,
    fetch_evidence,
    library_record,
    platform_of,
    python_key,
    release_record,
    requires_of,
    simple_index,
    version_key,
    wheel_requires,
    write_evidence,
)

ROOT = Path(__file__).resolve().parent.parent
# Where the project keeps copies of official posts (outside the repository, so absent on CI runners).
REFERENCE_POSTS = ROOT.parent / "shared" / "reference" / "official-posts"
LIBRARIES = ("torchvision", "torchaudio")


class UpstreamError(Exception):
    """An answer that could not be had or read: a network failure or a malformed answer (exit 2)."""


# --- asking ---------------------------------------------------------------------------------------------------


@dataclass
class PyPI:
    """The live registry (or a stand-in served over HTTP at `url`)."""

    url: str = REGISTRY

    def files(self, package: str) -> list:
        return simple_index(package, self.url)

    def requires(self, wheel: dict) -> list[str]:
        return wheel_requires(wheel["url"], wheel["size"])

    def where(self, package: str) -> str:
        return f"{self.url}/simple/{package}/"


@dataclass
class Recorded:
    """Answers saved earlier: DIR/<package>.json and DIR/metadata/<wheel>.metadata."""

    directory: Path

    def files(self, package: str) -> list:
        path = self.directory / f"{package}.json"
        try:
            answer = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise UpstreamError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
        if not isinstance(answer, dict) or "files" not in answer:
            raise UpstreamError(f"{path}:1: not a simple index answer: no 'files'")
        return answer["files"]

    def requires(self, wheel: dict) -> list[str]:
        path = self.directory / "metadata" / f"{wheel['filename']}.metadata"
        return requires_of(path.read_text(encoding="utf-8"))

    def where(self, package: str) -> str:
        return str(self.directory / f"{package}.json")


def ask(registry, package: str) -> list[dict]:
    """One package's file list, each entry checked; network and format errors become UpstreamError."""
    try:
        files = registry.files(package)
    except UpstreamError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:  # URLError and HTTPError are OSErrors
        raise UpstreamError(f"{registry.where(package)}: {exc}") from None
    if not isinstance(files, list):
        raise UpstreamError(f"{registry.where(package)}: 'files' is not a list")
    for index, entry in enumerate(files):
        problem = _entry_problem(entry)
        if problem:
            raise UpstreamError(f"{registry.where(package)}: files[{index}]: {problem}")
    return files


def _entry_problem(entry) -> str | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("filename"), str):
        return "an entry without a file name"
    if not isinstance(entry.get("upload-time"), str) or not _is_day(entry["upload-time"][:10]):
        return f"{entry['filename']}: no upload-time"
    if not isinstance(entry.get("yanked", False), (bool, str)):
        return f"{entry['filename']}: 'yanked' is neither true/false nor a reason"
    return None


def _is_day(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _metadata_wheel(files: list[dict]) -> dict:
    # The wheel fetch_evidence reads: the main platform's (the release pipeline's; wheels built apart may lack
    # the pin), the smallest.
    main = [
        f for f in files if platform_of(WHEEL_RE.match(f["filename"]).group("platform").split(".")[0]) == MAIN_PLATFORM
    ]
    return min(main or files, key=lambda f: f.get("size") or 0)


def declared_torch(registry, package: str, files: list[dict]) -> tuple[str | None, str | None]:
    """(`torch==` pin, `torch>=` floor) a library release declares, read as fetch_evidence reads it."""
    wheel = _metadata_wheel(files)
    try:
        requires = registry.requires(wheel)
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        raise UpstreamError(f"{package} {wheel['filename']}: cannot read its Requires-Dist: {exc}") from None
    record = library_record(files, requires)
    return record["requires_torch"], record["requires_torch_at_least"]


# --- comparing ------------------------------------------------------------------------------------------------


@dataclass
class PyPIRelease:
    """One package release as PyPI lists it now: its installable and its yanked wheels."""

    package: str
    version: str
    installable: list[dict] = field(default_factory=list)
    yanked: list[dict] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.package} {self.version}"


def releases_of(package: str, files: list[dict]) -> dict[str, PyPIRelease]:
    """Wheels of final releases, by version."""
    found: dict[str, PyPIRelease] = {}
    for entry in files:
        match = WHEEL_RE.match(entry["filename"])
        if not match or not RELEASE_RE.match(match.group("version")):
            continue
        release = found.setdefault(match.group("version"), PyPIRelease(package, match.group("version")))
        (release.yanked if entry.get("yanked") else release.installable).append(entry)
    return found


def _day(entry: dict) -> str:
    return entry["upload-time"][:10]


def _pythons(files: list[dict]) -> list[str]:
    return release_record(files)["python"] if files else []


@dataclass
class Findings:
    """What PyPI says now that the evidence does not."""

    checked: str
    new_files: dict[tuple[str, str], list[dict]] = field(default_factory=dict)  # (package, version) -> wheels
    new_releases: set[tuple[str, str]] = field(default_factory=set)  # of those, releases the evidence lacks
    yanked: list[tuple[PyPIRelease, str]] = field(default_factory=list)  # (release, what: "every wheel" …)
    new_pythons: list[tuple[PyPIRelease, list[str]]] = field(default_factory=list)
    declared: dict[tuple[str, str], tuple[str | None, str | None]] = field(default_factory=dict)  # new library releases

    @property
    def evidence_outdated(self) -> bool:
        return bool(self.new_files or self.yanked or self.new_pythons)


def compare(evidence: dict, now: dict[str, dict[str, PyPIRelease]]) -> Findings:
    findings = Findings(checked=evidence["checked"])
    for package in PACKAGES:
        recorded = evidence.get(package, {})
        for version, release in sorted(now[package].items(), key=lambda item: version_key(item[0])):
            record = recorded.get(version)
            _new_files(findings, release, record)
            if record is not None and not record.get("yanked", False):
                _yanked_since(findings, release, record)
                added = sorted(set(_pythons(release.installable)) - set(record.get("python", [])), key=python_key)
                if added:
                    findings.new_pythons.append((release, added))
        for version in sorted(set(recorded) - set(now[package]), key=version_key):
            if not recorded[version].get("yanked", False):
                findings.yanked.append((PyPIRelease(package, version), "removed from PyPI (no wheel listed)"))
    return findings


def _new_files(findings: Findings, release: PyPIRelease, record: dict | None) -> None:
    # Every live wheel of a release the evidence lacks is new, whatever its date (a file uploaded on the checked
    # day itself may or may not be in the evidence: it was asked during that day). For a release the evidence
    # has, the wheels uploaded after that day.
    checked = findings.checked
    new = [f for f in release.installable if record is None or _day(f) > checked]
    if new:
        key = (release.package, release.version)
        findings.new_files[key] = new
        if record is None:
            findings.new_releases.add(key)


def _yanked_since(findings: Findings, release: PyPIRelease, record: dict) -> None:
    """For a release the evidence calls live: wheels yanked that its `yanked_files` does not list."""
    known = set(record.get("yanked_files", []))
    newly = [f for f in release.yanked if f["filename"] not in known]
    if not newly:
        return
    why = "; ".join(
        sorted({f["yanked"] if isinstance(f["yanked"], str) and f["yanked"] else "no reason given" for f in newly})
    )
    if not release.installable:
        findings.yanked.append((release, f"every wheel yanked ({why})"))
        return
    lost = sorted(set(record.get("python", [])) - set(_pythons(release.installable)), key=python_key)
    lost_text = f"; no installable wheel left for Python {', '.join(lost)}" if lost else ""
    names = ", ".join(sorted(f["filename"] for f in newly))
    findings.yanked.append((release, f"{len(newly)} wheel(s) yanked ({why}): {names}{lost_text}"))


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
            "`python -m scripts.verify_compat` and fix what it lists; commit the evidence with the pages"
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


# --- reporting ------------------------------------------------------------------------------------------------


def report(findings: Findings, todo: list[str], evidence_path: Path) -> str:
    lines = [f"PyPI compared with {evidence_path} (checked {findings.checked}):", ""]
    lines += _section(
        "New files (uploaded after " + findings.checked + ", or of a release the evidence lacks)",
        _new_file_lines(findings),
    )
    lines += _section("Yanked or removed since", [f"{release.name}: {what}" for release, what in findings.yanked])
    lines += _section(
        "New Python versions on releases the evidence has",
        [f"{r.name}: {', '.join(added)}" for r, added in findings.new_pythons],
    )
    if todo:
        lines += [f"Behind: {len(todo)} thing(s) to do:"] + [f"  {n}. {line}" for n, line in enumerate(todo, 1)]
    else:
        lines.append("Up to date: the evidence and the pages know every release PyPI lists.")
    return "\n".join(lines)


def _section(title: str, items: list[str]) -> list[str]:
    return [f"{title}:"] + [f"  {item}" for item in items or ["none"]] + [""]


def _new_file_lines(findings: Findings) -> list[str]:
    lines = []
    for (package, version), files in findings.new_files.items():
        days = sorted({_day(f) for f in files})
        when = days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"
        kind = (
            "new release"
            if (package, version) in findings.new_releases
            else "more files for a release the evidence has"
        )
        text = (
            f"{package} {version}: {len(files)} wheel(s) uploaded {when} ({kind}); Python {', '.join(_pythons(files))}"
        )
        pin, floor = findings.declared.get((package, version), (None, None))
        if pin:
            text += f"; declares torch=={pin}"
        elif floor:
            text += f"; declares torch>={floor} (no exact pin: it installs with every later torch too)"
        lines.append(text)
    return lines


# --- command line ---------------------------------------------------------------------------------------------


def check(registry, docs_dir: Path, posts: Path = REFERENCE_POSTS) -> tuple[str, list[str]]:
    """(the report, what to do): one question per package to `registry`, plus one Requires-Dist per new
    library release. Raises UpstreamError when an answer is missing or malformed."""
    evidence = _load_evidence(docs_dir / EVIDENCE_FILE)
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


def _load_evidence(path: Path) -> dict:
    try:
        evidence = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UpstreamError(f"{path} does not exist: run `python -m scripts.verify_compat --fetch` once") from None
    except json.JSONDecodeError as exc:
        raise UpstreamError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(evidence, dict) or not _is_day(str(evidence.get("checked", ""))):
        raise UpstreamError(f'{path}:1: no "checked" day (YYYY-MM-DD)')
    for package in PACKAGES:
        records = evidence.get(package, {})
        if not isinstance(records, dict) or not all(isinstance(r, dict) for r in records.values()):
            raise UpstreamError(f'{path}:1: "{package}" is not a map of release -> record')
    return evidence


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.check_upstream",
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
