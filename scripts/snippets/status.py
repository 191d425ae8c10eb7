"""The status file `check` writes (docs/.snippet-status.json) and its staleness check.

One entry per code block, keyed by the block's stable id, with sorted keys and no timestamps so the
same pages and the same torch always give the same file:

    "releases/1.6#03": {"page": "releases/1.6.md", "line": 88, "lang": "pycon",
                        "status": "output-matched", "torch": "2.13.0", "deprecation": null,
                        "reason": null, "hash": "3f2a..."}

status is one of: output-matched (pycon ran, output as the page shows), ran (python ran), compiled
(cpp type-checked by g++ against libtorch), parsed (syntax checked only), not-run (reason says why),
raised (the `before` code of a change fails on today's torch, as `failure` says: recorded, not an error),
failed. Entries of a change's code carry `change: before|after`. The build reads it to draw the badge under each block (`badges`); `stale_problems` says
where it no longer matches the pages (a block's code hash changed, a block appeared or vanished).
"""

from __future__ import annotations

import json
from pathlib import Path

from scripts.snippets.model import Diagnostic, Page

__all__ = [
    "DEFAULT_STATUS_FILE",
    "SCHEMA",
    "STATUSES",
    "StatusFileError",
    "dump_status",
    "load_status",
    "stale_problems",
    "write_status",
]

SCHEMA = 1
DEFAULT_STATUS_FILE = ".snippet-status.json"  # inside docs_dir (MkDocs does not publish dot files)
STATUSES = ("output-matched", "ran", "compiled", "parsed", "not-run", "raised", "failed")


def dump_status(entries: dict[str, dict], torch_version: str | None) -> str:
    document = {"schema": SCHEMA, "torch": torch_version, "snippets": entries}
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_status(path: Path, entries: dict[str, dict], torch_version: str | None) -> bool:
    """Write the file; returns True when its content changed."""
    text = dump_status(entries, torch_version)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


class StatusFileError(ValueError):
    """The status file exists but is not a status file (truncated, hand-edited, merged badly)."""


def load_status(path: Path | str, strict: bool = False) -> dict:
    """The parsed status file; an empty one when it is missing. A file that exists but does not parse is
    empty too, unless `strict` (the build): then StatusFileError says where it broke, as path:line."""
    path = Path(path)
    empty: dict = {"schema": SCHEMA, "torch": None, "snippets": {}}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return empty
    except (OSError, UnicodeDecodeError) as exc:
        if strict:
            raise StatusFileError(f"{path}:1: cannot read the snippet status file: {exc}") from None
        return empty
    try:
        document = json.loads(text)
    except ValueError as exc:
        if strict:
            line = getattr(exc, "lineno", 1)
            raise StatusFileError(
                f"{path}:{line}: the snippet status file is not valid JSON ({exc.msg if hasattr(exc, 'msg') else exc}): run `python -m scripts.snippets check` to rewrite it"
            ) from None
        return empty
    if not isinstance(document, dict) or not isinstance(document.get("snippets"), dict):
        if strict:
            raise StatusFileError(
                f"{path}:1: the snippet status file has no 'snippets' mapping: run `python -m scripts.snippets check` to rewrite it"
            )
        return empty
    return document


def stale_problems(pages: list[Page], status: dict, status_path: str) -> list[Diagnostic]:
    """Where the status file no longer describes the pages (empty when it is up to date)."""
    entries = status.get("snippets", {})
    problems = []
    current = set()
    for page in pages:
        for snippet in page.snippets:
            current.add(snippet.id)
            entry = entries.get(snippet.id)
            if entry is None:
                message = f"{status_path} has no entry for this code block ({snippet.id})"
            elif entry.get("hash") != snippet.hash:
                message = f"this code block ({snippet.id}) changed since {status_path} was written"
            elif entry.get("status") == "failed":
                message = f"{status_path} records this code block ({snippet.id}) as failed"
            else:
                continue
            problems.append(
                Diagnostic(
                    page.shown,
                    snippet.fence_line,
                    1,
                    message + ": run `python -m scripts.snippets check` and commit the result",
                    "error",
                    snippet.id,
                    "status",
                )
            )
    for gone in sorted(set(entries) - current):
        problems.append(
            Diagnostic(
                status_path,
                1,
                1,
                f"lists {gone}, which is no longer on {entries[gone].get('page', '?')}: run `python -m scripts.snippets check`",
                "error",
                None,
                "status",
            )
        )
    return problems
