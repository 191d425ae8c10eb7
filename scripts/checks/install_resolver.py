"""Every plain PyPI `pip install` command of the built site, resolved by pip's own resolver, offline, on every platform
and Python version the site offers it for.

    python -m scripts.checks.install_resolver SITE_DIR [--docs-dir docs] [--workers 2]

What is resolved: every element of a built page that carries `data-command` (each release's verdict and every
per-platform line of its install picker, both languages; scripts/views/release/platform_lines.py writes them): for
each Python version of its `data-python`, `pip install --dry-run --no-index --only-binary=:all:` with `--platform`
the tags of a machine at the glibc or macOS the page states for that version (`data-os`; every manylinux tag up to
that glibc, the macOS version pip expands itself, or win_amd64), `--python-version` the lowest patch release the page
allows (a Requires-Python may refuse 3.6.0), `--implementation cp --abi cpXY` (`cpXYt` for a free-threaded build).
Each patch release the page says is refused (`data-refused`, e.g. 3.14.1 for torchvision 0.29.x) must not resolve.

pip cannot ask PyPI here (tests stay offline), so it reads stand-in wheels made from the registry evidence
(docs/.pypi-evidence.json): one empty wheel per file PyPI has, with the file's own name (Python/ABI tag, platform
tag, build tag) and a METADATA holding the release's `Requires-Dist` on torch and the file's `Requires-Python`
(yanked files left out where the release has others, as pip leaves them). Each release's stand-ins lie in a folder
of their own and a command's job reads only the folders of the releases it pins: every requirement is `==`, so pip
would look at nothing else.

Speed: pip starts once per worker (scripts/checks/pip_fork.py) and forks for each job; the workers share the jobs.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from scripts.registry.dists import dists_of
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.registry.tags import first_patch, parse_version, pip_platforms
from scripts.registry.wheels import PACKAGES

PIN_RE = re.compile(r"(torch|torchvision|torchaudio)==([0-9][0-9.]*)")
PLAIN_RE = re.compile(r"^pip install ((?:(?:torch|torchvision|torchaudio)==[0-9][0-9.]*\s*)+)$")


# --- stand-in wheels ----------------------------------------------------------------------------------------


def _write_wheel(path: Path, name: str, version: str, requires: list[str]) -> None:
    info = f"{name}-{version}.dist-info"
    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    metadata += [f"Requires-Dist: {r}" for r in requires]
    wheel = ["Wheel-Version: 1.0", "Generator: scripts.checks.install_resolver", "Root-Is-Purelib: false"]
    record = [f"{info}/METADATA,,", f"{info}/WHEEL,,", f"{info}/RECORD,,"]
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{info}/METADATA", "\n".join(metadata) + "\n")
        archive.writestr(f"{info}/WHEEL", "\n".join(wheel) + "\n")
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")


def release_page(root: Path, name: str, version: str) -> Path:
    """The page listing one release's stand-ins (what `--find-links` reads)."""
    return root / f"{name}-{version}" / "index.html"


def stand_in_wheels(evidence: dict, out_dir: Path, releases: set[tuple[str, str]] | None = None) -> int:
    """Write the stand-ins of every release (or of `releases`, (package, version) pairs) into
    out_dir/<package>-<version>/, named as PyPI names the files, and a page linking them with each file's
    `data-requires-python`, as PyPI's simple index gives it: pip checks that against the Python it stands for
    (`--python-version`), where a Requires-Python inside METADATA would be checked against the Python pip runs on.
    Returns the number of wheels written."""
    count = 0
    for name in PACKAGES:
        for version, record in evidence.get(name, {}).items():
            if releases is not None and (name, version) not in releases:
                continue
            dists = dists_of(record)
            live = [d for d in dists if not d.yanked] or list(dists)
            page = release_page(out_dir, name, version)
            page.parent.mkdir(parents=True, exist_ok=True)
            links = []
            for dist in live:
                build = f"-{dist.build}" if dist.build else ""
                requires = (
                    f' data-requires-python="{html.escape(dist.requires_python)}"' if dist.requires_python else ""
                )
                for pair in dist.pairs:
                    filename = f"{name}-{version}{build}-{pair}-{dist.platform}.whl"
                    _write_wheel(page.parent / filename, name, version, record.get("requires", []))
                    links.append(f'<a href="{html.escape(filename)}"{requires}>{html.escape(filename)}</a><br>')
                    count += 1
            page.write_text(
                "<!DOCTYPE html>\n<html><body>\n" + "\n".join(links) + "\n</body></html>\n", encoding="utf-8"
            )
    return count


# --- what the built site offers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """A command the site shows for one platform and Python version, with what the page says of it."""

    command: str
    platform: str
    python: str  # "3.12", "3.13t"
    floor: str | None  # the glibc/macOS the page states for it (None on Windows)
    refused: tuple[str, ...]  # patch releases the page says do not install
    page: str

    @property
    def pins(self) -> dict[str, str]:
        return dict(PIN_RE.findall(self.command))


class _Offers(HTMLParser):
    """Every element with data-command, on one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs):
        values = {k: v or "" for k, v in attrs}
        if "data-command" in values:
            self.found.append(values)


def offers_of(site: Path) -> list[Offer]:
    """What every built page offers (each once; the zh and en pages of a release offer the same)."""
    out: dict[tuple, Offer] = {}
    for page in sorted(site.rglob("*.html")):
        parser = _Offers()
        parser.feed(page.read_text(encoding="utf-8"))
        for values in parser.found:
            command = " ".join(values["data-command"].split())
            if not PLAIN_RE.match(command):
                raise ValueError(f"{page.relative_to(site)}: data-command is not a plain pip command: {command!r}")
            pythons, floors = values.get("data-python", "").split(), values.get("data-os", "").split()
            if len(pythons) != len(floors):
                raise ValueError(f"{page.relative_to(site)}: data-python and data-os of `{command}` differ in length")
            refused = tuple(values.get("data-refused", "").split())
            for python, floor in zip(pythons, floors, strict=True):
                mine = tuple(r for r in refused if r.rsplit(".", 1)[0] == python.rstrip("t"))
                key = (command, values["data-system"], python, floor, mine)
                shown = str(page.relative_to(site))
                out.setdefault(key, Offer(command, key[1], python, None if floor == "-" else floor, mine, shown))
    return list(out.values())


# --- resolving ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    offer: Offer
    python_version: str  # what pip is told: "3.12.0", "3.14.1"
    expect: bool  # resolves (the offer) or not (a refused patch release)


@dataclass(frozen=True)
class Result:
    job: Job
    ok: bool  # pip did what the page says
    why: str


def jobs_of(offers: list[Offer]) -> list[Job]:
    jobs = []
    for offer in offers:
        minor = offer.python.rstrip("t")
        refused = tuple(int(r.rsplit(".", 1)[1]) for r in offer.refused)
        jobs.append(Job(offer, f"{minor}.{first_patch(refused)}", True))
        jobs += [Job(offer, r, False) for r in offer.refused]
    return jobs


def abis_of(python: str) -> list[str]:
    """The ABI tags of a CPython: cp313t for a free-threaded build; cp37m beside cp37 before 3.8 (pymalloc builds
    were tagged m); cp27mu and cp27m for Python 2.7."""
    major, minor = python.rstrip("t").split(".")
    digits = f"{major}{minor}"
    if python.endswith("t"):
        return [f"cp{digits}t"]
    if major == "2":
        return [f"cp{digits}mu", f"cp{digits}m"]
    return [f"cp{digits}m", f"cp{digits}"] if int(minor) < 8 else [f"cp{digits}"]


def pip_argv(job: Job, wheels: Path) -> list[str]:
    """The `pip install` arguments of a job: offline, binary only, a machine at the page's floor."""
    offer = job.offer
    abis = [arg for abi in abis_of(offer.python) for arg in ("--abi", abi)]
    floor = parse_version(offer.floor) if offer.floor else None
    platforms = [arg for tag in pip_platforms(offer.platform, floor) for arg in ("--platform", tag)]
    links = [
        arg
        for name, version in offer.pins.items()
        for arg in ("--find-links", str(release_page(wheels, name, version)))
    ]
    return [
        "install", "--dry-run", "--no-index", *links, "--only-binary=:all:", *platforms,
        "--python-version", job.python_version, "--implementation", "cp", *abis,
        "--target", str(wheels / "target"), "--no-cache-dir", "--disable-pip-version-check", "--quiet",
        *[f"{name}=={version}" for name, version in offer.pins.items()],
    ]  # fmt: skip


def bare_pip_env() -> dict[str, str]:
    """The environment without any pip configuration: a machine's find-links, extra indexes or constraint files
    (this project's machines constrain torch<=2.14.1) must not decide what "PyPI" can resolve.
    PIP_CONFIG_FILE=os.devnull makes pip skip every configuration file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    # pip's user agent runs `rustc --version` when rustc is on PATH: a process per job, for a string never sent.
    env["PATH"] = os.defpath
    return env


def _worker(argvs: list[tuple[int, list[str]]], answers: dict[int, tuple[int, str]]) -> None:
    """One pip_fork process resolving `argvs` in turn; its answers go into `answers` by job id."""
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        [sys.executable, "-m", "scripts.checks.pip_fork"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=root,
        env=bare_pip_env(),
        text=True,
    )
    feed = "".join(json.dumps({"id": i, "argv": argv}) + "\n" for i, argv in argvs)
    out, _ = process.communicate(feed, timeout=60 + 30 * len(argvs))
    for line in out.splitlines():
        answer = json.loads(line)
        answers[answer["id"]] = (answer["code"], answer["error"])


def resolve_all(jobs: list[Job], wheels: Path, workers: int = 2) -> list[Result]:
    """Every job through pip's resolver, `workers` pip processes at a time; jobs that ask pip the same thing (the
    same arguments: two pages' offers for one machine) are resolved once."""
    distinct: dict[tuple[str, ...], int] = {}
    asked = [distinct.setdefault(tuple(pip_argv(job, wheels)), len(distinct)) for job in jobs]
    argvs = [(i, list(argv)) for argv, i in distinct.items()]
    answers: dict[int, tuple[int, str]] = {}
    threads = [threading.Thread(target=_worker, args=(argvs[n::workers], answers)) for n in range(max(1, workers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results = []
    for job, i in zip(jobs, asked, strict=True):
        code, why = answers.get(i, (-1, "no answer from the pip worker"))
        resolved = code == 0
        results.append(Result(job, resolved is job.expect, why if not resolved else "resolved"))
    return results


def check_site(site: Path, evidence: dict, workers: int = 2) -> list[Result]:
    offers = offers_of(site)
    jobs = jobs_of(offers)
    pinned = {(name, version) for offer in offers for name, version in offer.pins.items()}
    with tempfile.TemporaryDirectory(prefix="stand-in-wheels-") as tmp:
        wheels = Path(tmp)
        stand_in_wheels(evidence, wheels, pinned)
        return resolve_all(jobs, wheels, workers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.checks.install_resolver", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("site", type=Path, help="a built site (mkdocs build --site-dir SITE)")
    parser.add_argument("--docs-dir", default="docs", type=Path, help=f"where {EVIDENCE_FILE} is (default: docs)")
    parser.add_argument("--workers", type=int, default=2, help="pip processes at a time (default: 2)")
    args = parser.parse_args(argv)
    evidence = load_evidence(args.docs_dir / EVIDENCE_FILE)
    started = time.monotonic()
    results = check_site(args.site, evidence, args.workers)
    failed = [r for r in results if not r.ok]
    for result in failed:
        job = result.job
        wanted = "resolve" if job.expect else "be refused"
        print(
            f"{job.offer.page}: `{job.offer.command}` on {job.offer.platform}, Python {job.python_version}"
            f" (glibc/macOS {job.offer.floor or '-'}) should {wanted}: {result.why}"
        )
    commands = {r.job.offer.command for r in results}
    print(
        f"{len(results) - len(failed)} passed, {len(failed)} failed ({len(commands)} commands, "
        f"{len(results)} resolutions, {time.monotonic() - started:.1f} s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
