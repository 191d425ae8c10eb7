"""What PyPI's files say changed between two releases: the platforms with torch wheels, the CPython versions of
each platform's wheels and the CUDA build of each platform's wheel, install patch against install patch. A fact
of the registry, computed from the evidence (never typed), so a provisional release can say what changed before
its post exists."""

from __future__ import annotations

from scripts.catalog.compat import python_key
from scripts.registry.wheels import PLATFORMS
from scripts.verdicts.model import RegistryChange, RegistryDelta


def _pythons(values) -> tuple[str, ...]:
    return tuple(sorted((v for v in values if v not in ("py2", "py3")), key=python_key))


def _record(evidence: dict, patch: str) -> dict:
    return evidence.get("torch", {}).get(patch, {})


def registry_change(evidence: dict | None, previous: str, previous_patch: str | None, patch: str | None):
    """The RegistryChange from `previous` (its install patch `previous_patch`) to `patch`; None where the evidence
    lacks either patch's wheels."""
    if not evidence or not previous_patch or not patch:
        return None
    before, now = _record(evidence, previous_patch), _record(evidence, patch)
    if not before.get("wheels") or not now.get("wheels"):
        return None
    wheels_before, wheels_now = before["wheels"], now["wheels"]
    platforms = [p for p in PLATFORMS if p in wheels_before or p in wheels_now]
    deltas = [
        RegistryDelta(
            "platforms",
            None,
            tuple(p for p in PLATFORMS if wheels_before.get(p)),
            tuple(p for p in PLATFORMS if wheels_now.get(p)),
        )
    ]
    deltas += [
        RegistryDelta("python", p, _pythons(wheels_before.get(p, ())), _pythons(wheels_now.get(p, ())))
        for p in platforms
    ]
    cuda_before, cuda_now = before.get("cuda") or {}, now.get("cuda") or {}
    for p in platforms:
        if p in cuda_before or p in cuda_now:  # recorded: a version, or None for a CPU build
            deltas.append(
                RegistryDelta(
                    "cuda",
                    p,
                    (cuda_before[p],) if cuda_before.get(p) else (),
                    (cuda_now[p],) if cuda_now.get(p) else (),
                )
            )
    return RegistryChange(previous, previous_patch, patch, tuple(deltas))
