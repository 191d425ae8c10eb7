"""Pure helpers over PyPI's answers: wheel file names and tags (CPython version, platform), a release's record of
wheels per platform, yanked flags and first upload, and a library's Requires-Dist on torch. No network here
(scripts/registry/pypi.py asks); the platforms named here are the ones every verdict answers for.
"""

from __future__ import annotations

import re

from scripts.catalog.compat import PLATFORMS as PLATFORMS  # the catalog's list, read here by verdicts and checks
from scripts.catalog.compat import python_key

PACKAGES = ("torch", "torchvision", "torchaudio")
MAIN_PLATFORM = "linux-x86_64"  # the platform of the release pipeline's first wheels, and of most readers' servers
WHEEL_RE = re.compile(
    r"^(?P<name>[^-]+)-(?P<version>[^-]+)(-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<platform>[^-]+)\.whl$"
)
RELEASE_RE = re.compile(r"^\d+\.\d+\.\d+$")
TORCH_REQUIREMENT_RE = re.compile(r"^torch(?![\w-])")
PIN_RE = re.compile(r"^torch\s*\(?\s*==\s*([0-9][0-9.]*?)(?:\.\*)?\s*\)?\s*(;.*)?$")
FLOOR_RE = re.compile(r"^torch\s*\(?\s*>=\s*([0-9][0-9.]*)")
VERSION_PY_CUDA_RE = re.compile(r"^cuda\s*(?::\s*Optional\[str\])?\s*=\s*(?:'([^']*)'|\"([^\"]*)\"|None)", re.M)


def requires_of(metadata: str) -> list[str]:
    return [line.split(":", 1)[1].strip() for line in metadata.split("\n") if line.startswith("Requires-Dist:")]


def cuda_of_version_py(text: str) -> str | None:
    """`cuda = '12.8'` in torch/version.py -> "12.8"; a CPU build (`cuda = None`) -> None."""
    match = VERSION_PY_CUDA_RE.search(text)
    value = (match.group(1) or match.group(2) or None) if match else None
    return ".".join(value.split(".")[:2]) if value else None  # 1.0 wrote '9.0.176': the toolkit's major.minor


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


def wheel_match(filename: str) -> re.Match[str]:
    """The parts of a wheel file name (WHEEL_RE); a name that is not one is a ValueError."""
    match = WHEEL_RE.match(filename)
    if match is None:
        raise ValueError(f"not a wheel file name: {filename}")
    return match


def wheel_platform(filename: str) -> str:
    """The platform (PLATFORMS, or the tag itself) a wheel file is for."""
    return platform_of(wheel_match(filename).group("platform").split(".")[0])


def pythons_of(filename: str) -> list[str]:
    """The CPython versions a wheel installs on: one for `cp312`, "py3" for a `py3-none` wheel (any Python 3),
    "py2"/"py3" for a `py2.py3` one."""
    match = wheel_match(filename)
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
        platform = wheel_platform(f["filename"])
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
