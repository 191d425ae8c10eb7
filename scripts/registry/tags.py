"""What a wheel's platform tag and Requires-Python decide about the machine pip installs it on, as pip decides it:
the minimum glibc of a manylinux tag, the minimum macOS of a macosx tag (by `packaging.tags.mac_platforms`, pip's
own rule), the `--platform` values that stand for a machine, and the Python patch releases a Requires-Python
refuses. Pure functions over strings; no evidence, no network.

- manylinux (PEP 600, "Legacy manylinux tags", python/peps peps/pep-0600.rst): `manylinux1` is an alias of
  `manylinux_2_5`, `manylinux2010` of `manylinux_2_12`, `manylinux2014` of `manylinux_2_17`; a `manylinux_X_Y`
  wheel installs where glibc >= X.Y (PEP 513, 571 and 599 defined the three legacy tags).
- macOS: pip accepts a `macosx_X_Y_arch` wheel on the macOS versions whose `mac_platforms(version, arch)` lists
  the tag. From macOS 11 on that list holds only `macosx_N_0` tags, so `macosx_11_1_arm64` (torch 1.8.0's only
  Apple-silicon wheel) is accepted on no macOS at all.
"""

from __future__ import annotations

import re
from functools import cache

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.tags import mac_platforms
from packaging.version import Version

# PEP 600's legacy aliases (the architectures PyPI's torch, torchvision and torchaudio wheels use).
LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}
MANYLINUX_RE = re.compile(r"^manylinux_(\d+)_(\d+)_(?P<arch>.+)$")
LEGACY_RE = re.compile(r"^(?P<name>manylinux1|manylinux2010|manylinux2014)_(?P<arch>.+)$")
MACOSX_RE = re.compile(r"^macosx_(\d+)_(\d+)_(?P<arch>.+)$")
# The machine architecture of each platform of scripts/registry/wheels.py PLATFORMS.
ARCH = {
    "linux-x86_64": "x86_64",
    "linux-aarch64": "aarch64",
    "macos-arm64": "arm64",
    "macos-x86_64": "x86_64",
    "windows": "amd64",
}
# macOS releases a minimum is looked for among, oldest first: 10.6-10.15, then 11-15 and 26 with a few minor
# versions each (pip reads only the major version from 11 on, which the minors prove).
MACOS_RELEASES: tuple[tuple[int, int], ...] = tuple((10, minor) for minor in range(6, 16)) + tuple(
    (major, minor) for major in (11, 12, 13, 14, 15, 26) for minor in range(0, 8)
)
GLIBC_FLOOR = (2, 5)  # manylinux1: no PyPI wheel asks for less
PATCHES = range(0, 31)  # the patch releases a Requires-Python is tried against (CPython 3.x stops below 3.x.30)


def tags_of(platform_tag: str) -> tuple[str, ...]:
    """The tags of a (possibly compressed) platform tag: `a.b` -> ("a", "b")."""
    return tuple(platform_tag.split("."))


def glibc_of(tag: str) -> tuple[int, int] | None:
    """The glibc a manylinux tag needs (PEP 600), None for any other tag."""
    legacy = LEGACY_RE.match(tag)
    if legacy:
        return LEGACY_MANYLINUX[legacy.group("name")]
    match = MANYLINUX_RE.match(tag)
    return (int(match.group(1)), int(match.group(2))) if match else None


def arch_of(tag: str) -> str | None:
    """The CPU architecture a manylinux or macosx tag names; `win_amd64` -> "amd64"; None otherwise."""
    for pattern in (LEGACY_RE, MANYLINUX_RE, MACOSX_RE):
        match = pattern.match(tag)
        if match:
            return match.group("arch")
    return "amd64" if tag == "win_amd64" else None


@cache
def _mac_tags(version: tuple[int, int], arch: str) -> frozenset[str]:
    return frozenset(mac_platforms(version, arch))


def mac_accepts(version: tuple[int, int], arch: str, tag: str) -> bool:
    """Whether pip on macOS `version` (a Python for `arch`) installs a wheel tagged `tag`."""
    return tag in _mac_tags(version, arch)


def macos_floor(tag: str, arch: str) -> tuple[int, int] | None:
    """The oldest macOS (of MACOS_RELEASES) on which pip accepts `tag` for a Python of `arch`; None where none does."""
    return next((version for version in MACOS_RELEASES if mac_accepts(version, arch, tag)), None)


def floor_of(platform_tag: str, platform: str) -> tuple[int, int] | None | bool:
    """What a wheel's platform tag (compressed sets too) needs on one of our platforms: the minimum glibc (Linux)
    or macOS (macOS) as (major, minor); True where it needs nothing more than the platform (Windows, or a pure
    `any` wheel); False where pip never installs it there."""
    arch = ARCH[platform]
    floors: list[tuple[int, int]] = []
    for tag in tags_of(platform_tag):
        if tag == "any":
            return True  # a pure wheel: every platform, every OS version
        if platform.startswith("linux"):
            glibc = glibc_of(tag)
            if glibc is not None and arch_of(tag) == arch:
                floors.append(glibc)
        elif platform.startswith("macos"):
            macos = macos_floor(tag, arch)
            if macos is not None:
                floors.append(macos)
        elif tag == "win_amd64":
            return True
    return min(floors) if floors else False


def version_text(version: tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"


def parse_version(text: str) -> tuple[int, int]:
    major, minor = text.split(".")
    return int(major), int(minor)


def pip_platforms(platform: str, floor: tuple[int, int] | None) -> list[str]:
    """`--platform` values that make pip stand for a machine of `platform` at `floor` (its glibc or macOS): every
    manylinux tag up to that glibc with PEP 600's legacy aliases (pip does not expand `manylinux_X_Y` itself), the
    macosx tag of that version (pip expands it like mac_platforms), or `win_amd64`."""
    arch = ARCH[platform]
    if platform == "windows":
        return ["win_amd64"]
    if platform.startswith("macos"):
        major, minor = floor or (11, 0)
        return [f"macosx_{major}_{minor if major == 10 else 0}_{arch}"]
    top = floor or (2, 28)
    tags = [f"manylinux_2_{minor}_{arch}" for minor in range(top[1], GLIBC_FLOOR[1] - 1, -1)]
    tags += [f"{name}_{arch}" for name, glibc in LEGACY_MANYLINUX.items() if glibc <= top]
    return tags


# --- Requires-Python -----------------------------------------------------------------------------------------


def specifier(requires_python: str | None) -> SpecifierSet | None:
    """A Requires-Python as packaging reads it; None for none. A malformed one is a ValueError."""
    if requires_python is None or not requires_python.strip():
        return None
    try:
        return SpecifierSet(requires_python)
    except InvalidSpecifier as exc:
        raise ValueError(f"not a Requires-Python: {requires_python!r}") from exc


@cache
def refused_patches(requires_python: str | None, python: str) -> tuple[int, ...]:
    """The patch releases of a Python minor version ("3.14", "3.14t") that a Requires-Python refuses:
    `!=3.14.1` -> (1,) for 3.14; `>=3.6.2` -> (0, 1) for 3.6. Every patch of PATCHES refused means the minor
    version is refused."""
    spec = specifier(requires_python)
    if spec is None:
        return ()
    minor = python.rstrip("t")
    return tuple(p for p in PATCHES if not spec.contains(Version(f"{minor}.{p}"), prereleases=True))


def admits(requires_python: str | None, python: str) -> bool:
    """Whether a Requires-Python admits at least one patch release of the minor version `python`."""
    return len(refused_patches(requires_python, python)) < len(PATCHES)


def first_patch(refused: tuple[int, ...]) -> int:
    """The lowest patch release not refused (what a resolver stands for when asked for the minor version)."""
    return next(p for p in PATCHES if p not in refused)
