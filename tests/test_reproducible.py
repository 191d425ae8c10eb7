"""Gate: two clean builds of the same commit are byte-identical, hosted site and offline zip alike.

The second build runs from a copy of the project in another directory (fresh file times, another path)
with SOURCE_DATE_EPOCH set to another day, so anything that leaks the clock, file times, the checkout
path or directory order into the output shows up as a differing file.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import copy_project, mkdocs_build

from scripts.tools.offline import ZIP_PATH, build_offline_zip

ANOTHER_DAY = {"SOURCE_DATE_EPOCH": "946684800"}  # 2000-01-01: a build "on another day"


def digests(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def second_project(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("second-clone") / "project")


@pytest.mark.slow
def test_hosted_build_is_byte_identical(built_site, second_project, tmp_path):
    again = tmp_path / "site"
    result = mkdocs_build(second_project, again, env=ANOTHER_DAY)
    assert result.returncode == 0, result.stderr
    first = {k: v for k, v in digests(built_site).items() if not k.startswith("downloads/")}
    second = digests(again)
    assert sorted(first) == sorted(second), f"different file sets: {sorted(set(first) ^ set(second))[:10]}"
    differing = [name for name in first if first[name] != second[name]]
    assert differing == [], f"files that differ between two builds of one commit: {differing[:10]}"


@pytest.mark.slow
def test_offline_zip_is_byte_identical(built_site, offline_copy, second_project, tmp_path, monkeypatch):
    first = (built_site / ZIP_PATH).read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", ANOTHER_DAY["SOURCE_DATE_EPOCH"])
    second = build_offline_zip(second_project, tmp_path).read_bytes()
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest()


def test_sitemap_gzip_carries_no_timestamp(built_site):
    header = (built_site / "sitemap.xml.gz").read_bytes()[:10]
    assert header[:2] == b"\x1f\x8b" and header[4:8] == b"\0\0\0\0", "gzip MTIME must be 0"
