"""The records of the "your machine" answer and how a machine is read: the reader's machine (`Machine`, from a URL
query by `parse_query`, with the problems found in it: an unknown or invalid value is reported and left out, never
guessed), what each release offers a machine (`MachineRelease`, its `MachineBuild`s: PyPI's and the index's,
per platform), the answer for one release (`ReleaseFit`) and for all (`MachineAnswer`), and the page's static
tables (`MachineTables`). scripts/verdicts/machine_facts.py fills the facts, machine.py decides the answers; the
page's script (docs/assets/javascripts/machine/machine.js) decides the same answers from the same facts, as JSON.
Re-exported by scripts/verdicts/model.py, which views read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import parse_qsl

OSES = ("linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows")
GPU_KINDS = ("none", "mps", "rocm", "xpu")  # besides an NVIDIA compute capability ("8.6")
STATUSES = ("runs", "maybe", "cpu", "no")  # runs (with the machine's GPU, if any), can't say, CPU only, nothing


@dataclass(frozen=True)
class Machine:
    """The reader's machine; every field but `os` may be unknown (None). `gpu`: an NVIDIA compute capability
    ("8.6") or one of GPU_KINDS; `python`: "3.12" or "3.13t"; driver, glibc, macos: dotted versions; date:
    YYYY-MM-DD (the answer as of that day)."""

    os: str
    python: str | None = None
    gpu: str | None = None
    driver: str | None = None
    glibc: str | None = None
    macos: str | None = None
    date: str | None = None

    @property
    def nvidia(self) -> bool:
        return self.gpu is not None and self.gpu not in GPU_KINDS


@dataclass(frozen=True)
class QueryProblem:
    """A value of the query that was not taken: its key, the value (cut short) and why (a code the page words)."""

    key: str
    value: str
    code: str  # "invalid" | "unknown" | "needs-os" | "not-this-os" | "mps-arm64" | "rocm-linux" | "xpu-os" ...


@dataclass(frozen=True)
class ParsedQuery:
    machine: Machine | None  # None without a valid os
    release: str | None  # a release to show first (`release=2.14`), where the catalog has it
    problems: tuple[QueryProblem, ...] = ()
    values: tuple[tuple[str, str], ...] = ()  # the values taken, os or not (the form shows them)


@dataclass(frozen=True)
class PythonWheel:
    """One Python a command installs on, and the oldest glibc (Linux) or macOS (macOS) its wheels accept."""

    version: str
    floor: str | None
    refused: tuple[str, ...] = ()  # patch releases a Requires-Python refuses ("3.14.1")


@dataclass(frozen=True)
class BuildCommand:
    text: str | None  # None: the sources give no command to copy (Intel GPU wheels: the index only)
    pythons: tuple[PythonWheel, ...]


@dataclass(frozen=True)
class MachineBuild:
    """One way to install a release on one platform: PyPI's own wheel, or a build of download.pytorch.org's
    index. `pythons_known`: False where PyPI has no wheel of the release there, so the index build's Python
    versions cannot be read from PyPI's files."""

    platform: str
    source: str  # "pypi" | "index"
    tag: str  # "pypi" for PyPI's own wheel; the index build's tag otherwise ("cu126", "cpu", "rocm6.2", "xpu")
    kind: str  # "cuda" | "cpu" | "rocm" | "xpu"
    version: str | None  # the CUDA or ROCm version
    commands: tuple[BuildCommand, ...]
    archs: tuple[str, ...] | None = None  # compute capabilities with code (None: not documented, or no CUDA)
    ptx: tuple[str, ...] = ()
    driver: str | None = None  # the oldest NVIDIA driver on this platform
    driver_family: str | None = None  # "12.x", or the toolkit ("10.2") before minor version compatibility
    cuda_tag: str | None = None  # "cu130": the CUDA build's tag (PyPI's wheel too)
    experimental: bool = False
    pythons_known: bool = True


@dataclass(frozen=True)
class MachineRelease:
    """What one release offers machines, as facts (no answer decided): its builds per platform, Apple GPUs (MPS),
    the torchvision/torchaudio each torch patch pairs with, where its wheels are when a platform has none."""

    version: str
    date: str
    patch: str | None  # the patch the commands install
    uploaded: str | None  # the day PyPI got that patch
    provisional: bool
    builds: tuple[MachineBuild, ...]
    # Apple GPUs: (oldest macOS, the release it holds from, and where a later release raised it at a release no
    # source confirms, the next documented floor and its release); None before MPS.
    mps: tuple[str, str, str | None, str | None] | None = None
    mps_since: str | None = None  # the first release with MPS (for "no MPS before 1.12")
    xpu_since: str | None = None
    xpu_platforms: tuple[str, ...] = ()
    no_wheel: tuple[tuple[str, str, str | None], ...] = ()  # (platform, "never"|"before"|"after", release)
    pairs: tuple[tuple[str, str | None, str | None], ...] = ()  # (torch patch, torchvision, torchaudio)
    conda: bool = False  # on the pytorch conda channel
    pip: bool = True  # False before 1.0: the official page gave no pip command
    default_cuda: str | None = None  # the CUDA of PyPI's Linux x86_64 wheel


@dataclass(frozen=True)
class Reason:
    """Why a build does not serve the machine, or what it assumes: a code and its values (the page words them)."""

    code: str
    params: tuple[tuple[str, str], ...] = ()

    def get(self, key: str) -> str | None:
        return dict(self.params).get(key)


@dataclass(frozen=True)
class ReleaseFit:
    """One release on the machine: `status` (STATUSES), the build and command that serve it (None: nothing
    does), the Python versions that command covers there, why better builds do not serve it (`reasons`) and
    what the answer assumes (`notes`); `later`: the release came out after the machine's date."""

    version: str
    status: str
    tag: str | None = None
    command: str | None = None
    pythons: tuple[str, ...] = ()
    reasons: tuple[Reason, ...] = ()
    notes: tuple[Reason, ...] = ()
    later: bool = False


@dataclass(frozen=True)
class MachineAnswer:
    """The answer for a machine: every release's fit (newest first); `best`, the newest release that runs with
    its GPU (or, without one, at all); `cpu_newer` / `maybe_newer`, a newer one that only runs on the CPU / of
    which the facts cannot say, if any; with a date, `newest_then`, the newest release out that day."""

    machine: Machine
    fits: tuple[ReleaseFit, ...]
    best: str | None
    cpu_newer: str | None = None
    maybe_newer: str | None = None
    newest_then: str | None = None


@dataclass(frozen=True)
class TableRow:
    """A row of a static table: what the machine has (a GPU, a driver, a glibc, a macOS) and the answer."""

    label: str  # "6.1", "470", "2.26", "13"
    name: str | None  # the GPU generation ("Pascal"), where the facts name it
    fits: tuple[tuple[str, ReleaseFit | None], ...]  # (column: a platform, the newest fit that runs or None)


@dataclass(frozen=True)
class MachineTables:
    gpus: tuple[TableRow, ...]
    drivers: tuple[TableRow, ...]
    glibc: tuple[TableRow, ...]
    macos: tuple[TableRow, ...]


@dataclass(frozen=True)
class MachinePage:
    """Everything the machine page shows: the facts (for its script), the generations and capabilities its GPU
    choice offers, the driver minimums, and the static tables."""

    releases: tuple[MachineRelease, ...]
    generations: tuple[tuple[str, tuple[str, ...]], ...]  # (name, capabilities as the facts write them: "6.x")
    capabilities: tuple[str, ...]  # the compute capabilities offered by name
    drivers: tuple[tuple[str, str, str], ...]  # (CUDA family, Linux, Windows)
    pythons: tuple[str, ...]
    tables: MachineTables
    # the pytorch conda channel: (last release, channel, its source's names (zh, en), the source's url)
    conda: tuple[str, str, tuple[str, str], str] | None = None


# --- a machine from a URL query -------------------------------------------------------------------------------

KEYS = ("os", "python", "gpu", "driver", "glibc", "macos", "date")
MAX_VALUE = 64  # longer values are invalid; a problem shows at most SHOWN characters of one
SHOWN = 40
# Whole values, ASCII digits only (as the page's script reads them: JavaScript's \d is ASCII).
PATTERNS = {
    "python": re.compile(r"[23]\.\d{1,2}t?", re.ASCII),
    "gpu": re.compile(r"(?:[1-9]|1[0-9])\.\d", re.ASCII),
    "driver": re.compile(r"\d{2,4}(?:\.\d{1,3}){0,2}", re.ASCII),
    "glibc": re.compile(r"2\.\d{1,2}", re.ASCII),
    "macos": re.compile(r"(?:1\d|2\d)(?:\.\d{1,2})?", re.ASCII),
    "date": re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII),
}


def _valid_date(value: str) -> bool:
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def parse_query(query: str, pythons: tuple[str, ...], releases: tuple[str, ...]) -> ParsedQuery:
    """The machine a query describes (`os=linux-x86_64&python=3.10&gpu=7.5&driver=535.104`), as URLSearchParams
    reads it (a leading "?", "+" for a space, the first of repeated keys); `pythons` and `releases`: the values the
    facts know. An empty value is no value (a form sends its empty fields); keys of no meaning here are ignored."""
    pairs = parse_qsl(query[1:] if query.startswith("?") else query, keep_blank_values=True)
    seen: dict[str, str] = {}
    for key, value in pairs:
        if (key in KEYS or key == "release") and key not in seen:
            seen[key] = value
    values: dict[str, str] = {}
    problems: list[QueryProblem] = []

    def refuse(key: str, code: str) -> None:
        problems.append(QueryProblem(key, seen[key][:SHOWN], code))

    for key in KEYS + ("release",):
        value = seen.get(key, "")
        if value == "":
            continue
        if len(value) > MAX_VALUE:
            refuse(key, "invalid")
        elif key in ("os", "release"):
            if value in (OSES if key == "os" else releases):
                values[key] = value
            else:
                refuse(key, "unknown")
        elif key == "gpu" and value in GPU_KINDS:
            values[key] = value
        elif not PATTERNS[key].fullmatch(value) or (key == "date" and not _valid_date(value)):
            refuse(key, "invalid")
        elif key == "python" and value not in pythons:
            refuse(key, "unknown")
        else:
            values[key] = value
    os = values.get("os")
    if os is not None:
        for key, wrong in (("glibc", not os.startswith("linux")), ("macos", not os.startswith("macos"))):
            if key in values and wrong:
                refuse(key, "not-this-os")
                del values[key]
        if values.get("gpu") == "mps" and not os.startswith("macos"):
            refuse("gpu", "mps-macos")
            del values["gpu"]
    if "driver" in values and values.get("gpu") in GPU_KINDS:
        refuse("driver", "not-nvidia")
        del values["driver"]
    release = values.pop("release", None)
    machine = Machine(**values) if os is not None else None  # type: ignore[arg-type]
    return ParsedQuery(machine, release, tuple(problems), tuple(values.items()))


def machine_query(machine: Machine, release: str | None = None) -> str:
    """The query of a machine, keys in KEYS order (what the page writes into its URL)."""
    parts = [(key, getattr(machine, key)) for key in KEYS if getattr(machine, key)]
    if release:
        parts.append(("release", release))
    return "&".join(f"{key}={value}" for key, value in parts)
