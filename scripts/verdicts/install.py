"""The install commands of a release, in the forms of the official "Previous PyTorch Versions" page, which changed
over time:
- from 2.0: `pip install torch==X torchvision==Y torchaudio==Z --index-url https://download.pytorch.org/whl/<variant>`
  (2.0 itself wrote local version tags, `torch==2.0.1+cu118`);
- 1.11 – 1.13: local tags with `--extra-index-url https://download.pytorch.org/whl/<variant>`;
- 1.2 – 1.10: local tags with `-f https://download.pytorch.org/whl/torch_stable.html`, except the build PyPI
  serves by default, installed plainly;
- 1.0 – 1.1: the page tells you to download the wheel from a per-variant `torch_stable.html` page;
- before 1.0: no pip command; the page lists wheel URLs and conda commands.
That page groups the index variants under "Linux and Windows" (ROCm: Linux only) and gives macOS the plain command.
Conda commands are shown for 1.5.1 – 2.5 only: the PyTorch channel published nothing after 2.5 (2.6 post), and
a 2023 report in PyTorch's tracker found its packages older than 1.5.1 gone.

The plain `pip install` line is the verdict: its pins are the ones PyPI's own metadata resolves (a test runs pip's
resolver on every one). Pure functions of a release and the evidence, like rules.py.
"""

from __future__ import annotations

from scripts.catalog.model import Release, version_key
from scripts.verdicts.model import INDEX, INDEX_SYSTEMS, MACOS, ROCM_SYSTEMS, Option, Pins, PlatformCommand
from scripts.verdicts.platforms import all_platform_commands, pip_command
from scripts.verdicts.rules import default_cuda, install_patch, library_pin


def cuda_tag(version: str) -> str:
    """ "12.6" -> "cu126", "9.2" -> "cu92"."""
    return "cu" + version.replace(".", "")


def rocm_tag(version: str) -> str:
    return "rocm" + version


def pins(release: Release, evidence: dict | None) -> Pins | None:
    """The install patch and what the commands pin beside it; None where the release has no patch to pin."""
    patch = install_patch(release, evidence)
    if patch is None:
        return None
    compat = release.compat
    conda = (
        (compat.library_version("torchvision", patch, "conda"), compat.library_version("torchaudio", patch, "conda"))
        if compat
        else (None, None)
    )
    return Pins(
        patch,
        library_pin(release, evidence, "torchvision", patch),
        library_pin(release, evidence, "torchaudio", patch),
        *conda,
    )


def _packages(patch: str, vision: str | None, audio: str | None, local: str | None = None, conda: bool = False) -> str:
    torch_name = "pytorch" if conda else "torch"
    tag = f"+{local}" if local else ""
    parts = [f"{torch_name}=={patch}{tag}"]
    if vision:
        parts.append(f"torchvision=={vision}{tag}")
    if audio:
        parts.append(f"torchaudio=={audio}")  # torchaudio wheels never carried the local tag in these commands
    return " ".join(parts)


def plain_command(p: Pins) -> str:
    """The plain PyPI command: the verdict line, resolved by pip's resolver in the tests."""
    return pip_command(p.as_dict())


def _index_form(release: Release):
    """(where the variants come from, whether wheels carry the local tag), by era of the official page."""
    v = version_key(release.version)
    if v >= (2, 0):
        return (lambda tag: f"--index-url {INDEX}/{tag}"), v < (2, 1)
    if v >= (1, 11):
        return (lambda tag: f"--extra-index-url {INDEX}/{tag}"), True
    return (lambda tag: f"-f {INDEX}/torch_stable.html"), True


def index_options(release: Release, p: Pins, evidence: dict | None) -> list[Option]:
    """The download.pytorch.org variants (CPU, each CUDA, each ROCm) of the sources, in the era's form."""
    compat = release.compat
    if compat is None or version_key(release.version) < (1, 2):
        return []
    where, local = _index_form(release)
    vision, audio = (p.vision.version if p.vision else None), (p.audio.version if p.audio else None)
    experimental = {v for claim in compat.primary("cuda") for v in claim.experimental}
    plain_cuda = default_cuda(release, evidence, p.patch) or next(
        iter(compat.versions("pypi_cuda", patch=p.patch)), None
    )

    def command(tag: str) -> str:
        return f"pip install {_packages(p.patch, vision, audio, tag if local else None)} {where(tag)}"

    out = [Option("pip", "cpu", command("cpu"), INDEX_SYSTEMS)]
    for cuda in compat.versions("cuda", patch=p.patch, channel="pip"):
        if cuda == plain_cuda and version_key(release.version) < (1, 11):
            continue  # before 1.11 that build is only the plain PyPI one
        out.append(Option("pip", f"cuda-{cuda}", command(cuda_tag(cuda)), INDEX_SYSTEMS, cuda in experimental))
    out += [
        Option("pip", f"rocm-{rocm}", command(rocm_tag(rocm)), ROCM_SYSTEMS)
        for rocm in compat.versions("rocm", patch=p.patch, channel="pip")
    ]
    return out


def conda_options(release: Release, p: Pins) -> list[Option]:
    """Conda commands where PyTorch's channel still has the packages (1.5.1 – 2.5)."""
    if version_key(p.patch) < (1, 5, 1) or version_key(release.version) > (2, 5) or release.compat is None:
        return []
    packages = _packages(p.patch, p.conda_vision, p.conda_audio, conda=True)
    out = [
        Option("conda", "default", f"conda install {packages} -c pytorch", MACOS),
        Option("conda", "cpu", f"conda install {packages} cpuonly -c pytorch", INDEX_SYSTEMS),
    ]
    for cuda in release.compat.versions("cuda", patch=p.patch, channel="conda", experimental=False):
        if version_key(release.version) >= (1, 13):
            command = f"conda install {packages} pytorch-cuda={cuda} -c pytorch -c nvidia"
        else:
            forge = any(c.channel == "conda" and cuda in c.values for c in release.compat.primary("cuda"))
            command = f"conda install {packages} cudatoolkit={cuda} -c pytorch" + (" -c conda-forge" if forge else "")
        out.append(Option("conda", f"cuda-{cuda}", command, INDEX_SYSTEMS))
    return out


def pypi_options(p: Pins, commands: dict[str, tuple[PlatformCommand, ...]]) -> list[Option]:
    """The plain PyPI commands of the picker: the release's plain command for every platform where it installs for
    some Python, then, grouped, the command of each platform where it installs for none (platforms.py)."""
    main = plain_command(p)
    out = [Option("pip", "default", main, tuple(s for s, found in commands.items() if found[0].text == main))]
    others: dict[str, list[str]] = {}
    for system, found in commands.items():
        if found[0].text != main:
            others.setdefault(found[0].text, []).append(system)
    out += [Option("pip", "default", text, tuple(systems)) for text, systems in others.items()]
    return [o for o in out if o.systems]


def install_options(
    release: Release, evidence: dict | None, commands: dict[str, tuple[PlatformCommand, ...]] | None = None
) -> tuple[Pins | None, list[Option]]:
    """The pins and every command of the picker: the plain PyPI ones first, then the index variants, then conda.
    `commands`: the platform commands of those pins (computed here when not given)."""
    if version_key(release.version) < (1, 0):
        return None, []
    p = pins(release, evidence)
    if p is None:
        return None, []
    if commands is None:
        commands = all_platform_commands(release, evidence, p)
    return p, pypi_options(p, commands) + index_options(release, p, evidence) + conda_options(release, p)
