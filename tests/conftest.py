"""Shared fixtures: one real build of the site per test session, and copies of the project for bad input."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# What a build needs besides docs/: copied into temp projects so a test can change any of it.
PROJECT_PARTS = ("mkdocs.yml", "overrides", "scripts")


def mkdocs_build(
    project: Path, site_dir: Path, *extra_args: str, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run a real `mkdocs build --strict` in `project`, the way `make build` does."""
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir), *extra_args],
        cwd=project,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def edit(project: Path, rel: str, old: str, new: str) -> None:
    """Replace the first `old` in project/rel with `new`; the test fails if `old` is not there."""
    path = project / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {rel}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def copy_project(dest: Path, docs: Path | None = None) -> Path:
    """A throwaway copy of the project; docs/ comes from `docs` (default: the real docs)."""
    dest.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / part)
    shutil.copytree(docs or ROOT / "docs", dest / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    # Fixture docs hold only pages; the site's own assets (CSS, vendored JS) come from the real docs.
    if docs is not None and (ROOT / "docs" / "assets").is_dir():
        shutil.copytree(ROOT / "docs" / "assets", dest / "docs" / "assets", dirs_exist_ok=True)
    return dest


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real site, built once per session from the real docs into a temp dir."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site)
    assert result.returncode == 0, f"mkdocs build failed:\n{result.stdout}\n{result.stderr}"
    return site


@pytest.fixture(scope="session")
def catalog():
    from scripts.catalog.loader import load_catalog

    return load_catalog(ROOT / "docs")


@pytest.fixture(scope="session")
def verdicts(catalog):
    """The real catalog's verdicts (scripts/verdicts/compute.py), decided once from the committed evidence."""
    from scripts.registry.evidence import evidence_of
    from scripts.verdicts.compute import verdicts_of

    return verdicts_of(catalog, evidence_of(ROOT / "docs"))


@pytest.fixture
def fixture_project(tmp_path) -> Path:
    """The project with a small, valid two-release docs/ (tests/fixtures/site) that tests may break."""
    project = copy_project(tmp_path / "project", docs=FIXTURES / "site")
    return project


@pytest.fixture(scope="session")
def playwright_instance():
    from browser import chromium_available

    if not chromium_available():
        pytest.fail("Debian chromium is not installed: run `make chromium` (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def served_site(built_site):
    """The built site over HTTP on a loopback port, as readers get it."""
    from browser import serve_directory

    with serve_directory(built_site) as base_url:
        yield base_url


@pytest.fixture(scope="session")
def offline_copy(built_site, tmp_path_factory) -> Path:
    """The offline zip, built the way `make build` does, unpacked into a temp dir; yields its top folder."""
    import zipfile

    from scripts.tools.offline import TOP_FOLDER, build_offline_zip

    zip_path = build_offline_zip(ROOT, built_site)
    unpacked = tmp_path_factory.mktemp("offline")
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(unpacked)
    return unpacked / TOP_FOLDER


# `make test` runs two workers that each take whole files (--dist loadfile), in collection order. The longest
# files go first (measured: the sum of their tests' times in a full run), so the two workers end together rather
# than one idling while the other runs a long file collected last. Only the order changes; every test runs.
LONGEST_FIRST = (
    "test_a11y.py",
    "test_search_browser.py",
    "test_release_page_browser.py",
    "test_install_resolver.py",
    "test_snippets_cli.py",
    "test_site.py",
    "test_bad_input.py",
    "test_snippets_hostile.py",
    "test_views_browser.py",
    "test_no_foreign_requests.py",
    "test_release_page.py",
    "test_snippets_checkers.py",
    "test_views.py",
    "test_answers_browser.py",
    "test_machine_page_browser.py",
    "test_matrix_browser.py",
)


def pytest_collection_modifyitems(items):
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file's tests stay in order
