"""What each release offers a reader's machine, as facts the "your machine" answer is decided from
(`machine_releases`): per platform, PyPI's own build (its CUDA, the commands that install and their Python versions
with the oldest glibc/macOS each accepts, the GPU architectures and driver of that CUDA) and the index builds of the
install picker (CUDA, ROCm, CPU, Intel GPU), Apple GPUs' (MPS) macOS floor, the torchvision/torchaudio each torch
patch pairs with. Everything is read from the release verdicts (scripts/verdicts/hardware.py, platforms.py): this
module only reshapes them into the records of machine_model.py, which the page also ships as JSON.

The index builds' Python versions and glibc/macOS are those of PyPI's plain command on the same platform (the index
is not in the registry evidence); where PyPI has no wheel of the release on a platform (Windows before 1.7) they
are unknown (`pythons_known`), and an answer that needs them says it cannot tell.
"""

from __future__ import annotations

from scripts.catalog.hardware.model import Hardware, release_key
from scripts.catalog.model import Catalog, Release
from scripts.verdicts.machine_model import BuildCommand, MachineBuild, MachineRelease, PythonWheel
from scripts.verdicts.model import MAIN_PLATFORM, DriverFact, IndexVariant, PlatformCommand, PyPIBuild, ReleaseVerdict


def dotted_key(version: str) -> tuple[int, ...]:
    """ "525.60.13" -> (525, 60, 13); a shorter version sorts before a longer one it starts ("525" < "525.60")."""
    return tuple(int(part) for part in version.split("."))


def _wheels(command: PlatformCommand) -> tuple[PythonWheel, ...]:
    return tuple(PythonWheel(p.version, p.floor, p.refused) for p in command.pythons)


def _driver(fact: DriverFact | None, platform: str) -> tuple[str | None, str | None]:
    if fact is None:
        return None, None
    return (fact.windows if platform == "windows" else fact.linux), fact.family


def cuda_build_tag(cuda: str) -> str:
    """ "12.6" -> "cu126"."""
    return "cu" + cuda.replace(".", "")


def pypi_build(platform: str, build: PyPIBuild) -> MachineBuild:
    driver, family = _driver(build.driver, platform)
    return MachineBuild(
        platform=platform,
        source="pypi",
        tag="pypi",
        kind="cuda" if build.cuda else "cpu",
        version=build.cuda,
        commands=tuple(BuildCommand(c.text, _wheels(c)) for c in build.commands),
        archs=build.archs.archs if build.archs else None,
        ptx=build.archs.ptx if build.archs else (),
        driver=driver,
        driver_family=family,
        cuda_tag=cuda_build_tag(build.cuda) if build.cuda else None,
    )


def index_build(platform: str, variant: IndexVariant, pypi: PyPIBuild | None) -> MachineBuild:
    """An index build on one platform, with the Python versions of PyPI's plain command there (see the docstring)."""
    main = next((c for c in pypi.commands if c.why == "main"), None) if pypi else None
    archs = variant.archs.get(platform)
    driver, family = _driver(variant.driver, platform)
    return MachineBuild(
        platform=platform,
        source="index",
        tag=variant.tag,
        kind=variant.kind,
        version=variant.version,
        commands=(BuildCommand(variant.command, _wheels(main) if main else ()),),
        archs=archs.archs if archs else None,
        ptx=archs.ptx if archs else (),
        driver=driver,
        driver_family=family,
        cuda_tag=variant.tag if variant.kind == "cuda" else None,
        experimental=variant.experimental,
        pythons_known=main is not None,
    )


def release_builds(verdict: ReleaseVerdict) -> tuple[MachineBuild, ...]:
    """PyPI's build on every platform it installs on, then every index build on every platform it lists."""
    machine = verdict.machine
    if machine is None:
        return ()
    builds = [pypi_build(platform, build) for platform, build in machine.pypi.items()]
    for variant in machine.variants:
        if variant.command is None and variant.kind != "xpu":
            continue  # a build the official page gave no command for (before 1.2)
        builds += [index_build(platform, variant, machine.pypi.get(platform)) for platform in variant.platforms]
    return tuple(builds)


def machine_release(
    release: Release, verdict: ReleaseVerdict, evidence: dict | None, hardware: Hardware | None
) -> MachineRelease:
    machine = verdict.machine
    mps = machine.mps if machine else None
    floor = hardware.mps_floor(release.version) if hardware else None
    patch = verdict.pins.patch if verdict.pins else verdict.patch
    uploaded = ((evidence or {}).get("torch", {}).get(patch or "", {}) or {}).get("uploaded")
    pins = verdict.library_pins
    patches = sorted({p for lib in pins.values() for p, _ in lib}, key=dotted_key, reverse=True)
    vision, audio = dict(pins.get("torchvision", ())), dict(pins.get("torchaudio", ()))
    return MachineRelease(
        version=release.version,
        date=release.date.isoformat() if hasattr(release.date, "isoformat") else str(release.date),
        patch=patch,
        uploaded=uploaded,
        provisional=bool(getattr(release, "provisional", False)),
        builds=release_builds(verdict),
        mps=(
            mps.macos,
            floor.since if floor else release.version,
            mps.next_floor if mps.raised_later else None,
            mps.next_release if mps.raised_later else None,
        )
        if mps
        else None,
        mps_since=hardware.mps[0].since if hardware and hardware.mps else None,
        xpu_since=hardware.xpu.since if hardware and hardware.xpu else None,
        xpu_platforms=hardware.xpu.platforms if hardware and hardware.xpu else (),
        no_wheel=tuple((n.system, n.kind, n.release) for n in verdict.no_wheels),
        pairs=tuple(
            (p, vision[p].version if p in vision else None, audio[p].version if p in audio else None) for p in patches
        ),
        conda=bool(machine and machine.conda and machine.conda.on_channel),
        pip=verdict.pins is not None,
        default_cuda=verdict.builds.get(MAIN_PLATFORM),
    )


def machine_releases(
    catalog: Catalog, verdicts: dict[str, ReleaseVerdict], evidence: dict | None
) -> tuple[MachineRelease, ...]:
    """Every release's facts, newest first (the catalog's order)."""
    return tuple(
        machine_release(release, verdicts[release.version], evidence, catalog.hardware) for release in catalog.releases
    )


def offered_capabilities(hardware: Hardware | None) -> tuple[str, ...]:
    """The compute capabilities the page offers by name: every one a documented build carries code for, and every
    one the facts name a generation by (Ada's 8.9), oldest first."""
    if hardware is None:
        return ()
    found = {a for entry in hardware.arch_lists for a in entry.archs}
    found |= {c for g in hardware.generations for c in g.capabilities if not c.endswith(".x")}
    return tuple(sorted(found, key=dotted_key))


def newest_first(values) -> list[str]:
    return sorted(values, key=release_key, reverse=True)
