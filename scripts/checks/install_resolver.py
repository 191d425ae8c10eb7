"""Every plain PyPI `pip install` command of the built site, resolved by pip's own resolver, offline.

    python -m scripts.checks.install_resolver SITE_DIR [--docs-dir docs] [--platform linux-x86_64]

pip cannot ask PyPI here (tests stay offline), so it is given stand-in wheels made from the registry evidence
(docs/.pypi-evidence.json): one empty wheel per package, release, CPython version and platform that PyPI has, whose
METADATA carries the release's recorded `Requires-Dist` on torch. `pip install --dry-run --no-index --find-links` (with
`--target`, which pip asks for beside `--platform`; nothing is written) then decides, exactly as it would against PyPI, whether the pins of a command can be installed together on a given
Python and platform (torchvision 0.29.0 declares torch==2.14.0, so `torch==2.14.1 torchvision==0.29.0` fails).

Each command is resolved for the lowest and the highest Python version that the page's verdict states for it, so a
command and the Python line above it are checked together (the tests also hold that line to the evidence).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from scripts.catalog.compat import python_key
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.registry.wheels import PACKAGES
from scripts.verdicts.rules import command_pythons

PLATFORM_TAGS = {
    "linux-x86_64": "manylinux_2_28_x86_64",
    "linux-aarch64": "manylinux_2_28_aarch64",
    "macos-arm64": "macosx_11_0_arm64",
    "macos-x86_64": "macosx_10_9_x86_64",
    "windows": "win_amd64",
}
PLAIN_RE = re.compile(r"^pip install ((?:(?:torch|torchvision|torchaudio)==[0-9][0-9.]*\s*)+)$")
PIN_RE = re.compile(r"(torch|torchvision|torchaudio)==([0-9][0-9.]*)")


# --- stand-in wheels ----------------------------------------------------------------------------------------


def _wheel_name(name: str, version: str, python: str, platform: str) -> str:
    tag = "any" if platform == "any" else PLATFORM_TAGS[platform]
    if python in ("py2", "py3"):
        return f"{name}-{version}-{python}-none-{tag}.whl"
    digits = python.replace(".", "")
    return f"{name}-{version}-cp{digits}-cp{digits}-{tag}.whl"


def _write_wheel(path: Path, name: str, version: str, requires: list[str]) -> None:
    info = f"{name}-{version}.dist-info"
    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"] + [
        f"Requires-Dist: {r}" for r in requires
    ]
    wheel = ["Wheel-Version: 1.0", "Generator: scripts.checks.install_resolver", "Root-Is-Purelib: false"]
    record = [f"{info}/METADATA,,", f"{info}/WHEEL,,", f"{info}/RECORD,,"]
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{info}/METADATA", "\n".join(metadata) + "\n")
        archive.writestr(f"{info}/WHEEL", "\n".join(wheel) + "\n")
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")


def stand_in_wheels(evidence: dict, platform: str, out_dir: Path) -> int:
    """Write one stand-in wheel per (package, release, Python) that PyPI has for `platform` (or for any platform,
    for pure wheels). Free-threaded builds are left out: pip names them by ABI, which the check does not vary."""
    count = 0
    for name in PACKAGES:
        for version, record in evidence.get(name, {}).items():
            wheels = record.get("wheels", {})
            for where in (platform, "any"):
                for python in wheels.get(where, []):
                    if python.endswith("t"):
                        continue
                    _write_wheel(
                        out_dir / _wheel_name(name, version, python, where), name, version, record.get("requires", [])
                    )
                    count += 1
    return count


# --- the commands of the built site -------------------------------------------------------------------------


class _CodeText(HTMLParser):
    """The text of every <code> element of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth, self.parts, self.texts = 0, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "code":
            self.depth += 1
            self.parts = [] if self.depth == 1 else self.parts

    def handle_endtag(self, tag):
        if tag == "code" and self.depth:
            self.depth -= 1
            if not self.depth:
                self.texts.append("".join(self.parts))

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


# The verdict's command block and what the page says about it; its attributes in any order (Markdown's md_in_html
# writes them sorted).
VERDICT_RE = re.compile(r'<div class="install-verdict"([^>]*)>(.*?)</div>', re.S)


def _attribute(attributes: str, name: str) -> str | None:
    found = re.search(rf'(?:^|\s){name}="([^"]*)"', attributes)
    return found.group(1) if found else None


@dataclass(frozen=True)
class Command:
    text: str
    pages: tuple[str, ...]
    stated: tuple[str, ...] | None = None  # the Python versions the page says the command works on (its platform)

    @property
    def pins(self) -> dict[str, str]:
        return dict(PIN_RE.findall(self.text))


def _lines(texts: list[str]):
    for text in texts:
        for line in text.splitlines():
            line = " ".join(line.split())
            if PLAIN_RE.match(line):
                yield line


def plain_commands(site: Path, platform: str = "linux-x86_64") -> list[Command]:
    """Every plain PyPI command (no index URL, no local version tag) of every page, with the pages that show it
    and the Python versions the page's verdict states for it."""
    found: dict[str, list[str]] = {}
    stated: dict[str, set[tuple[str, ...]]] = {}
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        parser = _CodeText()
        parser.feed(html)
        for line in _lines(parser.texts):
            found.setdefault(line, []).append(str(page.relative_to(site)))
        for attributes, block in VERDICT_RE.findall(html):
            pythons, where = _attribute(attributes, "data-python"), _attribute(attributes, "data-platform")
            if pythons is None or where != platform:
                continue
            inner = _CodeText()
            inner.feed(block)
            for line in _lines(inner.texts):
                stated.setdefault(line, set()).add(tuple(pythons.split()))
    out = []
    for text, pages in sorted(found.items()):
        claims = stated.get(text, set())
        if len(claims) > 1:
            raise ValueError(f"{pages[0]}: pages state different Python versions for `{text}`: {sorted(claims)}")
        out.append(Command(text, tuple(pages), next(iter(claims)) if claims else None))
    return out


def pythons_for(command: Command, evidence: dict, platform: str) -> list[str]:
    """The lowest and highest regular CPython version to resolve for: of the page's stated versions, or, for a
    command no verdict states versions for, of those every pinned release has a wheel for."""
    versions = (
        list(command.stated) if command.stated is not None else list(command_pythons(evidence, command.pins, platform))
    )
    versions = sorted((v for v in versions if not v.endswith("t")), key=python_key)
    return sorted({versions[0], versions[-1]}, key=python_key) if versions else []


# --- resolving ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    command: Command
    python: str
    ok: bool
    why: str


def _bare_pip_env() -> dict[str, str]:
    """The environment without any pip configuration: a machine's find-links, extra indexes or constraint files
    (this project's machines constrain torch<=2.14.1) must not decide what "PyPI" can resolve.
    PIP_CONFIG_FILE=os.devnull makes pip skip every configuration file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    return env


def resolve(requirements: list[str], wheels: Path, python: str, platform: str) -> tuple[bool, str]:
    """pip's resolver, offline, on the stand-in wheels: (resolved, pip's last error line)."""
    digits = python.replace(".", "")
    argv = [
        sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "--find-links", str(wheels),
        "--only-binary=:all:", "--platform", PLATFORM_TAGS[platform], "--python-version", python,
        "--implementation", "cp", "--abi", f"cp{digits}", "--target", str(wheels / "target"), "--no-cache-dir",
        "--disable-pip-version-check", "--quiet", *requirements,
    ]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=_bare_pip_env())
    errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
    return done.returncode == 0, (errors[-1] if errors else done.stderr.strip()[-300:])


def check_site(site: Path, evidence: dict, platform: str = "linux-x86_64", workers: int = 2) -> list[Result]:
    commands = plain_commands(site)
    with tempfile.TemporaryDirectory(prefix="stand-in-wheels-") as tmp:
        wheels = Path(tmp)
        stand_in_wheels(evidence, platform, wheels)
        jobs: list[tuple[Command, str, concurrent.futures.Future[tuple[bool, str]] | None]] = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            for command in commands:
                pythons = pythons_for(command, evidence, platform)
                if not pythons:
                    jobs.append((command, "—", None))
                for python in pythons:
                    requirements = [f"{n}=={v}" for n, v in command.pins.items()]
                    jobs.append((command, python, pool.submit(resolve, requirements, wheels, python, platform)))
            results = []
            for command, python, job in jobs:
                if job is None:
                    results.append(Result(command, python, False, f"PyPI has no {platform} wheel of the pinned torch"))
                else:
                    ok, why = job.result()
                    results.append(Result(command, python, ok, why))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.checks.install_resolver", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("site", type=Path, help="a built site (mkdocs build --site-dir SITE)")
    parser.add_argument("--docs-dir", default="docs", type=Path, help=f"where {EVIDENCE_FILE} is (default: docs)")
    parser.add_argument("--platform", default="linux-x86_64", choices=sorted(PLATFORM_TAGS))
    args = parser.parse_args(argv)
    evidence = load_evidence(args.docs_dir / EVIDENCE_FILE)
    results = check_site(args.site, evidence, args.platform)
    failed = [r for r in results if not r.ok]
    for result in failed:
        print(f"{result.command.pages[0]}: `{result.command.text}` on Python {result.python}: {result.why}")
    commands = {r.command.text for r in results}
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed ({len(commands)} commands, {args.platform})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
