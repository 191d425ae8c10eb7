"""The sandbox holds by design: hostile examples against the real checker, under bubblewrap as in CI.

Three runs of `python -m scripts.snippets check` on fixture pages (tests/fixtures/snippets/hostile/):
- attacks/: read a root-only file or the checker's environment through a file the checker reads back; forge
  the results of later blocks (through the reply encoder, or by writing replies into every descriptor);
  leave 3,000 threads behind; fill /tmp;
- neighbours/: one page traces and signals everything it can see while another page runs beside it;
- fifo/: a FIFO where the checker reads back a file.
Each attack must fail to reach anything outside its own block, and the block it aims at is blamed for
nothing.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

pytestmark = pytest.mark.slow
HOSTILE = FIXTURES / "snippets" / "hostile"
RUN_LIMIT = 600  # seconds; a hang of the checker fails the test instead of blocking the suite


def _check(
    docs: Path, *, jobs: int, env: dict[str, str] | None = None, limit: int = RUN_LIMIT
) -> tuple[subprocess.CompletedProcess | None, dict, float]:
    """(the finished run or None when it outlived `limit`, status entries by id, seconds taken)."""
    status_file = docs.parent / "status.json"
    started = time.monotonic()
    try:
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
                str(jobs),
            ],
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=limit,
        )
    except subprocess.TimeoutExpired:
        return None, {}, time.monotonic() - started
    status = json.loads(status_file.read_text(encoding="utf-8"))["snippets"] if status_file.exists() else {}
    return result, status, time.monotonic() - started


def _pages(tmp_path: Path, folder: str, replace: dict[str, str] | None = None) -> Path:
    docs = tmp_path / "docs"
    shutil.copytree(HOSTILE / folder, docs)
    for page in docs.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        for old, new in (replace or {}).items():
            text = text.replace(old, new)
        page.write_text(text, encoding="utf-8")
    return docs


def _status(status: dict, sid: str) -> str:
    return status.get(sid, {}).get("status", "missing")


@pytest.fixture(scope="module")
def secret(tmp_path_factory) -> tuple[Path, str]:
    """A file only its owner (root, in CI) may read, holding a random token."""
    folder = tmp_path_factory.mktemp("root-only")
    folder.chmod(0o700)
    path = folder / "secret.txt"
    token = f"token-{secrets.token_hex(16)}"
    path.write_text(token + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path, token


@pytest.fixture(scope="module")
def attacks(tmp_path_factory, secret):
    path, token = secret
    docs = _pages(tmp_path_factory.mktemp("attacks"), "attacks", {"SECRET_PATH": str(path)})
    env_token = f"env-{secrets.token_hex(16)}"
    result, status, _ = _check(docs, jobs=2, env={"HOSTILE_ENV_TOKEN": env_token})
    assert result is not None, "the checker hung"
    return result, status, token, env_token, docs


def test_a_symlinked_log_leaks_neither_a_root_only_file_nor_the_environment(attacks):
    result, status, token, env_token, docs = attacks
    for leaked in (token, env_token):
        assert leaked not in result.stdout and leaked not in result.stderr
        assert leaked not in (docs.parent / "status.json").read_text(encoding="utf-8")
    # Killing itself is each block's own failure, reported without anything it pointed at.
    assert _status(status, "leak#01") == "failed" and _status(status, "leak#02") == "failed"
    assert "leak.md:15:1: error: running it killed the worker" in result.stdout


@pytest.mark.parametrize("page", ["forge-encoder", "forge-channel"])
def test_a_block_cannot_forge_the_results_of_the_next(attacks, page):
    result, status, *_ = attacks
    assert _status(status, f"{page}#01") == "ran", result.stdout
    assert _status(status, f"{page}#02") == "failed", "a block that raises was recorded as passing"
    assert _status(status, f"{page}#03") == "failed", "a pycon block with wrong output was recorded as passing"
    assert f"{page}.md" in result.stdout and "running it raised RuntimeError: this block raises" in result.stdout


def test_leftover_threads_do_not_get_the_next_block_blamed(attacks):
    result, status, *_ = attacks
    assert _status(status, "threads#01") == "ran", result.stdout
    assert _status(status, "threads#02") == "ran", result.stdout


def test_tmp_is_capped_and_emptied_for_the_next_block(attacks):
    result, status, *_ = attacks
    assert _status(status, "tmp-cap#01") == "output-matched", result.stdout  # 8 MiB fit, 1.25 GiB: ENOSPC
    assert _status(status, "tmp-cap#02") == "output-matched", result.stdout


def test_a_page_cannot_trace_or_signal_another_or_its_supervisor(tmp_path):
    docs = _pages(tmp_path, "neighbours")
    result, status, _ = _check(docs, jobs=2)
    assert result is not None, "the checker hung"
    assert _status(status, "killer#01") == "output-matched", result.stdout  # nothing it sees can be traced or read
    assert _status(status, "killer#02") == "ran", result.stdout
    assert _status(status, "killer#03") == "output-matched", result.stdout  # its own next block, fresh
    assert _status(status, "victim#01") == "ran", result.stdout
    assert _status(status, "victim#02") == "output-matched", result.stdout
    assert result.returncode == 0, result.stdout


def test_a_fifo_does_not_hang_the_checker(tmp_path):
    docs = _pages(tmp_path, "fifo")
    result, status, seconds = _check(docs, jobs=1, limit=300)
    assert result is not None, f"the checker still waited after {seconds:.0f} s"
    assert _status(status, "fifo#01") == "failed"
    assert _status(status, "fifo#02") == "output-matched", result.stdout
