"""The sandbox holds by design: hostile examples against the real checker, under bubblewrap as in CI.

Runs of `python -m scripts.snippets check` on fixture pages (tests/fixtures/snippets/hostile/):
- attacks/: read a root-only file or the checker's environment through a file the checker reads back; forge
  the results of later blocks (through the reply encoder, or by writing replies into every descriptor);
  leave 3,000 threads behind; fill /tmp; leave a SysV segment for the next block; map more shared memory
  than a unit may; borrow another page's run with a block that differs in a comment (`# doctest: +SKIP`);
- neighbours/: one page traces and signals everything it can see while another page runs beside it;
- fifo/: a FIFO where the checker reads back a file;
- names/: a name whose import runs a program (the checker imports nothing a page names);
- ellipsis/: eight `...` against 5,000 characters (a backtracking match never ends);
- cache/: a compile result forged in the checkout's .cache; gxx/: g++ reading /dev/zero;
- sleeper/: the checker killed while a block sleeps (nothing of the sandbox may outlive it);
- parse/: a superscript timeout, code nested 3,000 deep, bidirectional and invisible controls in code.
Each attack must fail to reach anything outside its own block, and the block it aims at is blamed for
nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT

pytestmark = pytest.mark.slow
HOSTILE = FIXTURES / "snippets" / "hostile"
RUN_LIMIT = 600  # seconds; a hang of the checker fails the test instead of blocking the suite


def _command(docs: Path) -> list[str]:
    status_file = docs.parent / "status.json"
    return [
        sys.executable,
        "-m",
        "scripts.snippets",
        "check",
        "--docs-dir",
        str(docs),
        "--status-file",
        str(status_file),
    ]


def _check(
    docs: Path,
    *,
    jobs: int,
    env: dict[str, str] | None = None,
    limit: int = RUN_LIMIT,
    options: tuple[str, ...] = ("--no-cpp",),
    cwd: Path = ROOT,
) -> tuple[subprocess.CompletedProcess | None, dict, float]:
    """(the finished run or None when it outlived `limit`, status entries by id, seconds taken)."""
    status_file = docs.parent / "status.json"
    started = time.monotonic()
    try:
        result = subprocess.run(
            [*_command(docs), *options, "--jobs", str(jobs)],
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
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


def test_a_block_differing_in_a_comment_runs_on_its_own_page(attacks):
    """The zh block is the en block but for its comment, which on the en page is `# doctest: +SKIP`: judged on
    the en run, the zh block (which raises) passed. Byte-identical blocks still run once."""
    result, status, *_ = attacks
    assert _status(status, "share.en#01") == "output-matched", result.stdout
    assert _status(status, "share#01") == "output-matched", result.stdout  # judged on the en page's run
    assert _status(status, "share.en#02") == "ran", result.stdout  # doctest skips its only example
    assert _status(status, "share#02") == "failed", "a block was judged on the run of other code"
    assert "share.md:16:1: error: running it raised TypeError" in result.stdout
    assert re.search(r"\b[1-9]\d* block\(s\) judged on the run of the same code on another page", result.stdout)


def test_sysv_shared_memory_does_not_outlive_its_block(attacks):
    result, status, *_ = attacks
    assert _status(status, "ipc#01") == "ran", result.stdout
    assert _status(status, "ipc#02") == "output-matched", "the next block found the segment"


def test_the_memory_limit_counts_shared_mappings(attacks):
    result, status, *_ = attacks
    assert _status(status, "ipc#03") == "output-matched", "a 12 GiB shared mapping was let through"


def test_the_checker_imports_nothing_a_page_names(tmp_path):
    """Resolving `torch.utils.model_dump.__main__` runs model_dump's command line, which exits: in the checker
    it ended the check with a usage message and no status file. Names resolve in a sandbox; the checker
    imports no torch module at all."""
    docs = _pages(tmp_path, "names")
    status_file = docs.parent / "status.json"
    probe = (
        "import sys; from scripts.snippets.cli import main; code = main(sys.argv[1:]); "
        "print('torch modules in the checker:', sorted(m for m in sys.modules if m.split('.')[0] == 'torch')); "
        "sys.exit(code)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe, *_command(docs)[3:], "--no-cpp"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=RUN_LIMIT,
    )
    assert status_file.exists(), result.stdout + result.stderr
    status = json.loads(status_file.read_text(encoding="utf-8"))["snippets"]
    assert _status(status, "import-main#01") == "failed"
    assert (
        "import-main.md:12:1: error: unknown name 'torch.utils.model_dump.__main__'" in result.stdout
        and "SystemExit" in result.stdout
    ), result.stdout
    assert "torch modules in the checker: []" in result.stdout
    assert result.returncode == 1


def test_matching_wildcards_takes_linear_time(tmp_path):
    docs = _pages(tmp_path, "ellipsis")
    result, status, seconds = _check(docs, jobs=1, limit=180)
    assert result is not None, f"the checker still compared the output after {seconds:.0f} s"
    assert _status(status, "ellipsis#01") == "failed", result.stdout
    assert "output differs from the page" in result.stdout
    assert _status(status, "ellipsis#02") == "output-matched", result.stdout


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_compile_result_in_the_checkout_is_never_trusted(tmp_path):
    """A result under the checkout's .cache/ was trusted: a pull request could commit one, forged, with the page.
    The first run's records (if any) are forged to say the block compiled; the second run must still fail it,
    and no run writes into the checkout."""
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    docs = _pages(checkout, "cache")
    first, status, _ = _check(docs, jobs=1, options=("--no-run",), cwd=checkout)
    assert first is not None and _status(status, "cache#01") == "failed", first and first.stdout
    clean = {"returncode": 0, "errors": [], "deprecations": {}, "other": []}
    for record in (checkout / ".cache").rglob("*.json"):
        record.write_text(json.dumps(clean), encoding="utf-8")
    second, status, _ = _check(docs, jobs=1, options=("--no-run",), cwd=checkout)
    assert second is not None and _status(status, "cache#01") == "failed", "a forged record was trusted"
    assert "no_such_name" in second.stdout
    assert sorted(p.name for p in checkout.iterdir()) == ["docs", "status.json"], "the check wrote into the checkout"


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_gxx_is_held_to_a_memory_limit_and_the_block_is_blamed(tmp_path):
    """`#include "/dev/zero"` grew g++ to 8 GiB in 14 s. Only the block that did it fails, at its own line."""
    docs = _pages(tmp_path, "gxx")
    result, status, seconds = _check(docs, jobs=1, options=("--no-run",), limit=300)
    assert result is not None, f"g++ still ran after {seconds:.0f} s"
    assert _status(status, "memory#01") == "compiled", result.stdout
    assert _status(status, "memory#02") == "failed", result.stdout
    assert "memory.md:16:1: error: g++: could not check this block: out of memory" in result.stdout


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), fields[0].decode(), int(fields[19])


def _descendants(root: int) -> dict[int, int]:
    """{pid: start time} of every live process below `root`."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            children.setdefault(stat[0], []).append(int(entry))
    found, todo = {}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if (stat := _stat(child)) is not None and stat[1] != "Z":
                found[child] = stat[2]
                todo.append(child)
    return found


def _alive(pid: int, started: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[2] == started and stat[1] != "Z"


def _cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []


def test_killing_the_checker_leaves_no_sandbox_behind(tmp_path):
    """`setpriv --reuid` clears the parent-death signal bubblewrap set: killed with the checker, a page's
    supervisor and runner lived on until their block's time was up (here 600 s)."""
    docs = _pages(tmp_path, "sleeper")
    checker = subprocess.Popen(
        [*_command(docs), "--no-cpp", "--jobs", "1"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    tree: dict[int, int] = {}
    try:
        deadline = time.monotonic() + 300  # a sandbox and torch's import on a busy machine
        while not any(_cmdline(pid) == ["sleep", "3171"] for pid in tree):
            assert checker.poll() is None, "the checker ended before the block slept"
            assert time.monotonic() < deadline, "the block never started"
            time.sleep(0.2)  # polling the process table: the event is another process's
            tree = _descendants(checker.pid)
        tree = _descendants(checker.pid)  # bubblewrap, the supervisor, the runner, sleep
        os.kill(checker.pid, signal.SIGKILL)
        checker.wait()
        deadline = time.monotonic() + 120  # generous for a loaded machine; the supervisor held on for 600 s
        while left := [pid for pid, started in tree.items() if _alive(pid, started)]:
            assert time.monotonic() < deadline, f"alive after the checker died: {[_cmdline(p) for p in left]}"
            time.sleep(0.2)
    finally:
        if checker.poll() is None:
            checker.kill()
            checker.wait()
        for pid, started in tree.items():  # this test's own processes, if they outlived it
            if _alive(pid, started):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize(
    ("page", "replace", "expected"),
    [
        ("directive", {}, [("<!-- snippet: timeout=² -->", 1, "bad timeout '²': a whole number of seconds")]),
        (
            "nesting",
            {
                "DEEP_PYTHON": "-" * 3000 + "1",  # RecursionError in Python's parser
                "DEEP_PYCON": "lambda: " * 3000 + "1",  # MemoryError
                "DEEP_CPP": "(" * 3000 + "1 +" + ")" * 3000,  # an error 3,000 nodes down tree-sitter's tree
            },
            [
                ("x = DEEP_PYTHON", 1, "nested too deeply for Python's parser"),
                (">>> DEEP_PYCON", 5, "nested too deeply for Python's parser"),
                ("int x = DEEP_CPP;", None, "C++ syntax (tree-sitter)"),
            ],
        ),
        (
            "bidi",
            {"RLO": "\u202e", "LRI": "\u2066", "ZWSP": "\u200b", "BOM": "\ufeff"},
            [
                ('if access != "user":  # RLO', 25, "bidirectional control U+202E in a code block"),
                ("outputZWSP", 7, "invisible character U+200B in a code block"),
                (">>> 1 +BOM 1", 8, "invisible character U+FEFF in a code block"),
            ],
        ),
    ],
    ids=["superscript-timeout", "nested-3000-deep", "trojan-source"],
)
def test_bad_code_and_directives_are_reported_at_their_line(tmp_path, page, replace, expected):
    """Each is a `file:line` error of its block, never a traceback: int('²') raised, so did Python's parser and a
    recursive walk of tree-sitter's tree on deep code; bidirectional controls passed as clean code."""
    docs = _pages(tmp_path, "parse", replace)
    text = (HOSTILE / "parse" / f"{page}.md").read_text(encoding="utf-8")
    result, status, _ = _check(docs, jobs=1, options=("--no-run", "--no-cpp", "--only", f"{page}.md"), limit=120)
    assert result is not None and "Traceback" not in result.stderr, result and result.stderr[-2000:]
    assert result.returncode == 1, result.stdout
    for needle, col, message in expected:
        where = f"{page}.md:{_line_of(text, needle)}:{col if col is not None else ''}"
        assert any(where in line and message in line for line in result.stdout.splitlines()), (where, result.stdout)
    if page == "bidi":
        assert _status(status, "bidi#02") == "parsed", "a clean block is not blamed"
