"""The machine facts of docs/.hardware.yml as records: GPU architectures of each CUDA build by release range,
NVIDIA GPU generations, the oldest driver per CUDA version, cuDNN/NCCL, MPS's macOS floor, Intel GPU (XPU) wheels,
the end of the pytorch conda channel, and NVIDIA's binary-compatibility rule, each value with its sources and
evidence (a value that is not official names a caveat, words in both languages), and the lookups the verdicts use.
scripts/catalog/hardware/file.py reads and checks the file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

HARDWARE_FILE = ".hardware.yml"  # inside docs_dir: a dot file, never published
BUILD_RE = re.compile(r"^cu(\d{1,2})(\d)$")  # cu126: CUDA 12.6; cu92: 9.2; cu100: 10.0


def release_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def cuda_of_build(build: str) -> str:
    """`cu126` -> "12.6", `cu92` -> "9.2", `cu100` -> "10.0"."""
    match = BUILD_RE.match(build)
    if match is None:
        raise ValueError(f"not a CUDA build tag: {build}")
    return f"{match.group(1)}.{match.group(2)}"


@dataclass(frozen=True)
class Source:
    """A source of the file: its English `name`, its Chinese name `zh` (the reader requires both) and its url."""

    key: str
    name: str
    url: str
    zh: str = ""

    def names(self) -> dict[str, str]:
        """{language: name}: what a page in that language shows."""
        return {"zh": self.zh or self.name, "en": self.name}


@dataclass(frozen=True)
class Fact:
    """Where a value comes from: source keys, evidence (official, copy, derived) and a caveat id when not official."""

    sources: tuple[str, ...]
    evidence: str
    caveat: str | None
    line: int


@dataclass(frozen=True)
class Generation:
    name: str
    capabilities: tuple[str, ...]  # "8.6", or "5.x" for every 5.y
    fact: Fact

    def names(self, capability: str) -> bool:
        major = capability.split(".")[0]
        return capability in self.capabilities or f"{major}.x" in self.capabilities


@dataclass(frozen=True)
class ArchList:
    """The compute capabilities the builds `builds` of releases first..last carry on `platforms`."""

    first: str
    last: str
    builds: tuple[str, ...]
    platforms: tuple[str, ...]
    archs: tuple[str, ...]
    ptx: tuple[str, ...]
    fact: Fact

    def covers(self, release: str) -> bool:
        return release_key(self.first) <= release_key(release) <= release_key(self.last)


@dataclass(frozen=True)
class DriverMinimum:
    cuda: str  # "12.x" (a whole major version: minor version compatibility) or "10.2"
    linux: str
    windows: str
    fact: Fact

    def covers(self, cuda: str) -> bool:
        return self.cuda == cuda or self.cuda == cuda.split(".")[0] + ".x"


@dataclass(frozen=True)
class BuildLibraries:
    first: str
    last: str
    builds: tuple[str, ...]
    cudnn: str | None
    nccl: str | None
    fact: Fact

    def covers(self, release: str) -> bool:
        return release_key(self.first) <= release_key(release) <= release_key(self.last)


@dataclass(frozen=True)
class MpsFloor:
    since: str
    macos: str
    raised_later: bool  # a later release raised it before the next entry, at a release no source confirms
    fact: Fact


@dataclass(frozen=True)
class Xpu:
    since: str
    platforms: tuple[str, ...]
    index: str
    fact: Fact


@dataclass(frozen=True)
class CondaEnd:
    last: str
    channel: str
    fact: Fact


@dataclass(frozen=True)
class Hardware:
    """docs/.hardware.yml, read."""

    path: str
    sources: Mapping[str, Source]
    caveats: Mapping[str, Mapping[str, str]]  # id -> {language: words}
    generations: tuple[Generation, ...]
    binary_compatibility: Fact | None
    arch_lists: tuple[ArchList, ...]
    drivers: tuple[DriverMinimum, ...]
    libraries: tuple[BuildLibraries, ...]
    mps: tuple[MpsFloor, ...]  # oldest first
    xpu: Xpu | None
    conda: CondaEnd | None

    def arch_list(self, release: str, build: str, platform: str) -> ArchList | None:
        return next(
            (a for a in self.arch_lists if a.covers(release) and build in a.builds and platform in a.platforms), None
        )

    def driver(self, cuda: str) -> DriverMinimum | None:
        exact = next((d for d in self.drivers if d.cuda == cuda), None)
        return exact or next((d for d in self.drivers if d.covers(cuda)), None)

    def build_libraries(self, release: str, build: str) -> tuple[BuildLibraries | None, BuildLibraries | None]:
        """(the entry giving cuDNN, the entry giving NCCL) of a build of a release."""
        found = [e for e in self.libraries if e.covers(release) and build in e.builds]
        return next((e for e in found if e.cudnn), None), next((e for e in found if e.nccl), None)

    def mps_floor(self, release: str) -> MpsFloor | None:
        chosen = None
        for entry in self.mps:
            if release_key(entry.since) <= release_key(release):
                chosen = entry
        return chosen

    def generation(self, capability: str) -> Generation | None:
        return next((g for g in self.generations if g.names(capability)), None)
