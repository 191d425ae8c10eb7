"""Check the catalog's compatibility facts against the registry itself, not only against tables.

    python -m scripts.verify_compat --fetch     ask PyPI once, write docs/.pypi-evidence.json (dated)
    python -m scripts.verify_compat             compare the catalog with that file, offline (tests do this)

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
import io
import json
import re
import sys
import urllib.request
import zipfile
from pathlib import Path

from scripts.frontmatter import Problem

EVIDENCE_FILE = ".pypi-evidence.json"  # inside docs_dir: committed with the docs, never published (dot file)
REGISTRY = "https://pypi.org"
PACKAGES = ("torch", "torchvision", "torchaudio")
WHEEL_RE = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)(-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl$")
PIN_RE = re.compile(r"^torch\s*\(?\s*==\s*([0-9][0-9.]*?)(?:\.\*)?\s*\)?\s*(;.*)?$")
RELEASE_RE = re.compile(r"^\d+\.\d+\.\d+$")


# --- asking PyPI ------------------------------------------------------------------------------------------
# The simple index (PEP 691 JSON) lists every file with its upload time. A wheel's Requires-Dist is read from
# its METADATA without downloading the wheel: zipfile reads the central directory and that one member through
# HTTP range requests (PyPI's file host supports them; the per-release JSON API is not reachable here).


def _request(url: str, headers: dict | None = None) -> bytes:
    return _respond(url, headers)[1]


def _respond(url: str, headers: dict | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"User-Agent": "pytorch-release-timeline verify_compat", **(headers or {})})
    with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 - fixed https registry URLs
        return response.status, response.read()


def simple_index(name: str, registry: str = REGISTRY) -> list[dict]:
    data = _request(f"{registry}/simple/{name}/", {"Accept": "application/vnd.pypi.simple.v1+json"})
    return json.loads(data)["files"]


class _RangeFile(io.RawIOBase):
    """A read-only, seekable view of a remote file that fetches only the byte ranges it is asked for."""

    BLOCK = 1 << 16

    def __init__(self, url: str, size: int):
        self.url, self.size, self.pos = url, size, 0
        self.cache: dict[int, bytes] = {}

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        self.pos = {io.SEEK_SET: offset, io.SEEK_CUR: self.pos + offset, io.SEEK_END: self.size + offset}[whence]
        return self.pos

    def tell(self):
        return self.pos

    def _block(self, index: int) -> bytes:
        if index not in self.cache:
            start = index * self.BLOCK
            end = min(self.size, start + self.BLOCK) - 1
            status, data = _respond(self.url, {"Range": f"bytes={start}-{end}"})
            if status == 200:  # a server that ignores Range sends the whole file: keep it, as blocks
                for n in range(0, max(1, -(-len(data) // self.BLOCK))):
                    self.cache[n] = data[n * self.BLOCK : (n + 1) * self.BLOCK]
            else:
                self.cache[index] = data
        return self.cache[index]

    def read(self, n=-1):
        if n is None or n < 0:
            n = self.size - self.pos
        n = max(0, min(n, self.size - self.pos))
        out = bytearray()
        while len(out) < n:
            index, offset = divmod(self.pos + len(out), self.BLOCK)
            out += self._block(index)[offset : offset + n - len(out)]
        self.pos += len(out)
        return bytes(out)

    def readinto(self, buffer):
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def wheel_requires(url: str, size: int) -> list[str]:
    """Requires-Dist of a remote wheel, read through range requests."""
    with zipfile.ZipFile(_RangeFile(url, size)) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(name).decode("utf-8", "replace")
    return [line.split(":", 1)[1].strip() for line in metadata.split("\n") if line.startswith("Requires-Dist:")]


def python_of(abi: str, py: str) -> str | None:
    """`cp313t` -> "3.13t", `cp38` -> "3.8"; None for tags that are not one CPython version."""
    for tag in (abi, py):
        match = re.match(r"^cp(\d)(\d+)(t?)$", tag)
        if match:
            return f"{match.group(1)}.{match.group(2)}{match.group(3)}"
    return None


def platform_of(tag: str) -> str:
    if tag.startswith("manylinux") or tag.startswith("linux"):
        return "linux-aarch64" if "aarch64" in tag else "linux-x86_64"
    if tag.startswith("macosx"):
        return "macos-arm64" if "arm64" in tag else "macos-x86_64"
    if tag.startswith("win"):
        return "windows"
    return tag


def by_release(files: list[dict]) -> dict[str, list[dict]]:
    """Wheel files grouped by release version (final releases only: no pre-releases, no post/local)."""
    grouped: dict[str, list[dict]] = {}
    for f in files:
        match = WHEEL_RE.match(f.get("filename", ""))
        if match and RELEASE_RE.match(match.group("version")) and not f.get("yanked"):
            grouped.setdefault(match.group("version"), []).append(f)
    return grouped


def release_record(files: list[dict]) -> dict:
    """Python versions, platforms and first upload day of one release's wheels."""
    pythons, platforms = set(), set()
    for f in files:
        match = WHEEL_RE.match(f["filename"])
        python = python_of(match.group("abi"), match.group("py"))
        if python:
            pythons.add(python)
        elif match.group("py") == "py3" and match.group("abi") == "none":
            pythons.add("py3")  # one wheel for every Python 3 (torchvision 0.29.2 is built on torch's stable ABI)
        platforms.add(platform_of(match.group("platform").split(".")[0]))
    uploads = sorted(f["upload-time"][:10] for f in files if f.get("upload-time"))
    return {
        "python": sorted(pythons, key=_python_key),
        "platforms": sorted(platforms),
        "uploaded": uploads[0] if uploads else None,
        "files": len(files),
    }


def _python_key(version: str) -> tuple:
    if version == "py3":
        return (99, 0, False)
    major, minor = version.rstrip("t").split(".")
    return int(major), int(minor), version.endswith("t")


def _version_key(version: str) -> tuple:
    return tuple(int(x) if x.isdigit() else 0 for x in re.split(r"[.+]", version))


def fetch_evidence(today: dt.date, log=print, registry: str = REGISTRY) -> dict:
    evidence: dict = {
        "checked": today.isoformat(),
        "registry": registry,
        "how": "PyPI simple index (PEP 691): each release's wheels (CPython tag and platform from the file name, first upload day); "
        "Requires-Dist of every torchvision and torchaudio release, read from one wheel's METADATA",
    }
    torch = by_release(simple_index("torch", registry))
    evidence["torch"] = {v: release_record(torch[v]) for v in sorted(torch, key=_version_key)}
    log(f"torch: {len(torch)} releases")
    for name in ("torchvision", "torchaudio"):
        grouped = by_release(simple_index(name, registry))
        records = {}
        for version in sorted(grouped, key=_version_key):
            # The Linux x86_64 wheel comes from the main release pipeline; some macOS/aarch64 wheels were built
            # apart and declare no pin, so they are only the fallback.
            main = [f for f in grouped[version] if "linux" in f["filename"] and "x86_64" in f["filename"]]
            wheel = min(main or grouped[version], key=lambda f: f.get("size") or 0)
            requires = wheel_requires(wheel["url"], wheel["size"])
            compact = [r.replace(" ", "").replace("(", "").replace(")", "") for r in requires]
            pins = [m.group(1) for m in (PIN_RE.match(r) for r in compact) if m]
            floor = [r for r in compact if r.startswith("torch>=")]
            record = release_record(grouped[version])
            records[version] = {
                "requires_torch": pins[0] if pins else None,
                "requires_torch_at_least": floor[0][len("torch>="):].split(",")[0].split(";")[0] if floor and not pins else None,
                "uploaded": record["uploaded"],
                "python": record["python"],
            }
        evidence[name] = records
        log(f"{name}: {len(records)} releases")
    return evidence


def write_evidence(path: Path, evidence: dict) -> None:
    path.write_text(json.dumps(evidence, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def load_evidence(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


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
                    problems.append(Problem(page.path, line, f"torch {patch} is not on PyPI: list it under compat.not_on_pypi (with a note) or remove it"))
            for patch in absent & set(on_pypi):
                problems.append(Problem(page.path, line, f"compat.not_on_pypi lists {patch}, but PyPI has it"))
        if compat is None:
            continue
        for patch in release.patches:
            record = torch.get(patch)
            if not record or not record["files"] or not compat.claims("python"):
                continue
            registry = record["python"]
            listed = compat.versions("python", patch=patch)
            if set(listed) == set(registry):
                continue
            if any(set(c.values + c.experimental) == set(registry) for c in _claims_with_pypi(compat, "python", patch)):
                continue
            claim = compat.primary("python")[0]
            problems.append(
                Problem(page.path, claim.line, f"PyPI has torch {patch} wheels for Python {', '.join(registry)}; the catalog says {', '.join(listed)}: "
                        f"add a python claim with sources [PyPI] and those versions (shown beside the table), or fix the value")
            )
        for library in ("torchvision", "torchaudio"):
            problems.extend(_pairing_problems(release, library, evidence.get(library, {})))
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
                Problem(release.facts.path, claim.line, f"{library} {version} declares torch=={pin} on PyPI, but the catalog pairs it with torch {', '.join(sorted(claim.torch))}")
            )
    for version, record in records.items():
        pin = record.get("requires_torch")
        if pin in release.patches and pin not in paired.get(version, set()):
            line = claims[0].line if claims else release.facts.lines.get("compat", 1)
            problems.append(Problem(release.facts.path, line, f"{library} {version} declares torch=={pin} on PyPI: add that pairing"))
    return problems


def pending_release(catalog, evidence: dict) -> tuple[str, str | None] | None:
    """(version, first upload day) of the newest torch minor release on PyPI that has no page yet."""
    newest = max((r.version for r in catalog.releases), key=_version_key, default="0.0")
    later = [v for v, r in evidence.get("torch", {}).items() if r["files"] and v.endswith(".0") and _version_key(v)[:2] > _version_key(newest)[:2]]
    if not later:
        return None
    version = max(later, key=_version_key)
    return version, evidence["torch"][version]["uploaded"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.verify_compat", description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs-dir", default="docs", type=Path, help="the MkDocs docs_dir (default: docs)")
    parser.add_argument("--fetch", action="store_true", help=f"ask PyPI (network) and rewrite DOCS_DIR/{EVIDENCE_FILE}, dated today")
    args = parser.parse_args(argv)
    from scripts.releases import ReleaseDataError, load_catalog

    path = args.docs_dir / EVIDENCE_FILE
    if args.fetch:
        evidence = fetch_evidence(dt.date.today())
        write_evidence(path, evidence)
        print(f"wrote {path}: {len(evidence['torch'])} torch, {len(evidence['torchvision'])} torchvision, {len(evidence['torchaudio'])} torchaudio releases (checked {evidence['checked']})")
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
