"""Check the catalog's compatibility facts against the registry itself, not only against tables.

    python -m scripts.checks.verify_compat --fetch     ask PyPI once, write docs/.pypi-evidence.json (dated)
    python -m scripts.checks.verify_compat             compare the catalog with that file, offline (tests do this)

What PyPI can answer, and is asked:
- which torch releases exist, and for each, which CPython wheels it ships (`cp38`, `cp313t` … read from the
  wheel file names, so free-threaded builds are told apart), on which platforms, and the day of the first
  upload;
- which `torch==` each torchvision and torchaudio release declares in its `Requires-Dist`.
It cannot answer which CUDA or ROCm builds exist (those live on download.pytorch.org, which the build and the
tests never reach): those values stay with their table sources.

The comparison (`disagreements`) is strict: where PyPI and the catalog differ, the catalog must say so — a
claim whose sources include `PyPI` (shown beside the table's value, "PyPI: …"), a disagreeing claim of
another source that carries a note, or, for a patch release PyPI never had, `not_on_pypi` in `compat`.
Anything else is a problem with the catalog's file and line.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from scripts.catalog.frontmatter import Problem
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import ReleaseDataError
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence, write_evidence
from scripts.registry.pypi import fetch_evidence
from scripts.registry.wheels import MAIN_PLATFORM
from scripts.registry.wheels import version_key as _version_key

# --- comparing ---------------------------------------------------------------------------------------------


def _claims_with_pypi(compat, name: str, patch: str) -> list:
    return [c for c in compat.claims(name) if "PyPI" in c.sources and (not c.torch or patch in c.torch)]


def disagreements(catalog, evidence: dict) -> list[Problem]:
    """Where the catalog and PyPI differ and the catalog does not say so (see the module docstring)."""
    problems: list[Problem] = []
    torch = evidence.get("torch", {})
    minors: dict[str, list[str]] = {}
    for version in torch:
        if torch[version]["files"]:
            minors.setdefault(".".join(version.split(".")[:2]), []).append(version)
    for release in catalog.releases:
        page = release.facts
        compat = release.compat
        absent = set(compat.not_on_pypi) if compat else set()
        on_pypi = minors.get(release.version, [])
        line = page.lines.get("patches", page.lines.get("version", 1))
        if release.patches or on_pypi:
            for patch in on_pypi:
                if patch not in release.patches:
                    problems.append(Problem(page.path, line, f"PyPI has torch {patch}, which 'patches' does not list"))
            for patch in release.patches:
                if patch not in on_pypi and patch not in absent:
                    problems.append(
                        Problem(
                            page.path,
                            line,
                            f"torch {patch} is not on PyPI: list it under compat.not_on_pypi (with a note) or remove it",
                        )
                    )
            for patch in absent & set(on_pypi):
                problems.append(Problem(page.path, line, f"compat.not_on_pypi lists {patch}, but PyPI has it"))
        if compat is None:
            continue
        for patch in release.patches:
            record = torch.get(patch)
            if not record or not record["files"] or not compat.claims("python"):
                continue
            # Linux x86_64's wheels decide (a lone aarch64 cp310 wheel of 1.10.2 or a macOS cp27 one of 1.5.0 is not
            # "PyPI supports Python 3.10 / 2.7"); the union only where the evidence predates per-platform records.
            registry = record.get("wheels", {}).get(MAIN_PLATFORM) or record["python"]
            listed = compat.versions("python", patch=patch)
            if set(listed) == set(registry):
                continue
            if any(set(c.values + c.experimental) == set(registry) for c in _claims_with_pypi(compat, "python", patch)):
                continue
            claim = compat.primary("python")[0]
            problems.append(
                Problem(
                    page.path,
                    claim.line,
                    f"PyPI has torch {patch} wheels for Python {', '.join(registry)}; the catalog says {', '.join(listed)}: "
                    f"add a python claim with sources [PyPI] and those versions (shown beside the table), or fix the value",
                )
            )
        problems.extend(_pypi_claim_problems(release, torch))
        for library in ("torchvision", "torchaudio"):
            problems.extend(_pairing_problems(release, library, evidence.get(library, {})))
    return problems


def _pypi_claim_problems(release, torch: dict) -> list[Problem]:
    """A Python claim that names PyPI as its source must say what PyPI's Linux x86_64 wheels say, for every patch
    it covers (the union over platforms once made 1.10 "support" Python 3.10 through a single aarch64 wheel)."""
    problems = []
    for claim in release.compat.claims("python"):
        if "PyPI" not in claim.sources:
            continue
        for patch in claim.torch or release.patches:
            record = torch.get(patch)
            if not record or not record.get("files") or MAIN_PLATFORM not in record.get("wheels", {}):
                continue
            registry = record["wheels"][MAIN_PLATFORM]
            if set(claim.values + claim.experimental) != set(registry):
                problems.append(
                    Problem(
                        release.facts.path,
                        claim.line,
                        f"this PyPI claim says Python {', '.join(claim.values + claim.experimental)} for torch {patch}; "
                        f"PyPI's {MAIN_PLATFORM} wheels are {', '.join(registry)} (other platforms are details, not support)",
                    )
                )
                break
    return problems


def _pairing_problems(release, library: str, records: dict) -> list[Problem]:
    """Every pairing the catalog states must agree with the library's own pin, and every pin of a library
    release to one of this release's patches must be stated."""
    problems = []
    compat = release.compat
    claims = compat.claims(library)
    paired: dict[str, set[str]] = {}  # library version -> torch patches the catalog pairs with it
    for claim in claims:
        paired.setdefault(claim.values[0], set()).update(claim.torch)
    primary = {id(c) for c in compat.primary(library)}
    for claim in claims:
        version = claim.values[0]
        pin = (records.get(version) or {}).get("requires_torch")
        recorded = id(claim) not in primary and claim.note  # a disagreeing source, shown as such, with its note
        if pin and pin not in paired[version] and "PyPI" not in claim.sources and not recorded:
            problems.append(
                Problem(
                    release.facts.path,
                    claim.line,
                    f"{library} {version} declares torch=={pin} on PyPI, but the catalog pairs it with torch {', '.join(sorted(claim.torch))}",
                )
            )
    for version, record in records.items():
        pin = record.get("requires_torch")
        if pin in release.patches and pin not in paired.get(version, set()):
            line = claims[0].line if claims else release.facts.lines.get("compat", 1)
            problems.append(
                Problem(
                    release.facts.path, line, f"{library} {version} declares torch=={pin} on PyPI: add that pairing"
                )
            )
    return problems


def pending_release(catalog, evidence: dict) -> tuple[str, str | None] | None:
    """(version, first upload day) of the newest torch minor release on PyPI that has no page yet."""
    newest = max((r.version for r in catalog.releases), key=_version_key, default="0.0")
    later = [
        v
        for v, r in evidence.get("torch", {}).items()
        if r["files"] and v.endswith(".0") and _version_key(v)[:2] > _version_key(newest)[:2]
    ]
    if not later:
        return None
    version = max(later, key=_version_key)
    return version, evidence["torch"][version]["uploaded"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.checks.verify_compat", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--docs-dir", default="docs", type=Path, help="the MkDocs docs_dir (default: docs)")
    parser.add_argument(
        "--fetch", action="store_true", help=f"ask PyPI (network) and rewrite DOCS_DIR/{EVIDENCE_FILE}, dated today"
    )
    args = parser.parse_args(argv)
    path = args.docs_dir / EVIDENCE_FILE
    if args.fetch:
        evidence = fetch_evidence(dt.date.today())
        write_evidence(path, evidence)
        print(
            f"wrote {path}: {len(evidence['torch'])} torch, {len(evidence['torchvision'])} torchvision, {len(evidence['torchaudio'])} torchaudio releases (checked {evidence['checked']})"
        )
    if not path.exists():
        print(f"error: {path} does not exist: run with --fetch (needs the network, once)", file=sys.stderr)
        return 2
    evidence = load_evidence(path)
    try:
        catalog = load_catalog(args.docs_dir)
    except ReleaseDataError as exc:
        print(exc, file=sys.stderr)
        return 1
    problems = disagreements(catalog, evidence)
    for problem in sorted(problems, key=lambda p: (p.path, p.line)):
        print(problem)
    print(f"{len(problems)} disagreement(s) between the catalog and PyPI (evidence checked {evidence['checked']})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
