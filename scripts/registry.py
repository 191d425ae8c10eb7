"""What PyPI itself says about torch, torchvision and torchaudio: the registry evidence of the catalog.

    python -m scripts.verify_compat --fetch     asks PyPI once and writes docs/.pypi-evidence.json (dated)

This module asks (network, only when told to) and reads the committed answer (offline, what the build and the
tests use). It is the bottom layer of the compatibility facts: PyPI's wheel files decide what `pip install`
can install from PyPI, per platform; the PyTorch wheel index's variants (cpu, cuXYZ, rocmX.Y) are known only
from the sources that document them (scripts/compat.py).

What is asked, per release of each package:
- its wheel files: CPython tag (`cp38`, `cp313t` …) and platform, from each file name, grouped per platform, so
  a single aarch64 wheel never makes a Python version look supported everywhere;
- yanked files (kept, marked: a yanked release still installs when pinned exactly, with a warning);
- the first upload day;
- torch: the CUDA build of each platform's wheel, from the wheel's own `torch/version.py` (`cuda = '12.8'`,
  None for a CPU build), read without downloading the wheel (HTTP range requests on the zip's directory);
- torchvision / torchaudio: their `Requires-Dist` lines on torch, read the same way from their METADATA.
"""

from __future__ import annotations

import concurrent.futures
import io
import json
import re
import urllib.request
import zipfile
from pathlib import Path

EVIDENCE_FILE = ".pypi-evidence.json"  # inside docs_dir: committed with the docs, never published (dot file)
REGISTRY = "https://pypi.org"
PACKAGES = ("torch", "torchvision", "torchaudio")
PLATFORMS = ("linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows")
MAIN_PLATFORM = "linux-x86_64"  # the platform of the release pipeline's first wheels, and of most readers' servers
WHEEL_RE = re.compile(
    r"^(?P<name>[^-]+)-(?P<version>[^-]+)(-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl$"
)
RELEASE_RE = re.compile(r"^\d+\.\d+\.\d+$")
TORCH_REQUIREMENT_RE = re.compile(r"^torch(?![\w-])")
PIN_RE = re.compile(r"^torch\s*\(?\s*==\s*([0-9][0-9.]*?)(?:\.\*)?\s*\)?\s*(;.*)?$")
FLOOR_RE = re.compile(r"^torch\s*\(?\s*>=\s*([0-9][0-9.]*)")
VERSION_PY_CUDA_RE = re.compile(r"^cuda\s*(?::\s*Optional\[str\])?\s*=\s*(?:'([^']*)'|\"([^\"]*)\"|None)", re.M)


# --- asking PyPI ------------------------------------------------------------------------------------------
# The simple index (PEP 691 JSON) lists every file with its upload time and yanked flag. A wheel's METADATA or
# torch/version.py is read without downloading the wheel: zipfile reads the central directory and that one
# member through HTTP range requests (the per-release JSON API is not reachable from here).


def _respond(url: str, headers: dict | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, headers={"User-Agent": "pytorch-release-timeline registry", **(headers or {})}
    )
    with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 - fixed https registry URLs
        return response.status, response.read()


def simple_index(name: str, registry: str = REGISTRY) -> list[dict]:
    _, data = _respond(f"{registry}/simple/{name}/", {"Accept": "application/vnd.pypi.simple.v1+json"})
    return json.loads(data)["files"]


class RangeFile(io.RawIOBase):
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


def wheel_members(url: str, size: int, wanted) -> dict[str, str]:
    """The text of the members of a remote wheel whose names `wanted(name)` accepts."""
    with zipfile.ZipFile(RangeFile(url, size)) as wheel:
        return {n: wheel.read(n).decode("utf-8", "replace") for n in wheel.namelist() if wanted(n)}


def requires_of(metadata: str) -> list[str]:
    return [line.split(":", 1)[1].strip() for line in metadata.split("\n") if line.startswith("Requires-Dist:")]


def wheel_requires(url: str, size: int) -> list[str]:
    """Requires-Dist of a remote wheel."""
    members = wheel_members(url, size, lambda n: n.endswith(".dist-info/METADATA") and n.count("/") == 1)
    return requires_of(next(iter(members.values()), ""))


def cuda_of_version_py(text: str) -> str | None:
    """`cuda = '12.8'` in torch/version.py -> "12.8"; a CPU build (`cuda = None`) -> None."""
    match = VERSION_PY_CUDA_RE.search(text)
    value = (match.group(1) or match.group(2) or None) if match else None
    return ".".join(value.split(".")[:2]) if value else None  # 1.0 wrote '9.0.176': the toolkit's major.minor


def wheel_cuda(url: str, size: int) -> str | None:
    members = wheel_members(url, size, lambda n: n == "torch/version.py")
    return cuda_of_version_py(members.get("torch/version.py", ""))


# --- reading wheel file names ------------------------------------------------------------------------------


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
    if tag == "any":
        return "any"
    return tag


def pythons_of(filename: str) -> list[str]:
    """The CPython versions a wheel installs on: one for `cp312`, "py3" for a `py3-none` wheel (any Python 3),
    "py2"/"py3" for a `py2.py3` one."""
    match = WHEEL_RE.match(filename)
    one = python_of(match.group("abi"), match.group("py"))
    if one:
        return [one]
    if match.group("abi") == "none" or match.group("abi") == "abi3":
        return [p for p in match.group("py").split(".") if p in ("py2", "py3")]
    return []


def by_release(files: list[dict]) -> dict[str, list[dict]]:
    """Wheel files grouped by release version (final releases only: no pre-releases, no post/local),
    yanked files included (each file carries its flag)."""
    grouped: dict[str, list[dict]] = {}
    for f in files:
        match = WHEEL_RE.match(f.get("filename", ""))
        if match and RELEASE_RE.match(match.group("version")):
            grouped.setdefault(match.group("version"), []).append(f)
    return grouped


def python_key(version: str) -> tuple:
    if version in ("py2", "py3"):
        return (int(version[2]), 99, False)
    major, minor = version.rstrip("t").split(".")
    return int(major), int(minor), version.endswith("t")


def version_key(version: str) -> tuple:
    return tuple(int(x) if x.isdigit() else 0 for x in re.split(r"[.+]", version))


def release_record(files: list[dict]) -> dict:
    """Per platform, the Python versions of one release's wheels; the union; yanked flags; first upload day.
    A release whose every file is yanked is `yanked`; its facts are still recorded (pip installs it when pinned
    exactly, with a warning)."""
    live = [f for f in files if not f.get("yanked")]
    counted = live or files
    wheels: dict[str, set[str]] = {}
    for f in counted:
        platform = platform_of(WHEEL_RE.match(f["filename"]).group("platform").split(".")[0])
        wheels.setdefault(platform, set()).update(pythons_of(f["filename"]))
    uploads = sorted(f["upload-time"][:10] for f in files if f.get("upload-time"))
    record = {
        "python": sorted(set().union(*wheels.values()) if wheels else set(), key=python_key),
        "platforms": sorted(wheels),
        "wheels": {p: sorted(v, key=python_key) for p, v in sorted(wheels.items())},
        "uploaded": uploads[0] if uploads else None,
        "files": len(counted),
        "yanked": not live,
    }
    reasons = sorted({f["yanked"] for f in files if isinstance(f.get("yanked"), str) and f["yanked"]})
    if record["yanked"] and reasons:
        record["yanked_reason"] = reasons[0]
    yanked_files = sorted(f["filename"] for f in files if f.get("yanked"))
    if live and yanked_files:
        record["yanked_files"] = yanked_files
    return record


def _one_wheel_per_platform(files: list[dict]) -> dict[str, dict]:
    """The smallest live wheel of each platform (range reads cost the same; small is kind to the host)."""
    chosen: dict[str, dict] = {}
    for f in files:
        if f.get("yanked") and any(not g.get("yanked") for g in files):
            continue
        platform = platform_of(WHEEL_RE.match(f["filename"]).group("platform").split(".")[0])
        if platform not in chosen or (f.get("size") or 0) < (chosen[platform].get("size") or 0):
            chosen[platform] = f
    return chosen


def torch_requirements(requires: list[str]) -> list[str]:
    """The Requires-Dist lines on torch itself (not torch-something), spaces and parentheses normalised."""
    out = []
    for requirement in requires:
        compact = requirement.replace("(", "").replace(")", "")
        compact = re.sub(r"\s*([=<>!~]=?|;)\s*", r"\1", compact).replace(";", "; ")
        if TORCH_REQUIREMENT_RE.match(compact) and not compact.startswith("torch-"):
            out.append(compact.strip())
    return out


def library_record(files: list[dict], requires: list[str]) -> dict:
    record = release_record(files)
    on_torch = torch_requirements(requires)
    unconditional = [r for r in on_torch if ";" not in r] or on_torch
    pin = next((m.group(1) for m in (PIN_RE.match(r.replace(" ", "")) for r in unconditional) if m), None)
    floor = next((m.group(1) for m in (FLOOR_RE.match(r.replace(" ", "")) for r in unconditional) if m), None)
    record.update({"requires": on_torch, "requires_torch": pin, "requires_torch_at_least": floor if not pin else None})
    return record


def fetch_evidence(today, log=print, registry: str = REGISTRY, workers: int = 8) -> dict:
    """Ask the registry once (network) and return the evidence, dated `today`."""
    evidence: dict = {
        "checked": today.isoformat(),
        "registry": registry,
        "how": "PyPI simple index (PEP 691): each release's wheels per platform (CPython tag and platform from the file "
        "name), yanked flags and first upload day; torch's CUDA build per platform from each platform's wheel's "
        "torch/version.py; the Requires-Dist on torch of every torchvision and torchaudio release, from its "
        "Linux x86_64 wheel's METADATA (another platform's where there is none)",
    }
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        torch = by_release(simple_index("torch", registry))
        records = {v: release_record(torch[v]) for v in sorted(torch, key=version_key)}
        jobs = {
            (v, p): pool.submit(wheel_cuda, f["url"], f["size"])
            for v in torch
            for p, f in _one_wheel_per_platform(torch[v]).items()
        }
        for (version, platform), job in jobs.items():
            records[version].setdefault("cuda", {})[platform] = job.result()
        for record in records.values():
            record["cuda"] = dict(sorted(record.get("cuda", {}).items()))
        evidence["torch"] = records
        log(f"torch: {len(records)} releases")
        for name in ("torchvision", "torchaudio"):
            grouped = by_release(simple_index(name, registry))
            jobs = {}
            for version, files in grouped.items():
                wheels = _one_wheel_per_platform(files)
                # The Linux x86_64 wheel comes from the main release pipeline; some macOS/aarch64 wheels were
                # built apart and declare no pin, so they are only the fallback.
                wheel = wheels.get(MAIN_PLATFORM) or min(wheels.values(), key=lambda f: f.get("size") or 0)
                jobs[version] = pool.submit(wheel_requires, wheel["url"], wheel["size"])
            evidence[name] = {v: library_record(grouped[v], jobs[v].result()) for v in sorted(grouped, key=version_key)}
            log(f"{name}: {len(evidence[name])} releases")
    return evidence


def write_evidence(path: Path, evidence: dict) -> None:
    path.write_text(json.dumps(evidence, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


class EvidenceError(ValueError):
    """The evidence file does not parse or lacks what every reader of it needs; the message names file:line."""


def load_evidence(path: Path) -> dict:
    from scripts.catalog.frontmatter import shown_path

    path = Path(path)
    try:
        evidence = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise EvidenceError(
            f"{shown_path(path)}:{exc.lineno}: not valid JSON ({exc.msg}); refetch it with `python -m scripts.verify_compat --fetch`"
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
    return evidence


def evidence_of(docs_dir) -> dict | None:
    """The committed evidence of a docs folder (docs/.pypi-evidence.json), or None where there is none. The build's
    hooks all read it through here; validate_releases turns an EvidenceError into a file:line build error."""
    path = Path(docs_dir) / EVIDENCE_FILE
    return load_evidence(path) if path.is_file() else None
