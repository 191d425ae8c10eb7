"""Asking PyPI (network, only when told to): the simple index (PEP 691 JSON) of a package, and one member of a
remote wheel (METADATA, torch/version.py) read by HTTP range requests without downloading the wheel;
`fetch_evidence` puts it together into the registry evidence that scripts/registry/evidence.py reads.

    python -m scripts.checks.verify_compat --fetch     asks PyPI once and writes docs/.pypi-evidence.json (dated)

What is asked, per release of each package:
- its wheel files: CPython tag (`cp38`, `cp313t` …) and platform, from each file name, grouped per platform, so
  a single aarch64 wheel never makes a Python version look supported everywhere;
- yanked files (kept, marked: a yanked release still installs when pinned exactly, with a warning);
- what pip decides by (`dists`, scripts/registry/dists.py): each file's platform tag as written (compressed sets
  too), its Python/ABI tags, its build tag and its `requires-python` from the simple index, grouped;
- the first upload day;
- torch: the CUDA build of each platform's wheel, from the wheel's own `torch/version.py` (`cuda = '12.8'`,
  None for a CPU build), read without downloading the wheel (HTTP range requests on the zip's directory);
- torchvision / torchaudio: their `Requires-Dist` lines on torch, read the same way from their METADATA.
"""

from __future__ import annotations

import concurrent.futures
import io
import json
import urllib.request
import zipfile

from scripts.registry.dists import dist_groups
from scripts.registry.wheels import (
    MAIN_PLATFORM,
    by_release,
    cuda_of_version_py,
    library_record,
    release_record,
    requires_of,
    version_key,
    wheel_platform,
)

REGISTRY = "https://pypi.org"


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


def wheel_requires(url: str, size: int) -> list[str]:
    """Requires-Dist of a remote wheel."""
    members = wheel_members(url, size, lambda n: n.endswith(".dist-info/METADATA") and n.count("/") == 1)
    return requires_of(next(iter(members.values()), ""))


def wheel_cuda(url: str, size: int) -> str | None:
    members = wheel_members(url, size, lambda n: n == "torch/version.py")
    return cuda_of_version_py(members.get("torch/version.py", ""))


def _one_wheel_per_platform(files: list[dict]) -> dict[str, dict]:
    """The smallest live wheel of each platform (range reads cost the same; small is kind to the host)."""
    chosen: dict[str, dict] = {}
    for f in files:
        if f.get("yanked") and any(not g.get("yanked") for g in files):
            continue
        platform = wheel_platform(f["filename"])
        if platform not in chosen or (f.get("size") or 0) < (chosen[platform].get("size") or 0):
            chosen[platform] = f
    return chosen


def fetch_evidence(today, log=print, registry: str = REGISTRY, workers: int = 8) -> dict:
    """Ask the registry once (network) and return the evidence, dated `today`."""
    evidence: dict = {
        "checked": today.isoformat(),
        "registry": registry,
        "how": "PyPI simple index (PEP 691): each release's wheels per platform (CPython tag and platform from the file "
        "name), yanked flags and first upload day; under 'dists' what pip decides by, per group of files: the "
        "platform tag as written, the python-abi tags, the build tag and each file's requires-python; torch's CUDA "
        "build per platform from each platform's wheel's torch/version.py; the Requires-Dist on torch of every "
        "torchvision and torchaudio release, from its Linux x86_64 wheel's METADATA (another platform's where there "
        "is none)",
    }
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        torch = by_release(simple_index("torch", registry))
        records = {
            v: {**release_record(torch[v]), "dists": dist_groups(torch[v])} for v in sorted(torch, key=version_key)
        }
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
            library_jobs = {}
            for version, files in grouped.items():
                wheels = _one_wheel_per_platform(files)
                # The Linux x86_64 wheel comes from the main release pipeline; some macOS/aarch64 wheels were
                # built apart and declare no pin, so they are only the fallback.
                wheel = wheels.get(MAIN_PLATFORM) or min(wheels.values(), key=lambda f: f.get("size") or 0)
                library_jobs[version] = pool.submit(wheel_requires, wheel["url"], wheel["size"])
            evidence[name] = {
                v: {**library_record(grouped[v], library_jobs[v].result()), "dists": dist_groups(grouped[v])}
                for v in sorted(grouped, key=version_key)
            }
            log(f"{name}: {len(evidence[name])} releases")
    return evidence
