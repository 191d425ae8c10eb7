"""The plain pip commands of a release on each platform, decided for every package in them: where the release's
plain command installs for some Python versions but not others (torchvision 0.8.2 has no Windows wheel; torchvision
0.20.1 and torchaudio 2.5.1 no cp313 one), the command that does install is found in this order:

1. the plain command itself;
2. another release of a library's line whose Requires-Dist admits the torch patch and that has the wheel;
3. another torch patch of the release with its own pairings (1.9.1 has no Apple-silicon wheel, 1.9.0 has;
   torch 1.10.1 with torchvision 0.11.2 and torchaudio 0.10.1 where 1.10.2's libraries have no cp36 wheel);
4. the torch patch without the libraries that have no wheel.

Each command's Python versions come from rules.command_pythons_on (a wheel pip accepts for every package). Pure
functions of a release, its pins and the evidence; compute.py keeps the answers in the model.
"""

from __future__ import annotations

from scripts.catalog.compat import python_key
from scripts.catalog.model import Release
from scripts.registry.dists import dists_of
from scripts.registry.tags import floor_of
from scripts.registry.wheels import PLATFORMS, version_key, wheel_platform
from scripts.verdicts.model import NoWheel, Pins, PlatformCommand, PythonOn
from scripts.verdicts.rules import accepts, command_pythons_on, installs, library_pin, on_pypi, platform_range

LIBRARIES = ("torchvision", "torchaudio")


def pip_command(pins: dict[str, str]) -> str:
    """`pip install torch==X torchvision==Y torchaudio==Z` (the packages in that order)."""
    ordered = [name for name in ("torch",) + LIBRARIES if name in pins]
    return "pip install " + " ".join(f"{name}=={pins[name]}" for name in ordered)


def _torch_pythons(evidence: dict | None, patch: str, platform: str) -> list[str]:
    return [p for p in installs(evidence, "torch", patch, platform) if not p.startswith("py")]


def _live_patches(release: Release, evidence: dict | None) -> list[str]:
    """The release's patches on PyPI and not yanked, newest first."""
    torch = (evidence or {}).get("torch", {})
    return [p for p in reversed(on_pypi(release, evidence)) if not torch[p].get("yanked")]


def _pairings(release: Release, evidence: dict | None, patch: str, like: dict[str, str]) -> dict[str, str]:
    """torch `patch` with the libraries the sources pair with it (those `like` pins)."""
    out = {"torch": patch}
    for name in LIBRARIES:
        if name in like:
            pin = library_pin(release, evidence, name, patch)
            if pin:
                out[name] = pin.version
    return out


def _same_line(evidence: dict | None, name: str, version: str, torch: str) -> list[str]:
    """Other releases of a library's minor line that admit torch `torch` and are not yanked: the next ones after
    `version` first (oldest first), then the earlier ones (newest first)."""
    records = (evidence or {}).get(name, {})
    line = version_key(version)[:2]
    same = [
        v
        for v, r in records.items()
        if v != version and version_key(v)[:2] == line and not r.get("yanked") and accepts(r.get("requires", []), torch)
    ]
    later = sorted((v for v in same if version_key(v) > version_key(version)), key=version_key)
    earlier = sorted((v for v in same if version_key(v) < version_key(version)), key=version_key, reverse=True)
    return later + earlier


class _Cover:
    """The commands chosen so far for one platform, and the Python versions still without one."""

    def __init__(
        self, evidence: dict | None, platform: str, main: dict[str, str], base: dict[str, str], wanted: list[str]
    ):
        self.evidence, self.platform, self.main, self.base = evidence, platform, main, base
        self.remaining = list(wanted)
        self.commands: list[PlatformCommand] = []

    def offer(self, pins: dict[str, str], why: str) -> None:
        if not self.remaining:
            return
        text = pip_command(pins)
        if any(c.text == text for c in self.commands):
            return
        covered = [p for p in command_pythons_on(self.evidence, pins, self.platform) if p.version in self.remaining]
        if not covered:
            return
        self.remaining = [v for v in self.remaining if v not in {p.version for p in covered}]
        self.commands.append(
            PlatformCommand(
                text, tuple(pins.items()), tuple(covered), why, self._lacking(covered) if why != "main" else ()
            )
        )

    def _lacking(self, covered: tuple[PythonOn, ...] | list[PythonOn]) -> tuple[tuple[str, str], ...]:
        """The main command's packages that have no wheel for (some of) these Python versions here."""
        out = []
        for name, version in self.main.items():
            found = installs(self.evidence, name, version, self.platform)
            pure = any(p.startswith("py") for p in found)
            if not pure and any(p.version not in found for p in covered):
                out.append((name, version))
        return tuple(out)

    def lacking_libraries(self) -> list[str]:
        """The libraries of the base command (the main one, or another patch's) without a wheel for some remaining
        Python."""
        return [name for name, version in self.base.items() if name != "torch" and self._misses(name, version)]

    def _misses(self, name: str, version: str) -> bool:
        found = installs(self.evidence, name, version, self.platform)
        return not any(p.startswith("py") for p in found) and any(p not in found for p in self.remaining)


def platform_commands(
    release: Release, evidence: dict | None, pins: Pins, platform: str
) -> tuple[PlatformCommand, ...]:
    """The commands that install the release on `platform`, the plain command first where it installs at all;
    () where no torch patch of the release has a wheel pip accepts there."""
    main = pins.as_dict()
    patches = _live_patches(release, evidence)
    wanted = _torch_pythons(evidence, pins.patch, platform)
    base = main
    if not wanted:
        other = next((p for p in patches if p != pins.patch and _torch_pythons(evidence, p, platform)), None)
        if other is None:
            return ()
        base = _pairings(release, evidence, other, main)
        wanted = _torch_pythons(evidence, other, platform)
    cover = _Cover(evidence, platform, main, base, sorted(wanted, key=python_key))
    cover.offer(base, "main" if base is main else "patch")
    for name in cover.lacking_libraries():
        for version in _same_line(evidence, name, base[name], base["torch"]):
            cover.offer({**base, name: version}, "library")
    for patch in patches:
        if patch != base["torch"]:
            cover.offer(_pairings(release, evidence, patch, main), "patch")
    for python in list(cover.remaining):
        keep = {"torch": base["torch"]}
        for name in LIBRARIES:
            if name in base:
                found = installs(evidence, name, base[name], platform)
                if python in found or any(p.startswith("py") for p in found):
                    keep[name] = base[name]
        cover.offer(keep, "without")
    return tuple(cover.commands)


def all_platform_commands(
    release: Release, evidence: dict | None, pins: Pins
) -> dict[str, tuple[PlatformCommand, ...]]:
    """platform_commands of every platform that has one, in PLATFORMS order."""
    out = {}
    for platform in PLATFORMS:
        commands = platform_commands(release, evidence, pins, platform)
        if commands:
            out[platform] = commands
    return out


def unusable_wheels(evidence: dict | None, patches, system: str) -> tuple[tuple[str, str], ...]:
    """(patch, platform tag) of wheels of these torch patches for `system` that pip accepts on no version of it
    (torch 1.8.0's macosx_11_1_arm64)."""
    out = []
    for patch in patches:
        for dist in dists_of((evidence or {}).get("torch", {}).get(patch, {})):
            if (
                wheel_platform(f"x-0-py3-none-{dist.platform}.whl") == system
                and floor_of(dist.platform, system) is False
            ):
                out.append((patch, dist.platform))
    return tuple(dict.fromkeys(out))


def no_wheels(evidence: dict | None, patch: str, covered: set[str], patches=()) -> tuple[NoWheel, ...]:
    """Every platform no command of the release installs on (`covered`: those some command does), with where its
    wheels are and the release's wheels there that pip never installs (of `patches`); none without evidence."""
    if not evidence:
        return ()
    out = []
    for system in PLATFORMS:
        if system in covered:
            continue
        first, last = platform_range(evidence, system)
        unusable = unusable_wheels(evidence, patches, system)
        if first is None:
            out.append(NoWheel(system, "never", None, unusable))
        elif version_key(patch) < version_key(first):
            out.append(NoWheel(system, "before", first, unusable))
        else:
            out.append(NoWheel(system, "after", last, unusable))
    return tuple(out)
