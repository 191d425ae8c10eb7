"""The verdicts of a catalog, computed once: `verdicts_of(catalog, evidence)` asks every decision of rules.py and
install.py about every release and keeps the answers in the frozen records of model.py; `cached_verdicts(docs_dir)`
is what the build's hooks hand to the views (recomputed only when the catalog or the evidence file changed)."""

from __future__ import annotations

import os
from pathlib import Path

from scripts.catalog.hardware.model import Hardware
from scripts.catalog.loader import cached_catalog
from scripts.catalog.model import Catalog, Release, version_key
from scripts.registry.evidence import EVIDENCE_FILE, evidence_of
from scripts.verdicts.hardware import machine_verdict
from scripts.verdicts.install import install_options, plain_command
from scripts.verdicts.install import pins as install_pins
from scripts.verdicts.machine import machine_page
from scripts.verdicts.model import RegistryChange, ReleaseVerdict, Verdicts
from scripts.verdicts.platforms import all_platform_commands, no_wheels
from scripts.verdicts.registry_changes import registry_change
from scripts.verdicts.rules import (
    command_verdict,
    install_patch,
    library_pins,
    pending,
    pypi_builds,
    pypi_minors,
    pypi_systems,
    python_verdict,
    recorded_wheels,
)

LIBRARIES = ("torchvision", "torchaudio")


def release_verdict(
    release: Release, evidence: dict | None, hardware: Hardware | None = None, previous: Release | None = None
) -> ReleaseVerdict:
    """Every answer about one release (see ReleaseVerdict); `hardware`: the catalog's machine facts; `previous`,
    the release before it, for what PyPI's files say changed since."""
    patch = install_patch(release, evidence)
    since: RegistryChange | None = None
    if previous is not None:
        since = registry_change(evidence, previous.version, install_patch(previous, evidence), patch)
    patch_python = python_verdict(release, evidence, patch)
    found = install_pins(release, evidence) if version_key(release.version) >= (1, 0) else None
    commands = all_platform_commands(release, evidence, found) if found and evidence else {}
    pins, options = install_options(release, evidence, commands)
    return ReleaseVerdict(
        version=release.version,
        python=python_verdict(release, evidence),
        patch=patch,
        patch_python=patch_python,
        builds=pypi_builds(release, evidence, patch),
        systems=pypi_systems(evidence, patch),
        wheels=recorded_wheels(evidence, patch),
        library_pins={name: library_pins(release, evidence, name) for name in LIBRARIES},
        pins=pins,
        options=tuple(options),
        command=command_verdict(evidence, pins, patch_python, plain_command(pins)) if pins else None,
        no_wheels=no_wheels(evidence, pins.patch, set(commands), release.patches) if pins else (),
        machine=machine_verdict(release, evidence, hardware, commands, tuple(options)) if evidence else None,
        since_previous=since,
    )


def verdicts_of(catalog: Catalog, evidence: dict | None) -> Verdicts:
    """The verdicts of every release of the catalog, and of the registry as a whole (None: no evidence file)."""
    releases = {
        release.version: release_verdict(release, evidence, catalog.hardware, previous)
        for release, previous in zip(catalog.releases, [*catalog.releases[1:], None], strict=True)
    }
    return Verdicts(
        releases=releases,
        checked=evidence["checked"] if evidence else None,
        pending=pending(catalog, evidence),
        pypi_minors=pypi_minors(evidence),
        machine_page=machine_page(catalog, releases, evidence),
    )


_CACHE: dict[str, tuple[tuple | None, Catalog, Verdicts]] = {}


def cached_verdicts(docs_dir: Path | str) -> Verdicts:
    """verdicts_of the docs folder's catalog (cached_catalog) and evidence (docs/.pypi-evidence.json), memoised on
    that catalog and the evidence file's modification time and size: static-i18n runs a build per language and
    every hook of every page asks, and nothing changed in between."""
    docs_dir = Path(docs_dir)
    catalog = cached_catalog(docs_dir)
    path = docs_dir / EVIDENCE_FILE
    status = path.stat() if path.is_file() else None
    stamp = (status.st_mtime_ns, status.st_size) if status else None
    key = os.path.abspath(docs_dir)  # a key only: no system call to resolve links
    hit = _CACHE.get(key)
    if hit and hit[0] == stamp and hit[1] is catalog:
        return hit[2]
    verdicts = verdicts_of(catalog, evidence_of(docs_dir))
    _CACHE[key] = (stamp, catalog, verdicts)
    return verdicts
