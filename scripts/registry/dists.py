"""The files of a release as pip decides by them: `dists`, one group per platform tag, build tag, Requires-Python
and yanked flag in the registry evidence, each listing its files' Python/ABI tags. Written by `dist_groups` from
PyPI's simple index (PEP 691 JSON gives each file's `requires-python`), read back by `dists_of`, and turned into
what pip installs on one platform (`installable`): per Python version, the oldest glibc or macOS it needs, the build
tag pip prefers (2.10.0 has re-uploaded `-2`/`-3` builds; of two files with one tag pip takes the higher build)
and the Python patch releases Requires-Python refuses. Pure functions; scripts/registry/tags.py holds the tag rules.

A group in docs/.pypi-evidence.json (keys sorted, optional keys left out when empty):

    {"build": "3", "platform": "manylinux_2_28_x86_64", "python": "cp310-cp310 cp313-cp313t",
     "requires_python": ">=3.10", "yanked": true}
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scripts.catalog.compat import python_key
from scripts.registry.tags import admits, floor_of, refused_patches, specifier
from scripts.registry.wheels import WHEEL_RE, python_of

BUILD_RE = re.compile(r"^(\d+)(.*)$")
PAIR_RE = re.compile(r"^[A-Za-z0-9_.]+-[A-Za-z0-9_.]+$")
GROUP_KEYS = ("build", "platform", "python", "requires_python", "yanked")
PURE = ("py2", "py3")


@dataclass(frozen=True)
class Dist:
    """Files of one release that share a platform tag, build tag, Requires-Python and yanked flag."""

    platform: str  # as in the file names; a compressed set stays "a.b"
    pairs: tuple[str, ...]  # "{python tag}-{abi tag}" of each file: "cp310-cp310", "cp313-none", "py3-none"
    build: str | None = None
    requires_python: str | None = None
    yanked: bool = False

    def pythons(self) -> dict[str, str]:
        """{Python version: pair}: "3.13t" for cp313-cp313t, "3.10" for cp310-none, "py3" for a pure py3 wheel."""
        out: dict[str, str] = {}
        for pair in self.pairs:
            py, abi = pair.split("-")
            one = python_of(abi, py)
            for version in [one] if one else [p for p in py.split(".") if p in PURE]:
                out.setdefault(version, pair)
        return out


def build_key(build: str | None) -> tuple[int, str]:
    """Order of build tags (PEP 427: a number, then text); no build tag sorts first."""
    match = BUILD_RE.match(build or "")
    return (int(match.group(1)), match.group(2)) if match else (-1, "")


# --- writing the evidence ------------------------------------------------------------------------------------


def dist_groups(files: list[dict]) -> list[dict]:
    """The `dists` of one release from its simple-index entries (wheels only), compact and in a fixed order."""
    grouped: dict[tuple, list[str]] = {}
    for entry in files:
        match = WHEEL_RE.match(entry.get("filename", ""))
        if not match:
            continue
        build = entry["filename"].split("-")[2] if entry["filename"].count("-") == 5 else None
        requires = entry.get("requires-python") or None
        key = (match.group("platform"), build, requires, bool(entry.get("yanked")))
        grouped.setdefault(key, []).append(f"{match.group('py')}-{match.group('abi')}")
    out = []
    for (platform, build, requires, yanked), pairs in grouped.items():
        group: dict = {"platform": platform, "python": " ".join(sorted(set(pairs), key=_pair_key))}
        if build is not None:
            group["build"] = build
        if requires is not None:
            group["requires_python"] = requires
        if yanked:
            group["yanked"] = True
        out.append(group)
    return sorted(
        out,
        key=lambda g: (
            g["platform"],
            build_key(g.get("build")),
            g.get("requires_python") or "",
            g.get("yanked", False),
            g["python"],
        ),
    )


def _pair_key(pair: str) -> tuple:
    py, abi = pair.split("-")
    one = python_of(abi, py)
    return (python_key(one) if one else (0, 0, False), pair)


# --- reading it back ------------------------------------------------------------------------------------------


def group_problem(group) -> tuple[str | None, str] | None:
    """(the key at fault, why) where a `dists` group is not one (the evidence loader adds file and line), or None."""
    if not isinstance(group, dict):
        return None, "a dists entry is an object with platform, python (and build, requires_python, yanked)"
    unknown = sorted(set(group) - set(GROUP_KEYS))
    if unknown:
        return unknown[0], f"unknown key '{unknown[0]}' in a dists entry (allowed: {', '.join(GROUP_KEYS)})"
    if not isinstance(group.get("platform"), str) or not re.fullmatch(r"[a-z0-9_.]+", group["platform"]):
        return "platform", "a dists entry needs 'platform', a wheel platform tag such as manylinux_2_28_x86_64"
    python = group.get("python")
    if not isinstance(python, str) or not python or not all(PAIR_RE.match(p) for p in python.split(" ")):
        return (
            "python",
            "'python' of a dists entry is the files' python-abi tags, space-separated (cp310-cp310 cp311-cp311)",
        )
    if "build" in group and not (isinstance(group["build"], str) and BUILD_RE.match(group["build"])):
        return "build", f"'build' of a dists entry is a wheel build tag starting with a digit, not {group['build']!r}"
    if "requires_python" in group:
        try:
            specifier(group["requires_python"] if isinstance(group["requires_python"], str) else "<")
        except ValueError:
            return (
                "requires_python",
                f"'requires_python' of a dists entry is not a Requires-Python: {group['requires_python']!r}",
            )
    if "yanked" in group and group["yanked"] is not True:
        return "yanked", "'yanked' of a dists entry is true or left out"
    return None


def dists_of(record: dict) -> tuple[Dist, ...]:
    """The `dists` of a release record (none for a record written before the field existed)."""
    return tuple(
        Dist(
            platform=g["platform"],
            pairs=tuple(g["python"].split(" ")),
            build=g.get("build"),
            requires_python=g.get("requires_python"),
            yanked=bool(g.get("yanked")),
        )
        for g in record.get("dists", ())
    )


@dataclass(frozen=True)
class Installable:
    """What pip installs of one release for one Python version on one platform."""

    python: str  # "3.12", "3.13t", or "py3" for a pure wheel (any Python 3)
    floor: tuple[int, int] | None  # oldest glibc (Linux) or macOS (macOS) it needs; None on Windows
    build: str | None  # the build tag pip prefers on an up-to-date machine (None: no build tag)
    requires_python: str | None
    refused: tuple[int, ...]  # patch releases of `python` its Requires-Python refuses (for "py3": ask refused_patches)


def installable(record: dict, platform: str) -> dict[str, Installable]:
    """{Python version: Installable} of a release on one platform, from its `dists`: live files only (a release
    whose every file is yanked keeps them all: pip still installs it when pinned exactly). A file pip accepts on no
    version of the platform (macosx_11_1_arm64) counts for nothing."""
    dists = dists_of(record)
    live = [d for d in dists if not d.yanked] or list(dists)
    found: dict[str, list[tuple[tuple[int, int] | None, Dist]]] = {}
    for dist in live:
        floor = floor_of(dist.platform, platform)
        if floor is False:
            continue
        for version in dist.pythons():
            if version in PURE or admits(dist.requires_python, version):
                found.setdefault(version, []).append((None if floor is True else floor, dist))
    out = {}
    for version, options in found.items():
        floors = [f for f, _ in options if f is not None]
        # On an up-to-date machine pip takes the most specific tag (the newest floor), then the highest build.
        _, chosen = max(options, key=lambda o: (o[0] or (0, 0), build_key(o[1].build)))
        refused = () if version in PURE else refused_patches(chosen.requires_python, version)
        out[version] = Installable(
            version, min(floors) if floors else None, chosen.build, chosen.requires_python, refused
        )
    return dict(sorted(out.items(), key=lambda item: python_key(item[0])))
