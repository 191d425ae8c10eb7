"""Validate built pages with the Nu HTML checker (vnu.jar from npm `vnu-jar`, run on the machine's Java).

    python -m scripts.checks.nu_html SITE_DIR [--vnu node_modules/vnu-jar/build/dist/vnu.jar]

Prints `page:line: message` for every error that is not in ALLOWLIST and exits 1 if there is any. Errors
in markup Material itself writes, which we keep on purpose, are allowlisted below with the reason; an
allowlist entry that no longer matches anything is reported too, so the list cannot rot.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VNU_JAR = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


@dataclass(frozen=True)
class Allowed:
    message: str  # regex on the checker's message
    extract: str  # regex on the markup it quotes
    reason: str


ALLOWLIST = (
    Allowed(
        message=r"Attribute “autocomplete” is only allowed when the input type is",
        extract=r'<input class="md-toggle" data-md-toggle="(drawer|search)" type="checkbox" id="__(drawer|search)" autocomplete="off">',
        reason="Material's base.html: the drawer and search toggles are checkboxes; autocomplete=off stops Firefox "
        "from restoring them open after a reload. Invalid but deliberate, and harmless.",
    ),
)


@dataclass(frozen=True)
class Problem:
    page: str
    line: int
    message: str
    extract: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.message}"


class CheckerUnavailable(RuntimeError):
    pass


def html_files(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "downloads" not in p.relative_to(site).parts)


def run_vnu(files: list[Path], vnu_jar: Path = VNU_JAR) -> list[dict]:
    """The checker's messages (errors and warnings) for `files`, in one JVM run."""
    java = shutil.which("java")
    if java is None:
        raise CheckerUnavailable(
            "java is not installed (the Nu HTML checker needs Java 11+; apt-get install -y default-jre-headless)"
        )
    if not vnu_jar.is_file():
        raise CheckerUnavailable(f"{vnu_jar} is missing: run `npm ci` in the project root")
    result = subprocess.run(
        [java, "-Xss4m", "-jar", str(vnu_jar), "--format", "json", "--exit-zero-always", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if not result.stderr.strip().startswith("{"):
        raise CheckerUnavailable(f"the checker did not report JSON: {result.stderr[:500]}")
    return json.loads(result.stderr)["messages"]


def errors_of(messages: list[dict], site: Path) -> list[Problem]:
    problems = []
    for message in messages:
        if message.get("type") != "error" and message.get("subType") != "fatal":
            continue
        url = message.get("url", "")
        page = url.removeprefix("file:")
        try:
            page = Path(page).resolve().relative_to(site.resolve()).as_posix()
        except ValueError:
            pass
        problems.append(
            Problem(page, message.get("lastLine", 0), message.get("message", ""), message.get("extract", ""))
        )
    return problems


def split_allowed(problems: list[Problem]) -> tuple[list[Problem], set[Allowed]]:
    """(problems no allowlist entry covers, allowlist entries that covered something)."""
    remaining, used = [], set()
    for problem in problems:
        entry = next(
            (a for a in ALLOWLIST if re.search(a.message, problem.message) and re.search(a.extract, problem.extract)),
            None,
        )
        if entry is None:
            remaining.append(problem)
        else:
            used.add(entry)
    return remaining, used


def check_site(site: Path, vnu_jar: Path = VNU_JAR) -> tuple[list[Problem], set[Allowed], int]:
    files = html_files(site)
    remaining, used = split_allowed(errors_of(run_vnu(files, vnu_jar), site))
    return remaining, used, len(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.checks.nu_html", description=__doc__.split("\n\n")[0])
    parser.add_argument("site_dir", type=Path)
    parser.add_argument("--vnu", type=Path, default=VNU_JAR, help="path to vnu.jar (default: from npm ci)")
    args = parser.parse_args(argv)
    try:
        remaining, used, count = check_site(args.site_dir, args.vnu)
    except CheckerUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for problem in remaining:
        print(problem)
    for entry in set(ALLOWLIST) - used:
        print(f"allowlist entry matched nothing (remove it): {entry.message}")
    print(f"{count} pages checked, {len(remaining)} errors, {len(used)} allowlisted kinds", file=sys.stderr)
    return 1 if remaining or set(ALLOWLIST) - used else 0


if __name__ == "__main__":
    sys.exit(main())
