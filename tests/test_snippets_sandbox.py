"""Running examples is running untrusted code: hostile blocks fed to the real checker, in its OS sandbox.

One run of `python -m scripts.snippets check` over tests/fixtures/snippets/hostile/hostile.md (each block
misbehaves in one way) with a secret in the checker's environment; every block must be contained and blamed,
and the block after a misbehaving one must run clean.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, ROOT

pytestmark = pytest.mark.slow
HOSTILE = FIXTURES / "snippets" / "hostile"


def _blocks(status: dict) -> list[dict]:
    entries = [dict(entry, id=sid) for sid, entry in status["snippets"].items() if entry["page"] == "hostile.md"]
    return sorted(entries, key=lambda e: e["line"])


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    docs = tmp_path_factory.mktemp("hostile") / "docs"
    docs.mkdir()
    page = docs / "hostile.md"  # only this page: the other fixtures here are test_snippets_hostile.py's
    shutil.copy(HOSTILE / "hostile.md", page)
    page.write_text(page.read_text(encoding="utf-8").replace("DOCS_DIR", str(docs)), encoding="utf-8")
    status_file = docs.parent / "status.json"
    env = {**os.environ, "SNIPPET_SECRET": "hunter2", "GITHUB_TOKEN": "ghp_not_a_real_token"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scripts.snippets",
            "check",
            "--docs-dir",
            str(docs),
            "--status-file",
            str(status_file),
            "--no-cpp",
            "--jobs",
            "1",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    status = json.loads(status_file.read_text(encoding="utf-8"))
    return docs, result, _blocks(status)


def test_every_hostile_block_is_accounted_for(hostile_run):
    _, result, blocks = hostile_run
    assert len(blocks) == 14, result.stdout
    assert result.returncode == 1, "hostile blocks must fail the check"


def test_writing_into_the_docs_fails_and_writes_nothing(hostile_run):
    docs, _, blocks = hostile_run
    assert blocks[0]["status"] == "failed"
    assert not (docs / "pwned.md").exists()


def test_environment_and_network_are_out_of_reach(hostile_run):
    _, result, blocks = hostile_run
    assert blocks[1]["status"] == "output-matched", result.stdout  # no secret, no token in the sandbox
    assert blocks[2]["status"] == "output-matched", result.stdout  # five ways out refused, loopback works


@pytest.mark.parametrize("index, why", [(3, "left 1 process(es) running"), (5, "left 2 process(es) running")])
def test_stray_processes_are_killed_and_blamed_on_their_block(hostile_run, index, why):
    _, result, blocks = hostile_run
    assert blocks[index]["status"] == "failed"
    assert why in result.stdout
    assert blocks[index + 1]["status"] in ("ran", "output-matched"), "the next block must run clean"


def test_huge_output_is_capped_and_blamed(hostile_run):
    _, result, blocks = hostile_run
    assert blocks[7]["status"] == "failed"
    assert "it printed 100.0 MB, more than the 1 MB" in result.stdout
    assert len(result.stdout) < 200_000, "the output must not land in the messages"


def test_timeouts_are_capped_and_a_hang_is_blamed(hostile_run):
    _, result, blocks = hostile_run
    assert blocks[8]["status"] == "failed"
    assert "timeout=99999 is more than the 600 s a snippet may take" in result.stdout
    assert blocks[9]["status"] == "failed" and "timed out after 3 s" in result.stdout
    assert blocks[10]["status"] == "ran"


def test_process_and_memory_limits_hold(hostile_run):
    _, result, blocks = hostile_run
    assert blocks[11]["status"] == "failed"  # the fork loop hits the process limit, its children are killed
    assert blocks[12]["status"] == "failed" and "MemoryError" in result.stdout
    assert blocks[13]["status"] == "ran", "torch still runs after all of that"


def test_a_missing_sandbox_is_a_clear_error(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "page.md").write_text("# Page\n\n```python\nprint(1)\n```\n", encoding="utf-8")
    no_bwrap = tmp_path / "bin"
    no_bwrap.mkdir()
    for tool in ("g++", "setpriv"):
        if shutil.which(tool):
            (no_bwrap / tool).symlink_to(shutil.which(tool))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scripts.snippets",
            "check",
            "--docs-dir",
            str(docs),
            "--status-file",
            str(tmp_path / "s.json"),
            "--no-cpp",
        ],
        cwd=ROOT,
        env={**os.environ, "PATH": str(no_bwrap)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2
    assert "the sandbox needs bubblewrap, which is not installed" in result.stderr
    assert "Traceback" not in result.stderr
