"""The decisions: one answer per version question, by the rule of the project's guide.

- what `pip install` gets **from PyPI** is decided by PyPI's wheel files (per platform) and their `Requires-Dist`
  (the registry evidence, scripts/registry/);
- the PyTorch wheel index's variants (cpu, cuXYZ, rocmX.Y) by the sources that document them (the catalog's
  claims, scripts/catalog/compat.py).

Every function here is pure: a release (or the catalog) and the evidence in, a verdict out. compute.py calls them
once per release; the tests hold them to the evidence. A new kind of verdict (a reader's machine: OS and CPU,
Python, GPU, driver, glibc, macOS) is one more function of this kind, and one more field of the model.
"""

from __future__ import annotations

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

from scripts.catalog.compat import python_key
from scripts.catalog.model import version_key as release_key
from scripts.registry.dists import PURE, Installable, installable
from scripts.registry.tags import PATCHES, refused_patches, version_text
from scripts.registry.wheels import MAIN_PLATFORM, PLATFORMS, version_key
from scripts.verdicts.model import PYPI, CommandVerdict, Pending, Pin, Pins, PythonOn, PythonVerdict


def _torch(evidence: dict | None) -> dict:
    return (evidence or {}).get("torch", {})


def on_pypi(release, evidence: dict | None) -> list[str]:
    """The release's patches that PyPI has wheels of (yanked ones too), oldest first."""
    torch = _torch(evidence)
    return [p for p in release.patches if p in torch and torch[p].get("files")]


def install_patch(release, evidence: dict | None) -> str | None:
    """The patch a plain `pip install` pins: the newest one PyPI has and has not yanked (1.8.2 LTS was never on
    PyPI; a pin PyPI lacks would fail). Without evidence, the newest patch not marked `not_on_pypi`."""
    torch = _torch(evidence)
    live = [p for p in on_pypi(release, evidence) if not torch[p].get("yanked")]
    if live:
        return live[-1]
    absent = set(release.compat.not_on_pypi) if release.compat else set()
    candidates = [p for p in release.patches if p not in absent] or list(release.patches)
    return candidates[-1] if candidates else None


def _sorted_pythons(values) -> tuple[str, ...]:
    return tuple(sorted((v for v in values if v not in ("py2", "py3")), key=python_key))


def python_verdict(release, evidence: dict | None, patch: str | None = None) -> PythonVerdict:
    """Python versions of one patch (or of any patch of the release) with torch wheels on PyPI; per platform."""
    patches = [patch] if patch else on_pypi(release, evidence)
    per_platform: dict[str, set[str]] = {}
    for p in patches:
        for platform in PLATFORMS:
            pythons = set(installs(evidence, "torch", p, platform))
            if pythons:
                per_platform.setdefault(platform, set()).update(pythons)
    platforms = {p: _sorted_pythons(v) for p, v in per_platform.items() if p in PLATFORMS and _sorted_pythons(v)}
    if platforms.get(MAIN_PLATFORM):
        return PythonVerdict(platforms[MAIN_PLATFORM], PYPI, platforms)
    compat = release.compat
    claimed = compat.versions("python", patch=patch) if compat else []
    sources = compat.primary("python")[0].sources if compat and compat.primary("python") else ()
    return PythonVerdict(tuple(claimed), "".join(s for s in sources if s != PYPI) or PYPI, platforms)


def pypi_builds(release, evidence: dict | None, patch: str | None = None) -> dict[str, str | None]:
    """{platform: CUDA version or None (a CPU build)} of the wheels PyPI serves for a patch (the install patch by
    default), read from each wheel's own torch/version.py. Empty where PyPI has no wheels or the evidence predates
    that field."""
    patch = patch or install_patch(release, evidence)
    return dict(_torch(evidence).get(patch or "", {}).get("cuda", {}))


def default_cuda(release, evidence: dict | None, patch: str | None = None) -> str | None:
    """The CUDA build a plain `pip install torch==X` gets on Linux x86_64 (None: a CPU build, or unknown)."""
    return pypi_builds(release, evidence, patch).get(MAIN_PLATFORM)


def pypi_systems(evidence: dict | None, patch: str | None) -> tuple[str, ...]:
    """The systems PyPI has torch wheels of `patch` for that pip installs (none where the evidence lacks it)."""
    return tuple(s for s in PLATFORMS if installs(evidence, "torch", patch or "", s))


def recorded_wheels(evidence: dict | None, patch: str | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A patch's torch wheels per platform as the evidence records them (in its order): Python versions each."""
    record = (evidence or {}).get("torch", {}).get(patch or "", {})
    return tuple((platform, tuple(pythons)) for platform, pythons in (record.get("wheels") or {}).items())


def platform_range(evidence: dict | None, system: str) -> tuple[str | None, str | None]:
    """(first, last) torch release with a PyPI wheel for `system` that pip installs (1.8.0's macosx_11_1_arm64
    wheel is no such wheel: the first for Apple silicon is 1.9.0)."""
    having = [
        v
        for v, r in (evidence or {}).get("torch", {}).items()
        if not r.get("yanked") and installs(evidence, "torch", v, system)
    ]
    if not having:
        return None, None
    return min(having, key=release_key), max(having, key=release_key)


# --- library pins ---------------------------------------------------------------------------------------------


def accepts(requires: list[str], torch_version: str) -> bool:
    """Whether Requires-Dist lines on torch (unconditional ones; markers are platform details) admit a torch
    version. A library that declares nothing on torch admits any."""
    try:
        version = Version(torch_version)
    except InvalidVersion:
        return False
    for line in requires:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if requirement.name != "torch" or requirement.marker is not None:
            continue
        if not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


def _line(version: str) -> tuple:
    return version_key(version)[:2]


def library_pin(release, evidence: dict | None, name: str, patch: str, channel: str = "pip") -> Pin | None:
    """The torchvision/torchaudio version to pin with torch `patch` in a plain PyPI command.

    The sources' pairing when PyPI's own metadata admits it and it is not yanked; otherwise the newest release of the
    same minor line that admits the patch and is not yanked (2.14.1: the tables pair torchvision 0.29.0, which
    declares torch==2.14.0; 0.29.1 declares torch>=2.14.0); otherwise the pairing itself, marked yanked where
    that is the reason. None where the sources pair nothing."""
    compat = release.compat
    claimed = compat.library_version(name, patch, channel) if compat else None
    records = (evidence or {}).get(name, {})
    if claimed is None:
        return None
    record = records.get(claimed)
    if record is None:  # PyPI never had it (or the evidence predates it): the sources' word stands
        return Pin(claimed)
    good = accepts(record.get("requires", []), patch) and not record.get("yanked")
    if good:
        return Pin(claimed)
    why = "yanked" if record.get("yanked") else "rejects"
    same_line = [
        v for v, r in records.items()
        if _line(v) == _line(claimed) and not r.get("yanked") and accepts(r.get("requires", []), patch)
    ]  # fmt: skip
    if same_line:
        # The next fix after the pairing (torchvision 0.29.1 shipped the same day as torch 2.14.1), else the
        # newest before it.
        later = [v for v in same_line if version_key(v) > version_key(claimed)]
        chosen = min(later, key=version_key) if later else max(same_line, key=version_key)
        return Pin(chosen, claimed=claimed, why=why)
    return Pin(claimed, yanked=bool(record.get("yanked")), yanked_reason=record.get("yanked_reason"), why=why)


def library_pins(release, evidence: dict | None, name: str) -> tuple[tuple[str, Pin], ...]:
    """(patch, pin) for every patch PyPI has (the patches of the sources where it has none)."""
    patches = [p for p in release.patches if not release.compat or p not in release.compat.not_on_pypi] or list(
        release.patches
    )
    out = []
    for patch in patches:
        pin = library_pin(release, evidence, name, patch)
        if pin:
            out.append((patch, pin))
    return tuple(out)


def accepting_libraries(evidence: dict | None, name: str, torch_version: str) -> list[str]:
    """The non-yanked releases of the newest minor line of a library whose Requires-Dist admits `torch_version`:
    what a provisional release can be paired with from registry facts alone (newest first). Older lines that
    merely declare a floor (torchvision 0.3.0: torch>=1.1.0, a missing upper bound rather than a statement about a
    torch that did not exist yet) are not pairings."""
    out = []
    for version, record in (evidence or {}).get(name, {}).items():
        if record.get("yanked") or not record.get("requires"):
            continue
        if accepts(record["requires"], torch_version):
            out.append(version)
    if not out:
        return []
    newest = max(_line(v) for v in out)
    return sorted((v for v in out if _line(v) == newest), key=version_key, reverse=True)


def installs(evidence: dict | None, name: str, version: str, platform: str) -> dict[str, Installable]:
    """{Python version: Installable} of a package release on a platform, as pip decides (its `dists`); for a record
    without `dists` (written before they were recorded) the Python versions of its wheels, with no OS floor."""
    record = (evidence or {}).get(name, {}).get(version)
    if not record:
        return {}
    if record.get("dists"):
        return installable(record, platform)
    wheels = record.get("wheels", {})
    return {p: Installable(p, None, None, None, ()) for p in wheels.get(platform, []) + wheels.get("any", [])}


def _for_python(found: dict[str, Installable], python: str) -> Installable | None:
    """The wheel of a package for one Python: its own, or a pure one (py3 fits every Python 3)."""
    pure = "py" + python.split(".")[0]
    return found.get(python) or (found.get(pure) if pure in PURE else None)


def command_pythons_on(
    evidence: dict | None, pins: dict[str, str], platform: str = MAIN_PLATFORM
) -> tuple[PythonOn, ...]:
    """The Python versions a plain `pip install` of these pins ({package: version}) installs on, on one platform,
    decided for every package: each has a wheel pip accepts for that Python (a pure `py3` wheel fits every Python
    3), the oldest glibc/macOS all of them accept, the patch releases a Requires-Python refuses (torchvision 0.29.x:
    3.14.1), the build tags pip prefers. torch 2.5.1 has cp313 wheels, torchvision 0.20.1 does not: `pip install
    torch==2.5.1 torchvision==0.20.1` fails on Python 3.13."""
    found = {name: installs(evidence, name, version, platform) for name, version in pins.items()}
    candidates = {p for per in found.values() for p in per if p not in PURE}
    out = []
    for python in sorted(candidates, key=python_key):
        chosen = {name: _for_python(per, python) for name, per in found.items()}
        if any(one is None for one in chosen.values()):
            continue
        wheels = {name: one for name, one in chosen.items() if one is not None}
        refusing = {name: refused_patches(one.requires_python, python) for name, one in wheels.items()}
        refused = sorted({p for patches in refusing.values() for p in patches})
        if len(refused) == len(PATCHES):
            continue  # every patch release refused: not this Python
        floors = [one.floor for one in wheels.values() if one.floor]
        minor = python.rstrip("t")
        out.append(
            PythonOn(
                version=python,
                floor=version_text(max(floors)) if floors else None,
                refused=tuple(f"{minor}.{p}" for p in refused),
                refused_by=tuple(f"{name} {pins[name]}" for name, patches in refusing.items() if patches),
                builds=tuple((name, one.build) for name, one in wheels.items() if one.build),
            )
        )
    return tuple(out)


def command_pythons(evidence: dict | None, pins: dict[str, str], platform: str = MAIN_PLATFORM) -> tuple[str, ...]:
    """The Python versions of command_pythons_on."""
    return tuple(p.version for p in command_pythons_on(evidence, pins, platform))


def command_verdict(evidence: dict | None, pins: Pins, python: PythonVerdict, text: str) -> CommandVerdict | None:
    """Where the plain pip command of `pins` (`text`) works: on Linux x86_64 where PyPI has that torch wheel (else the first
    platform it has), the Python versions every pinned package has a wheel for; the regular ones only torch has
    (`python`: the patch's verdict), and the libraries that lack them. None where PyPI has no wheel of the patch."""
    systems = pypi_systems(evidence, pins.patch)
    if not systems:
        return None
    main = MAIN_PLATFORM if MAIN_PLATFORM in systems else systems[0]
    usable = command_pythons(evidence, pins.as_dict(), main)
    torch_only = tuple(v for v in python.per_platform.get(main, ()) if v not in usable and not v.endswith("t"))
    lacking = []
    if torch_only:
        for lib, pin in (("torchvision", pins.vision), ("torchaudio", pins.audio)):
            if pin is None:
                continue
            own = command_pythons(evidence, {lib: pin.version}, main)
            if own and not set(torch_only) <= set(own):  # () = a pure wheel: it fits every Python
                lacking.append((lib, pin.version))
    return CommandVerdict(text, main, usable, torch_only, tuple(lacking))


# --- the registry as a whole ----------------------------------------------------------------------------------


def pending_release(catalog, evidence: dict) -> tuple[str, str | None] | None:
    """(version, first upload day) of the newest torch minor release on PyPI that has no page yet."""
    newest = max((r.version for r in catalog.releases), key=version_key, default="0.0")
    later = [
        v
        for v, r in evidence.get("torch", {}).items()
        if r["files"] and v.endswith(".0") and version_key(v)[:2] > version_key(newest)[:2]
    ]
    if not later:
        return None
    version = max(later, key=version_key)
    return version, evidence["torch"][version]["uploaded"]


def pending(catalog, evidence: dict | None) -> Pending | None:
    """The pending release (pending_release) with the Python versions of its wheels; None without evidence."""
    if not evidence:
        return None
    found = pending_release(catalog, evidence)
    if found is None:
        return None
    version, uploaded = found
    return Pending(version, uploaded, tuple(evidence["torch"][version]["python"]))


def pypi_minors(evidence: dict | None) -> frozenset[str]:
    """The minor lines (2.15) PyPI has files of."""
    torch = (evidence or {}).get("torch", {})
    return frozenset(".".join(v.split(".")[:2]) for v, record in torch.items() if record.get("files"))
