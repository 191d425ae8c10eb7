"""What PyPI has now that the committed evidence does not: new files and releases, yanked or removed ones, new
Python tags, and the torch pins of new library releases, compared release by release; and the report of it.
scripts/checks/upstream.py adds what a maintainer must do about the release pages, and is the command line.

What is asked: PyPI's simple index (PEP 691 JSON) of torch, torchvision and torchaudio, one request each, and,
for a torchvision or torchaudio release the evidence does not have yet, the Requires-Dist of one of its wheels
(read by range requests, as `scripts/registry/pypi.py` reads it). A `--recorded` folder holds the same answers:
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

import datetime as dt
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from scripts.catalog.compat import python_key
from scripts.registry.pypi import REGISTRY, simple_index, wheel_requires
from scripts.registry.wheels import (
    MAIN_PLATFORM,
    PACKAGES,
    RELEASE_RE,
    WHEEL_RE,
    library_record,
    release_record,
    requires_of,
    version_key,
    wheel_platform,
)

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
    main = [f for f in files if wheel_platform(f["filename"]) == MAIN_PLATFORM]
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


def load_upstream_evidence(path: Path) -> dict:
    try:
        evidence = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UpstreamError(
            f"{path} does not exist: run `python -m scripts.checks.verify_compat --fetch` once"
        ) from None
    except json.JSONDecodeError as exc:
        raise UpstreamError(f"{path}:{exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(evidence, dict) or not _is_day(str(evidence.get("checked", ""))):
        raise UpstreamError(f'{path}:1: no "checked" day (YYYY-MM-DD)')
    for package in PACKAGES:
        records = evidence.get(package, {})
        if not isinstance(records, dict) or not all(isinstance(r, dict) for r in records.values()):
            raise UpstreamError(f'{path}:1: "{package}" is not a map of release -> record')
    return evidence
