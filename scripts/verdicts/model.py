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
from scripts.verdicts.machine_model import (
    Machine,
    MachineAnswer,
    MachineBuild,
    MachinePage,
    MachineRelease,
    MachineTables,
    Reason,
    ReleaseFit,
    TableRow,
)

__all__ = [
    "MAIN_PLATFORM",
    "PLATFORMS",
    "PYPI",
    "INDEX",
    "INDEX_SYSTEMS",
    "MACOS",
    "ROCM_SYSTEMS",
    "ArchFact",
    "CommandVerdict",
    "CondaFact",
    "DriverFact",
    "IndexVariant",
    "LibraryFact",
    "MachineVerdict",
    "MpsFact",
    "NoWheel",
    "PlatformCommand",
    "PyPIBuild",
    "PythonOn",
    "SourcedFact",
    "XpuFact",
    "Option",
    "Pending",
    "RegistryChange",
    "RegistryDelta",
    "Pin",
    "Pins",
    "PythonVerdict",
    "ReleaseVerdict",
    "Verdicts",
    # the reader's machine (scripts/verdicts/machine_model.py)
    "Machine",
    "MachineAnswer",
    "MachineBuild",
    "MachinePage",
    "MachineRelease",
    "MachineTables",
    "Reason",
    "ReleaseFit",
    "TableRow",
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
    """A platform where no plain pip command of the release installs (no torch wheel of any of its patches pip
    accepts there), and where its wheels are: `never` (PyPI never had one), `before` (the first release with one
    pip installs, `release`, came later) or `after` (the last one, `release`, came earlier)."""

    system: str
    kind: str  # "never" | "before" | "after"
    release: str | None = None
    unusable: tuple[tuple[str, str], ...] = ()  # (patch, platform tag) of the release's wheels pip never installs


@dataclass(frozen=True)
class CommandVerdict:
    """The plain pip command and where it works: its platform (Linux x86_64 where PyPI has that wheel), the Python
    versions every pinned package has a wheel for there, the ones only torch has, and the libraries that lack them."""

    text: str  # `pip install torch==X torchvision==Y torchaudio==Z`
    platform: str
    pythons: tuple[str, ...]
    torch_only: tuple[str, ...]  # regular CPython versions torch has a wheel for and the command still fails on
    lacking: tuple[tuple[str, str], ...]  # (library, version) pinned without wheels for `torch_only`


# --- the reader's machine: what each build needs, decided from the registry evidence and docs/.hardware.yml ------


@dataclass(frozen=True)
class SourcedFact:
    """Where a machine fact comes from: its sources as (key, English name, url), its evidence (official, copy,
    derived) and, where it is not official, the caveat a page shows with it ({language: words}); `names` has each
    source's name in every language ({key: {language: name}}): a page shows `links(lang)`."""

    sources: tuple[tuple[str, str, str], ...]
    evidence: str
    caveat: Mapping[str, str] | None = None
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def links(self, lang: str) -> tuple[tuple[str, str], ...]:
        """(name in `lang`, url) of each source."""
        return tuple((self.names.get(key, {}).get(lang, name), url) for key, name, url in self.sources)


@dataclass(frozen=True)
class PythonOn:
    """One Python version a command installs on, on one platform, as pip decides it for every package of the
    command: each package has a wheel pip accepts there (its platform tag, Python/ABI tag and Requires-Python)."""

    version: str  # "3.12", "3.13t"
    floor: str | None  # the oldest glibc (Linux) or macOS (macOS) every package's wheel accepts; None on Windows
    refused: tuple[str, ...] = ()  # patch releases a Requires-Python refuses: ("3.14.1",) (torchvision 0.26-0.29)
    refused_by: tuple[str, ...] = ()  # the packages ("torchvision 0.29.1") whose Requires-Python refuses them
    builds: tuple[tuple[str, str], ...] = ()  # (package, build tag) where pip takes a re-uploaded build ("3")


@dataclass(frozen=True)
class PlatformCommand:
    """A plain pip command and the Python versions it installs on, on one platform. `why` says how it differs from
    the release's plain command: "main" (it is that command), "library" (another release of a library's line that
    has the wheel), "patch" (another torch patch of the release, with its own pairings) or "without" (the libraries
    that have no wheel left out). `lacking`: the main command's packages that have no wheel for these Pythons."""

    text: str
    pins: tuple[tuple[str, str], ...]  # (package, version), torch first
    pythons: tuple[PythonOn, ...]
    why: str
    lacking: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ArchFact:
    """The GPU architectures (compute capabilities) a CUDA build carries on a platform; `ptx`: also as PTX."""

    archs: tuple[str, ...]  # ("7.5", "8.0", "8.6", "9.0", "10.0", "12.0")
    ptx: tuple[str, ...]
    fact: SourcedFact
    build: str = ""  # the index build whose list it is ("cu128"); PyPI's wheel of that CUDA is given its list


@dataclass(frozen=True)
class DriverFact:
    """The oldest NVIDIA driver a build of CUDA `cuda` loads with (`family`: "12.x" where NVIDIA's minor version
    compatibility covers the whole major version, else the toolkit itself)."""

    cuda: str
    family: str
    linux: str
    windows: str
    fact: SourcedFact


@dataclass(frozen=True)
class LibraryFact:
    """A library version a CUDA build ships with (cuDNN, NCCL)."""

    version: str
    fact: SourcedFact


@dataclass(frozen=True)
class PyPIBuild:
    """What `pip install` gets from PyPI on one platform: the torch wheel's build (CUDA or CPU), what the machine
    needs (glibc or macOS, per Python in `commands`), the commands that install (the first covers most Pythons),
    and, for a CUDA build, its GPU architectures and the driver it needs."""

    platform: str
    torch: str  # the torch patch of the first command
    cuda: str | None  # None: a CPU build
    commands: tuple[PlatformCommand, ...]
    archs: ArchFact | None = None  # None: a CPU build, or not documented
    driver: DriverFact | None = None

    @property
    def floor(self) -> str | None:
        """The oldest glibc/macOS any command installs on here (None on Windows)."""
        floors = [p.floor for c in self.commands for p in c.pythons if p.floor]
        return min(floors, key=lambda f: tuple(int(x) for x in f.split("."))) if floors else None


@dataclass(frozen=True)
class IndexVariant:
    """A build on download.pytorch.org's index: its tag (cu126, rocm6.2, cpu, xpu), what it is, where it installs,
    the command pattern of the release's era, and for CUDA its architectures per platform, driver, cuDNN, NCCL."""

    tag: str
    kind: str  # "cuda" | "rocm" | "cpu" | "xpu"
    version: str | None  # "12.6", "6.2"; None for cpu and xpu
    platforms: tuple[str, ...]
    command: str | None  # the picker's command; None where the official page gave none to copy (before 1.2, xpu)
    experimental: bool = False
    archs: Mapping[str, ArchFact] = field(default_factory=dict)  # platform -> architectures, where documented
    driver: DriverFact | None = None
    cudnn: LibraryFact | None = None
    nccl: LibraryFact | None = None


@dataclass(frozen=True)
class MpsFact:
    """Apple GPUs (MPS) on Apple silicon: the oldest macOS; `raised_later`: a later release raised it at a release
    no source confirms, up to `next_floor` from `next_release`."""

    macos: str
    fact: SourcedFact
    raised_later: bool = False
    next_floor: str | None = None
    next_release: str | None = None


@dataclass(frozen=True)
class XpuFact:
    """Intel GPUs (XPU): wheels on `index` for `platforms`."""

    index: str
    platforms: tuple[str, ...]
    fact: SourcedFact


@dataclass(frozen=True)
class CondaFact:
    """Whether the release is on the `channel` conda channel, which published nothing after `last`."""

    on_channel: bool
    channel: str
    last: str
    fact: SourcedFact


@dataclass(frozen=True)
class MachineVerdict:
    """What a reader's machine needs for a release: PyPI's builds per platform, the index variants, and the
    accelerators beside CUDA. The input of a "your machine" answer; nothing here is worded."""

    pypi: Mapping[str, PyPIBuild]  # platform -> build, for every platform some plain command installs on
    variants: tuple[IndexVariant, ...]
    windows_cuda_only_from_index: bool  # PyPI's Windows wheels of the release are all CPU builds
    free_threaded: Mapping[str, tuple[str, ...]]  # platform -> free-threaded Pythons of the plain command
    mps: MpsFact | None = None
    xpu: XpuFact | None = None
    conda: CondaFact | None = None
    binary_compatibility: SourcedFact | None = None


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
    no_wheels: tuple[NoWheel, ...]  # platforms no plain command installs on (only where there is evidence)
    machine: MachineVerdict | None = None  # what a machine needs (None without evidence)
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
    machine_page: MachinePage | None = None  # the "your machine" page's facts and tables (None without evidence)

    def __getitem__(self, version: str) -> ReleaseVerdict:
        return self.releases[version]
