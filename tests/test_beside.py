"""The build's helper process (scripts/checks/beside.py): jobs run in another process, their errors and the
helper's death come back to the caller, and a build whose checks ran there refuses what it refused before, every
refused page at once, before anything is written."""

from __future__ import annotations

import os
from concurrent.futures.process import BrokenProcessPool

import pytest
from conftest import edit, mkdocs_build

from scripts.checks import beside


@pytest.fixture(params=["helper", "inline"])
def mode(request, monkeypatch):
    if request.param == "inline":
        monkeypatch.setenv(beside.BESIDE_ENV, "0")
    else:
        monkeypatch.delenv(beside.BESIDE_ENV, raising=False)
    return request.param


def test_a_job_runs_in_the_helper_process_unless_told_to_run_inline(mode):
    elsewhere = beside.submit(os.getpid).result(timeout=120) != os.getpid()
    assert elsewhere is (mode == "helper")
    assert beside.submit(sorted, [3, 1, 2], reverse=True).result(timeout=120) == [3, 2, 1]


def test_a_job_that_raises_raises_where_its_answer_is_read(mode):
    future = beside.submit(int, "not a number")
    with pytest.raises(ValueError, match="not a number"):
        future.result(timeout=120)


def test_a_dead_helper_fails_its_job_and_the_next_job_gets_a_new_helper(monkeypatch):
    monkeypatch.delenv(beside.BESIDE_ENV, raising=False)
    first = beside.submit(os.getpid).result(timeout=120)
    with pytest.raises(BrokenProcessPool):
        beside.submit(os._exit, 3).result(timeout=120)
    second = beside.submit(os.getpid).result(timeout=120)
    assert second not in (first, os.getpid())


def _refusals(output: str) -> list[str]:
    """The `docs/…` lines of a refused build's output (MkDocs puts the first after its log level)."""
    return sorted(line[line.index("docs/") :] for line in output.splitlines() if "docs/" in line)


CASES = {
    # The content check (before a page renders): a reserved id on a Chinese and on an English page. One build
    # names both, whichever language it is building.
    "content": (
        ("docs/releases/1.6.md", "测试页面。", "测试页面。\n\n## 数据 { #compare-data }\n", "compare-data"),
        ("docs/index.en.md", "<!-- timeline -->", "<!-- timeline -->\n\n## Data { #compare-data }", "compare-data"),
    ),
    # The body check (the rendered page): a raw <iframe> on two pages of one language.
    "body": (
        ("docs/releases/1.6.md", "测试页面。", "测试页面。\n\n<iframe></iframe>\n", "<iframe>"),
        ("docs/releases/1.5.md", "说明文字。", "说明文字。\n\n<iframe></iframe>\n", "<iframe>"),
    ),
}


@pytest.mark.parametrize("run", ["helper", "inline"])
@pytest.mark.parametrize("check", sorted(CASES))
def test_every_refused_page_is_named_and_nothing_is_written(fixture_project, tmp_path, check, run):
    """Both pages are named, each with its line, and no page of either language is written; the same with the
    checks run in the build's own process."""
    for path, old, new, _ in CASES[check]:
        edit(fixture_project, path, old, new)
    out = tmp_path / "out"
    result = mkdocs_build(fixture_project, out, env={beside.BESIDE_ENV: "0" if run == "inline" else "1"})
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    found = _refusals(output)
    for path, _, _, what in CASES[check]:
        assert any(line.startswith(path + ":") and what in line for line in found), (path, output)
    assert not out.exists() or not list(out.rglob("*.html")), sorted(out.rglob("*.html"))
