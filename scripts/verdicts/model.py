"""The verdict model: one frozen record per release (`ReleaseVerdict`) holding every answer the views print about
it, and `Verdicts`, the records of a whole catalog with the facts about the registry as a whole (the day it was
checked, a release PyPI has and the site has not). Built once per build by scripts/verdicts/compute.py from the
decisions of rules.py and install.py; the views read them and decide nothing themselves.

The platforms every verdict answers for are the registry's (PLATFORMS, MAIN_PLATFORM): named here so that views,
which never import the registry, read them from the verdicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scripts.registry.wheels import MAIN_PLATFORM, PLATFORMS

__all__ = [
    "MAIN_PLATFORM",
    "PLATFORMS",
    "PYPI",
    "INDEX",
    "INDEX_SYSTEMS",
    "MACOS",
    "ROCM_SYSTEMS",
    "CommandVerdict",
    "NoWheel",
    "Option",
    "Pending",
    "RegistryChange",
    "RegistryDelta",
    "Pin",
    "Pins",
    "PythonVerdict",
    "ReleaseVerdict",
    "Verdicts",
]

PYPI = "PyPI"
# Where the install commands' variants come from, and the systems the official page gives each kind of command.
INDEX = "https://download.pytorch.org/whl"
INDEX_SYSTEMS = ("linux-x86_64", "windows")  # the official page's "Linux and Windows" variants
ROCM_SYSTEMS = ("linux-x86_64",)
MACOS = ("macos-arm64", "macos-x86_64")


@dataclass(frozen=True)
class PythonVerdict:
    """Which Python versions a release supports: `versions` is the answer (PyPI's CPython wheels on Linux x86_64,
    or the tables' claim where PyPI has no wheels of the release); `per_platform` what PyPI has elsewhere."""

    versions: tuple[str, ...]
    source: str  # "PyPI", or the claim's source keys ("R", "P" …) where PyPI has no wheels
    per_platform: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Pin:
    """The torchvision/torchaudio version a plain `pip install` pins beside torch."""

    version: str
    yanked: bool = False
    yanked_reason: str | None = None
    claimed: str | None = None  # the sources' pairing, where the verdict differs from it
    why: str | None = None  # "rejects" (its Requires-Dist refuses the torch patch) or "yanked"


@dataclass(frozen=True)
class Pins:
    """What the install commands pin: the torch patch, the libraries of the plain pip command, conda's pairings."""

    patch: str
    vision: Pin | None
    audio: Pin | None
    conda_vision: str | None
    conda_audio: str | None

    def as_dict(self) -> dict[str, str]:
        """{package: version} of the plain pip command."""
        out = {"torch": self.patch}
        for name, pin in (("torchvision", self.vision), ("torchaudio", self.audio)):
            if pin:
                out[name] = pin.version
        return out


@dataclass(frozen=True)
class Option:
    """One command of the picker: a package manager and a compute platform, valid on some systems."""

    manager: str  # "pip" or "conda"
    compute: str  # "default", "cpu", "cuda-12.6", "rocm-6.2"
    command: str
    systems: tuple[str, ...]
    experimental: bool = False

    @property
    def key(self) -> str:
        return f"{self.manager}:{self.compute}"


@dataclass(frozen=True)
class NoWheel:
    """A platform PyPI has no torch wheel of the install patch for, and where its wheels are: `never` (PyPI never
    had one), `before` (the first release with one, `release`, came later) or `after` (the last one, `release`,
    came earlier)."""

    system: str
    kind: str  # "never" | "before" | "after"
    release: str | None = None


@dataclass(frozen=True)
class CommandVerdict:
    """The plain pip command and where it works: its platform (Linux x86_64 where PyPI has that wheel), the Python
    versions every pinned package has a wheel for there, the ones only torch has, and the libraries that lack them."""

    text: str  # `pip install torch==X torchvision==Y torchaudio==Z`
    platform: str
    pythons: tuple[str, ...]
    torch_only: tuple[str, ...]  # regular CPython versions torch has a wheel for and the command still fails on
    lacking: tuple[tuple[str, str], ...]  # (library, version) pinned without wheels for `torch_only`


@dataclass(frozen=True)
class RegistryDelta:
    """One fact PyPI's files give about two releases' install patches: its values before and now."""

    fact: str  # "platforms" (with torch wheels), "python" (CPython versions of one platform's wheels), "cuda"
    platform: str | None  # the platform of a "python" or "cuda" fact
    before: tuple[str, ...]
    now: tuple[str, ...]

    @property
    def added(self) -> tuple[str, ...]:
        return tuple(v for v in self.now if v not in self.before)

    @property
    def removed(self) -> tuple[str, ...]:
        return tuple(v for v in self.before if v not in self.now)

    @property
    def changed(self) -> bool:
        return self.before != self.now


@dataclass(frozen=True)
class RegistryChange:
    """What PyPI's files say changed from the release before to this one (install patch against install patch):
    every fact, changed or not, so a view can show both columns (scripts/verdicts/registry_changes.py)."""

    previous: str  # the release before, e.g. "2.14"
    previous_patch: str  # its install patch, e.g. "2.14.1"
    patch: str  # this release's install patch
    deltas: tuple[RegistryDelta, ...]


@dataclass(frozen=True)
class ReleaseVerdict:
    """Every answer about one release, decided once (scripts/verdicts/compute.py `release_verdict`)."""

    version: str
    python: PythonVerdict  # of any patch PyPI has: the matrix, the filters, the support page
    patch: str | None  # the patch a plain `pip install` pins (install_patch)
    patch_python: PythonVerdict  # of that patch: the quick facts and the install picker
    builds: Mapping[str, str | None]  # that patch's wheels: CUDA per platform (None: a CPU build)
    systems: tuple[str, ...]  # the platforms PyPI has a torch wheel of that patch for
    wheels: tuple[tuple[str, tuple[str, ...]], ...]  # that patch's wheels per platform as the evidence lists them
    library_pins: Mapping[str, tuple[tuple[str, Pin], ...]]  # library -> (patch, pin) for every patch PyPI has
    pins: Pins | None  # the install commands' pins (None before 1.0, or without a patch)
    options: tuple[Option, ...]  # the install commands, plain PyPI first
    command: CommandVerdict | None  # where the plain command works (None without pins or wheels)
    no_wheels: tuple[NoWheel, ...]  # platforms without a wheel of the patch (only where there is evidence)
    since_previous: RegistryChange | None = None  # PyPI's facts against the release before (None without evidence)


@dataclass(frozen=True)
class Pending:
    """The newest torch minor release PyPI has and the catalog has no page for yet."""

    version: str
    uploaded: str | None
    python: tuple[str, ...]  # the Python versions of its wheels, as the evidence lists them


@dataclass(frozen=True)
class Verdicts:
    """The verdicts of a whole catalog: one ReleaseVerdict per release, and the registry facts of the whole."""

    releases: Mapping[str, ReleaseVerdict]
    checked: str | None = None  # the day the registry evidence was asked; None where there is none
    pending: Pending | None = None
    pypi_minors: frozenset[str] = frozenset()  # the minor lines PyPI has files of

    def __getitem__(self, version: str) -> ReleaseVerdict:
        return self.releases[version]
