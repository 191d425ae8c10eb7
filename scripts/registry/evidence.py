"""The registry evidence of the catalog, as committed: docs/.pypi-evidence.json, what PyPI said on the day it was
asked, read offline by the build and the tests (`evidence_of`), written by the fetch (`write_evidence`).

It is the bottom layer of the compatibility facts: PyPI's wheel files decide what `pip install` can install from
PyPI, per platform; the PyTorch wheel index's variants (cpu, cuXYZ, rocmX.Y) are known only from the sources
that document them (scripts/catalog/compat.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from scripts.catalog.frontmatter import shown_path
from scripts.registry.dists import group_problem
from scripts.registry.positions import line_of
from scripts.registry.wheels import PACKAGES

EVIDENCE_FILE = ".pypi-evidence.json"  # inside docs_dir: committed with the docs, never published (dot file)


def write_evidence(path: Path, evidence: dict) -> None:
    path.write_text(json.dumps(evidence, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


class EvidenceError(ValueError):
    """The evidence file does not parse or lacks what every reader of it needs; the message names file:line."""


def load_evidence(path: Path) -> dict:
    """The evidence file, parsed and checked; EvidenceError (file:line) where it is not one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        evidence = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EvidenceError(
            f"{shown_path(path)}:{exc.lineno}: not valid JSON ({exc.msg}); refetch it with `python -m scripts.checks.verify_compat --fetch`"
        ) from None
    except UnicodeDecodeError:
        raise EvidenceError(f"{shown_path(path)}:1: not UTF-8 text") from None
    if (
        not isinstance(evidence, dict)
        or not isinstance(evidence.get("checked"), str)
        or not all(isinstance(evidence.get(p), dict) for p in PACKAGES)
    ):
        raise EvidenceError(
            f"{shown_path(path)}:1: an evidence file is an object with 'checked' and a record per package ({', '.join(PACKAGES)})"
        )
    problems = [
        f"{shown_path(path)}:{line_of(text, where)}: {' '.join(str(w) for w in where[:2])}: {problem}"
        for where, problem in _record_problems(evidence)
    ]
    if problems:
        more = f"\n… and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise EvidenceError("\n".join(problems[:20]) + more)
    return evidence


def _record_problems(evidence: dict):
    """(path, problem) for every release record that is not an object and every malformed `dists` entry."""
    for package in PACKAGES:
        for version, record in evidence[package].items():
            if not isinstance(record, dict):
                yield (package, version), "a release record is an object"
                continue
            dists = record.get("dists", [])
            if not isinstance(dists, list):
                yield (package, version, "dists"), "'dists' is a list of file groups"
                continue
            for index, group in enumerate(dists):
                found = group_problem(group)
                if found:
                    key, problem = found
                    yield (package, version, "dists", index) + ((key,) if key else ()), problem


def evidence_of(docs_dir) -> dict | None:
    """The committed evidence of a docs folder (docs/.pypi-evidence.json), or None where there is none. The build's
    hooks all read it through here; validate_releases turns an EvidenceError into a file:line build error."""
    path = Path(docs_dir) / EVIDENCE_FILE
    return load_evidence(path) if path.is_file() else None
