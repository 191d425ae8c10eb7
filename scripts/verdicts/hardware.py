"""What a machine needs for a release (`machine_verdict`): PyPI's build per platform with the commands that install
there (scripts/verdicts/platforms.py), the GPU architectures and driver of each CUDA build, the index variants of
the install picker with their architectures, driver, cuDNN and NCCL, Apple GPUs (MPS), Intel GPUs (XPU), the
pytorch conda channel, free-threaded wheels, and whether Windows gets CUDA only from the index. It joins the
catalog's machine facts (docs/.hardware.yml, each with its sources) to the registry evidence and the release's
install options; the facts PyPI's files decide are computed there, never typed.
"""

from __future__ import annotations

from scripts.catalog.hardware.model import Fact, Hardware, release_key
from scripts.catalog.model import Release
from scripts.verdicts.install import cuda_tag
from scripts.verdicts.model import (
    ArchFact,
    CondaFact,
    DriverFact,
    IndexVariant,
    LibraryFact,
    MachineVerdict,
    MpsFact,
    Option,
    PlatformCommand,
    PyPIBuild,
    SourcedFact,
    XpuFact,
)


def gpu_support(archs: ArchFact, capability: str) -> str | None:
    """How a build with these architectures runs on a GPU of compute `capability` ("8.9"), by NVIDIA's rule (its Ada
    compatibility guide, docs/.hardware.yml `binary_compatibility`): "cubin" where it carries code for X.y with the
    GPU's X.z, z >= y (an RTX 4090, 8.9, runs the 8.6 code); "ptx" where only PTX of an older architecture can be
    compiled for it by the driver; None where neither (the build has nothing for that GPU)."""
    major, minor = (int(x) for x in capability.split("."))

    def parts(arch: str) -> tuple[int, int]:
        a, b = arch.split(".")
        return int(a), int(b)

    if any(parts(a)[0] == major and parts(a)[1] <= minor for a in archs.archs):
        return "cubin"
    if any(parts(p) <= (major, minor) for p in archs.ptx):
        return "ptx"
    return None


def sourced(hardware: Hardware, fact: Fact) -> SourcedFact:
    """A fact of the hardware file with its sources' names (in every language) and links, and its caveat's words."""
    known = [hardware.sources[key] for key in fact.sources if key in hardware.sources]
    return SourcedFact(
        tuple((s.key, s.name, s.url) for s in known),
        fact.evidence,
        hardware.caveats.get(fact.caveat) if fact.caveat else None,
        {s.key: s.names() for s in known},
    )


def arch_fact(hardware: Hardware | None, release: str, cuda: str, platform: str) -> ArchFact | None:
    """The architectures of the cuXYZ build of CUDA `cuda` of `release` on `platform`, where documented."""
    entry = hardware.arch_list(release, cuda_tag(cuda), platform) if hardware else None
    if hardware is None or entry is None:
        return None
    return ArchFact(entry.archs, entry.ptx, sourced(hardware, entry.fact), cuda_tag(cuda))


def driver_fact(hardware: Hardware | None, cuda: str | None) -> DriverFact | None:
    """The oldest driver a build of CUDA `cuda` loads with (NVIDIA's tables), where the file has it."""
    entry = hardware.driver(cuda) if hardware and cuda else None
    if hardware is None or entry is None or cuda is None:
        return None
    return DriverFact(cuda, entry.cuda, entry.linux, entry.windows, sourced(hardware, entry.fact))


def pypi_builds(
    release: Release, evidence: dict | None, hardware: Hardware | None, commands: dict[str, tuple[PlatformCommand, ...]]
) -> dict[str, PyPIBuild]:
    """PyPI's build on every platform some command installs on: the CUDA of the first command's torch wheel (its
    own torch/version.py), that CUDA's architectures (the list of the cuXYZ build of the same CUDA) and driver."""
    torch = (evidence or {}).get("torch", {})
    out = {}
    for platform, found in commands.items():
        patch = dict(found[0].pins)["torch"]
        cuda = torch.get(patch, {}).get("cuda", {}).get(platform)
        out[platform] = PyPIBuild(
            platform=platform,
            torch=patch,
            cuda=cuda,
            commands=found,
            archs=arch_fact(hardware, release.version, cuda, platform) if cuda else None,
            driver=driver_fact(hardware, cuda),
        )
    return out


def _library(hardware: Hardware, release: str, tag: str) -> tuple[LibraryFact | None, LibraryFact | None]:
    cudnn, nccl = hardware.build_libraries(release, tag)
    return (
        LibraryFact(cudnn.cudnn, sourced(hardware, cudnn.fact)) if cudnn and cudnn.cudnn else None,
        LibraryFact(nccl.nccl, sourced(hardware, nccl.fact)) if nccl and nccl.nccl else None,
    )


def index_variants(
    release: Release, options: tuple[Option, ...], hardware: Hardware | None
) -> tuple[IndexVariant, ...]:
    """The picker's download.pytorch.org builds (CPU, each CUDA, each ROCm: pip commands), then XPU where the
    release has it (its index only: the sources give no command to copy)."""
    out = []
    for option in options:
        if option.manager != "pip" or option.compute == "default":
            continue
        kind, _, version = option.compute.partition("-")
        tag = cuda_tag(version) if kind == "cuda" else (f"rocm{version}" if kind == "rocm" else kind)
        archs = {}
        cudnn = nccl = None
        if kind == "cuda" and hardware:
            archs = {p: a for p in option.systems if (a := arch_fact(hardware, release.version, version, p))}
            cudnn, nccl = _library(hardware, release.version, tag)
        out.append(
            IndexVariant(
                tag=tag,
                kind=kind,
                version=version or None,
                platforms=option.systems,
                command=option.command,
                experimental=option.experimental,
                archs=archs,
                driver=driver_fact(hardware, version) if kind == "cuda" else None,
                cudnn=cudnn,
                nccl=nccl,
            )
        )
    xpu = xpu_fact(release, hardware)
    if xpu:
        out.append(IndexVariant("xpu", "xpu", None, xpu.platforms, None))
    return tuple(out)


def mps_fact(release: Release, hardware: Hardware | None) -> MpsFact | None:
    """MPS's oldest macOS for the release (None before MPS); where a later release raised it at a release no source
    confirms, the next documented floor beside it."""
    floor = hardware.mps_floor(release.version) if hardware else None
    if hardware is None or floor is None:
        return None
    later = [m for m in hardware.mps if release_key(m.since) > release_key(floor.since)]
    nxt = later[0] if floor.raised_later and later else None
    return MpsFact(
        floor.macos,
        sourced(hardware, floor.fact),
        floor.raised_later,
        nxt.macos if nxt else None,
        nxt.since if nxt else None,
    )


def xpu_fact(release: Release, hardware: Hardware | None) -> XpuFact | None:
    xpu = hardware.xpu if hardware else None
    if hardware is None or xpu is None or release_key(release.version) < release_key(xpu.since):
        return None
    return XpuFact(xpu.index, xpu.platforms, sourced(hardware, xpu.fact))


def conda_fact(release: Release, hardware: Hardware | None) -> CondaFact | None:
    conda = hardware.conda if hardware else None
    if hardware is None or conda is None:
        return None
    on = release_key(release.version) <= release_key(conda.last)
    return CondaFact(on, conda.channel, conda.last, sourced(hardware, conda.fact))


def machine_verdict(
    release: Release,
    evidence: dict | None,
    hardware: Hardware | None,
    commands: dict[str, tuple[PlatformCommand, ...]],
    options: tuple[Option, ...],
) -> MachineVerdict:
    """Everything a machine needs for one release (see MachineVerdict)."""
    pypi = pypi_builds(release, evidence, hardware, commands)
    windows = pypi.get("windows")
    return MachineVerdict(
        pypi=pypi,
        variants=index_variants(release, options, hardware),
        windows_cuda_only_from_index=windows is not None and windows.cuda is None,
        free_threaded={
            platform: tuple(p.version for c in build.commands for p in c.pythons if p.version.endswith("t"))
            for platform, build in pypi.items()
            if any(p.version.endswith("t") for c in build.commands for p in c.pythons)
        },
        mps=mps_fact(release, hardware),
        xpu=xpu_fact(release, hardware),
        conda=conda_fact(release, hardware),
        binary_compatibility=sourced(hardware, hardware.binary_compatibility)
        if hardware and hardware.binary_compatibility
        else None,
    )
