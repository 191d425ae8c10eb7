"""Checks 3 and 6: run a page's python and pycon snippets on real torch, and record deprecations.

Each page gets a sandbox of its own (`sandbox.py`: own PID namespace, own 1 GiB /tmp, own user when the
checker runs as root) whose first process is the page supervisor (`worker.py`). It imports torch once, then
forks a fresh runner for every unit (one block, or the blocks of one `group`), so no block ever runs where
an earlier one ran; when a unit ends, every process it left is killed and /tmp is emptied. The checker
talks to the supervisor only over its stdin/stdout pipes and reads nothing else back (no shared folder, no
file): the verdict for a block comes from the supervisor, which the block's process cannot reach.
pycon output is compared with what the page shows by `outputcheck.output_matches`. A snippet that leaves
processes running, prints more than the runner keeps, dies, or outlives its time limit fails itself.
"""

from __future__ import annotations

import doctest
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from scripts.snippets.directives import MAX_TIMEOUT
from scripts.snippets.model import Diagnostic, Snippet
from scripts.snippets.outputcheck import explain, output_matches
from scripts.snippets.parse import pycon_examples
from scripts.snippets.sandbox import check_available, python_paths, sandbox_command, sandbox_uid

__all__ = ["DEFAULT_TIMEOUT", "RunOutcome", "PageRun", "assign_units", "run_page", "share_unit", "unit_key", "units_of"]

DEFAULT_TIMEOUT = 120  # seconds per snippet (torch.compile on CPU compiles C++ the first time)
STARTUP_TIMEOUT = 180
WORKER = Path(__file__).with_name("worker.py")
SUPERVISOR_GRACE = 30  # seconds past a block's limit before the checker gives up on its supervisor
MAX_LINE = 64 << 20  # bytes of one reply line from a supervisor
TAIL_BYTES = 4096  # of a supervisor's stderr, for the message when its sandbox stops


@dataclass
class RunOutcome:
    id: str
    status: str  # ran | output-matched | failed | raised (the "before" code of a change fails today: recorded, not an error)
    problems: list[Diagnostic] = field(default_factory=list)
    deprecations: list[str] = field(default_factory=list)
    seconds: float = 0.0
    failure: str | None = None  # for "raised": the exception, one line


@dataclass
class PageRun:
    page: str
    outcomes: dict[str, RunOutcome] = field(default_factory=dict)
    torch_version: str | None = None
    seconds: float = 0.0
    import_seconds: float = 0.0
    replies: dict[str, dict] = field(default_factory=dict)  # the supervisor's reply per block, for `share_unit`
    shared: int = 0  # blocks whose results were read from the same unit's run on another page (`share_unit`)

    def merge(self, other: PageRun) -> None:
        """Add another run of the same page (its other blocks) to this one."""
        self.outcomes.update(other.outcomes)
        self.replies.update(other.replies)
        self.torch_version = self.torch_version or other.torch_version
        self.seconds += other.seconds
        self.import_seconds += other.import_seconds
        self.shared += other.shared


def _worker_env() -> dict:
    """The whole environment inside the sandbox: nothing of the checker's own (no tokens, no paths)."""
    threads = os.environ.get("SNIPPETS_THREADS", "1")
    return {
        "CUDA_VISIBLE_DEVICES": "",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        # One thread: reproducible float output, no oversubscription with --jobs, and no threads
        # in the page supervisor when it forks.
        "OMP_NUM_THREADS": threads,
        "MKL_NUM_THREADS": threads,
        "OPENBLAS_NUM_THREADS": threads,
        "TORCHINDUCTOR_COMPILE_THREADS": "1",
        # Each unit starts with an empty compile cache, so a precompiled header would be built for
        # every torch.compile block and used by its few kernels only: without it a block takes ~4 s less.
        "TORCHINDUCTOR_CPP_CACHE_PRECOMPILE_HEADERS": "0",
        "TOKENIZERS_PARALLELISM": "false",
        "HF_HUB_OFFLINE": "1",
    }


class _Lines:
    """A thread that reads JSON lines (each at most MAX_LINE bytes) from a byte stream into a queue."""

    def __init__(self, stream):
        self.replies: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        try:
            while line := stream.readline(MAX_LINE):
                try:
                    self.replies.put(json.loads(line))
                except ValueError:
                    continue
        except (OSError, ValueError):
            pass
        self.replies.put(None)  # end of stream

    def receive(self, timeout: float) -> dict | None:
        try:
            return self.replies.get(timeout=timeout)
        except queue.Empty:
            return None


class _Tail:
    """A thread that drains a byte stream and keeps only its last TAIL_BYTES: the supervisor's stderr."""

    def __init__(self, stream):
        self.text = b""
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        try:
            while chunk := stream.read1(1 << 16):
                self.text = (self.text + chunk)[-TAIL_BYTES:]
        except (OSError, ValueError):
            pass

    def lines(self) -> str:
        return _last_lines(self.text.decode("utf-8", "replace"))


def _last_lines(text: str) -> str:
    """The last three non-empty lines, as one short line (what a message shows of a dying process)."""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    return " | ".join(lines[-3:])[-400:]


class PageSandbox:
    """One page's sandbox: a bubblewrap of its own (own PID namespace and /tmp; as root, an own user)
    whose first process is the page supervisor (`worker.py`). Its stdin/stdout are the only channel; no
    path is shared with it. Killing it ends the sandbox and every process in it."""

    def __init__(self):
        command = sandbox_command(
            [sys.executable, str(WORKER)],
            readonly=[*python_paths(), WORKER],
            env=_worker_env(),
            uid=sandbox_uid(),
            as_pid_1=True,
        )
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = _Lines(self.proc.stdout)
        self.stderr = _Tail(self.proc.stderr)

    def receive(self, timeout: float) -> dict | None:
        return self.lines.receive(timeout)

    def send(self, message: dict) -> bool:
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def stderr_tail(self) -> str:
        self.stderr.thread.join(timeout=2)
        return self.stderr.lines()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send({"op": "exit"})
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (subprocess.TimeoutExpired, OSError):
                self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _request(snippet: Snippet) -> tuple[dict, list[doctest.Example]]:
    request = {
        "op": "run",
        "id": snippet.id,
        "lang": snippet.lang,
        "filename": snippet.page,
        "line": snippet.line,
        "code": snippet.code,
        "group": snippet.directives.get("group"),
        "examples": [],
    }
    examples: list[doctest.Example] = []
    if snippet.lang == "pycon":
        examples = pycon_examples(snippet.code)
        request["examples"] = [
            {"source": ex.source, "line": snippet.file_line(ex.lineno + 1), "skip": bool(ex.options.get(doctest.SKIP))}
            for ex in examples
        ]
    return request, examples


def _clean_message(message: str) -> str:
    """One line, without machine-specific paths, so the status file is reproducible."""
    first = message.strip().split("\n")[0]
    first = re.sub(r"(/[^\s:'\"]+)+/(site|dist)-packages/", "", first)
    first = re.sub(re.escape(tempfile.gettempdir()) + r"/[^\s:'\"]+", "<tmp>", first)
    return re.sub(r"\s+", " ", first)


DEPRECATED_SUBJECT_RE = re.compile(
    r"`?([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)`?(?:\(\))? (?:is|are|has been|have been) (?:now )?deprecated"
)


def _about_snippet(snippet: Snippet, warning: dict) -> bool:
    """Is a deprecation warning about what the snippet does, not torch calling its own deprecated code?

    When the message names its subject (`torch.jit.script` is deprecated), the snippet must use that
    name (through its imports, or spelled in its code); Python's attribution is not enough, as torch
    raises some of these while importing its own modules. Otherwise, Python must attribute the warning
    to the snippet's lines.
    """
    subjects = DEPRECATED_SUBJECT_RE.findall(warning.get("message", ""))
    if not subjects:
        return warning.get("line") is not None
    from scripts.snippets.names import collect_names

    used = {u.name for u in collect_names(snippet, {})}
    for subject in subjects:
        if any(u == subject or u.startswith(subject + ".") for u in used):
            return True
        first, last = subject.split(".")[0], subject.split(".")[-1]
        if re.search(rf"\b{re.escape(first)}\b", snippet.code) and re.search(rf"\b{re.escape(last)}\b", snippet.code):
            return True
    return False


def _interpret(snippet: Snippet, reply: dict, examples: list[doctest.Example]) -> RunOutcome:
    outcome = _interpret_result(snippet, reply, examples)
    misbehaved = []
    if reply.get("strays"):
        misbehaved.append(f"it left {reply['strays']} process(es) running after it finished (they were killed)")
    if reply.get("overflow"):
        misbehaved.append(f"it printed {reply['overflow'] / (1 << 20):.1f} MB, more than the 1 MB a snippet may print")
    for message in misbehaved:
        outcome.status = "failed"
        outcome.problems.append(Diagnostic(snippet.page, snippet.line, 1, message, "error", snippet.id, "run"))
    return outcome


def _interpret_result(snippet: Snippet, reply: dict, examples: list[doctest.Example]) -> RunOutcome:
    outcome = RunOutcome(snippet.id, "ran", seconds=reply.get("seconds", 0.0))
    before_code = snippet.directives.get("change") == "before"
    for warning in reply.get("warnings", []):
        # The old code of a change is there to show what today's torch says about it: any warning counts.
        if not (
            before_code or warning.get("deprecation", warning["category"] in ("DeprecationWarning", "FutureWarning"))
        ):
            continue
        if not _about_snippet(snippet, warning):
            continue
        message = f"{warning['category']}: {_clean_message(warning['message'])}"
        if message not in outcome.deprecations:
            outcome.deprecations.append(message)
    if snippet.lang == "python":
        error = reply.get("error")
        if error and snippet.directives.get("change") == "before":
            # Old code that no longer runs is what this block documents: record how it fails today.
            outcome.status = "raised"
            outcome.failure = _clean_message(error["message"])
        elif error:
            outcome.status = "failed"
            outcome.problems.append(
                Diagnostic(
                    snippet.page, error["line"], 1, f"running it raised {error['message']}", "error", snippet.id, "run"
                )
            )
        return outcome
    compared = False
    for example, result in zip(examples, reply.get("examples", []), strict=False):
        if result.get("skipped"):
            continue
        line = snippet.file_line(example.lineno + 1)
        col = example.indent + 1 + snippet.indent
        normalize = bool(example.options.get(doctest.NORMALIZE_WHITESPACE))
        problem = None
        if example.exc_msg is not None:
            if result["exc"] is None:
                problem = "expected an exception, but it ran without one" + explain(example.exc_msg, result["got"])
            elif not output_matches(example.exc_msg, result["exc"], normalize):
                problem = "raised a different exception" + explain(example.exc_msg, result["exc"])
            else:
                compared = True
        elif result["exc"] is not None:
            where = f" (raised in {result['origin']})" if result.get("origin") else ""
            problem = f"running it raised {result['exc'].strip()}{where}"
        elif not output_matches(example.want, result["got"], normalize):
            problem = "output differs from the page" + explain(example.want, result["got"])
        elif example.want.strip():
            compared = True
        if problem:
            outcome.status = "failed"
            outcome.problems.append(Diagnostic(snippet.page, line, col, problem, "error", snippet.id, "run"))
            break  # later examples usually fail because of this one
    if outcome.status != "failed" and compared:
        outcome.status = "output-matched"
    return outcome


def units_of(snippets: list[Snippet]) -> list[list[Snippet]]:
    """A page's units (see `_units`), each as its blocks in run order."""
    units: dict[str, list[Snippet]] = {}
    for unit, s in _units(snippets):
        units.setdefault(unit, []).append(s)
    return list(units.values())


def unit_key(blocks: list[Snippet]) -> str:
    """What running a unit depends on: per block its language, directives and code without comments (line
    structure kept, so errors and warnings point at the same code lines), and for pycon the output the page
    shows. A unit runs in a fresh process forked from a supervisor that has only imported torch, so two
    units with one key behave alike on any page. A release's zh and en pages differ mostly in comments:
    most of their units share a key, and run once (`share_unit`)."""
    from scripts.snippets.parity import strip_comments

    return json.dumps(
        [[s.lang, s.directives, [line.rstrip() for line in strip_comments(s.lang, s.code)]] for s in blocks],
        sort_keys=True,
        ensure_ascii=False,
    )


def assign_units(
    by_page: dict[str, list[Snippet]],
) -> tuple[dict[str, list[Snippet]], dict[str, list[tuple[list[Snippet], str, list[Snippet]]]]]:
    """Each distinct unit (`unit_key`) runs on the first page that has it: (blocks each page runs itself,
    per page the units it borrows as (its blocks, owner page, the owner's blocks))."""
    owner: dict[str, tuple[str, list[Snippet]]] = {}
    own: dict[str, list[Snippet]] = {}
    borrowed: dict[str, list[tuple[list[Snippet], str, list[Snippet]]]] = {}
    for page, group in by_page.items():
        for blocks in units_of(group):
            key = unit_key(blocks)
            if key in owner:
                borrowed.setdefault(page, []).append((blocks, *owner[key]))
            else:
                owner[key] = (page, blocks)
                own.setdefault(page, []).extend(blocks)
    return own, borrowed


def share_unit(blocks: list[Snippet], owner_blocks: list[Snippet], owner_run: PageRun) -> dict[str, RunOutcome] | None:
    """The outcomes of `blocks` read from the run of `owner_blocks` (the same `unit_key`, on another page):
    each block gets the reply its counterpart got, judged afresh against its own code and page (deprecations
    are matched to its code, lines to its page). None when a counterpart failed or got no reply, or a block
    would fail: the unit then runs on its own page, so a failure is always reported from its own run."""
    if len(blocks) != len(owner_blocks) or unit_key(blocks) != unit_key(owner_blocks):
        return None
    outcomes = {}
    for mine, theirs in zip(blocks, owner_blocks, strict=True):
        reply = owner_run.replies.get(theirs.id)
        if reply is None or owner_run.outcomes[theirs.id].status == "failed":
            return None
        outcome = _interpret(mine, reply, pycon_examples(mine.code) if mine.lang == "pycon" else [])
        if outcome.status == "failed":
            return None
        outcome.seconds = 0.0
        outcomes[mine.id] = outcome
    return outcomes


def _units(snippets: list[Snippet]) -> list[tuple[str, Snippet]]:
    """(unit, snippet) in run order. A unit is one block, or the blocks of one group (they share a process
    and a namespace); units share nothing, so a group's blocks run one after the other, where its first
    block stands: no two units' processes are ever alive at once."""
    order: dict[str, list[Snippet]] = {}
    for s in snippets:
        order.setdefault(s.directives.get("group") or f"block {s.id}", []).append(s)
    return [(unit, s) for unit, blocks in order.items() for s in blocks]


def run_page(snippets: list[Snippet], *, timeout: int = DEFAULT_TIMEOUT, deadline: float | None = None) -> PageRun:
    """Run the given python/pycon snippets of ONE page, each unit (a block, or a group's blocks) in a fresh
    process forked by the page's supervisor, inside the page's own sandbox (see the module docstring).

    A `timeout=` directive is capped at MAX_TIMEOUT; past `deadline` (time.monotonic()), the remaining
    snippets fail as not run, so a run has a total budget as well.
    """
    check_available()
    result = PageRun(page=snippets[0].page)
    started = time.monotonic()
    units = _units(snippets)
    last_of_unit = {unit: s.id for unit, s in units}

    def fail(s: Snippet, message: str, line: int | None = None, seconds: float = 0.0) -> None:
        result.outcomes[s.id] = RunOutcome(
            s.id, "failed", [Diagnostic(s.page, line or s.line, 1, message, "error", s.id, "run")], seconds=seconds
        )

    sandbox: PageSandbox | None = None
    try:
        for unit, snippet in units:
            if deadline is not None and time.monotonic() > deadline:
                fail(snippet, "not run: the check's total time budget is used up (slow snippets before it)")
                continue
            if sandbox is None:
                sandbox, hello = _start_sandbox()
                if sandbox is None:
                    for _, s in units:
                        if s.id not in result.outcomes:
                            fail(s, f"cannot run: {hello}", line=s.fence_line)
                    break
                result.torch_version = hello.get("torch")
                result.import_seconds += hello.get("seconds", 0.0)
            request, examples = _request(snippet)
            limit = min(int(snippet.directives.get("timeout", timeout)), MAX_TIMEOUT)
            request.update(unit=unit, last=last_of_unit[unit] == snippet.id, timeout=limit)
            # The supervisor enforces the limit; waiting a little longer here only catches a stuck sandbox.
            reply = sandbox.receive(limit + SUPERVISOR_GRACE) if sandbox.send(request) else None
            if reply is None or reply.get("id") != snippet.id:
                sandbox.kill()
                why = sandbox.stderr_tail() or "no message"
                sandbox.close()
                sandbox = None
                fail(snippet, f"running it stopped the page's sandbox ({why})", seconds=float(limit))
            elif reply.get("timeout"):
                fail(snippet, f"running it timed out after {limit} s", seconds=float(limit))
            elif reply.get("died") is not None:
                fail(
                    snippet,
                    f"running it killed the worker ({_last_lines(str(reply['died'])) or 'no message'})",
                    seconds=reply.get("seconds", 0.0),
                )
            else:
                result.replies[snippet.id] = reply
                result.outcomes[snippet.id] = _interpret(snippet, reply, examples)
    finally:
        if sandbox is not None:
            sandbox.close()
    result.seconds = time.monotonic() - started
    return result


def _start_sandbox() -> tuple[PageSandbox | None, dict | str]:
    """(sandbox, hello) of a fresh page sandbox, or (None, why it did not start)."""
    sandbox = None
    try:
        sandbox = PageSandbox()
        hello = sandbox.receive(STARTUP_TIMEOUT)
    except OSError as exc:
        hello = {"error": f"the worker did not start: {exc}"}
    if hello and not hello.get("error"):
        return sandbox, hello
    why = (hello or {}).get(
        "error"
    ) or f"the worker did not start: {sandbox.stderr_tail() if sandbox else 'no message'}"
    if sandbox is not None:
        sandbox.kill()
        sandbox.close()
    return None, why
