"""Checks 3 and 6: run a page's python and pycon snippets on real torch, and record deprecations.

One worker process per page (`worker.py`), snippets sent one at a time in page order with a
per-snippet timeout (a snippet that times out kills the worker; the next snippet gets a fresh one).
With a `ForkServer`, torch is imported once for the whole run and each page's worker is a fork of it;
without one, each worker is a subprocess that imports torch itself. Either way every worker runs inside
the OS sandbox of `sandbox.py`. pycon output is compared with what the page shows by
`outputcheck.output_matches`. A snippet that leaves processes running, prints more than the worker keeps,
or outlives its time limit fails itself; the worker is replaced, and the next snippet starts clean.
"""

from __future__ import annotations

import doctest
import json
import os
import queue
import re
import socket
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
from scripts.snippets.sandbox import check_available, python_paths, sandbox_command

__all__ = ["DEFAULT_TIMEOUT", "ForkServer", "RunOutcome", "PageRun", "run_page"]

DEFAULT_TIMEOUT = 120  # seconds per snippet (torch.compile on CPU compiles C++ the first time)
STARTUP_TIMEOUT = 180
WORKER = Path(__file__).with_name("worker.py")
ISOLATE_PREFIXES = ("torch.distributed", "torch.multiprocessing")


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


def _worker_env() -> dict:
    """The whole environment inside the sandbox: nothing of the checker's own (no tokens, no paths)."""
    threads = os.environ.get("SNIPPETS_THREADS", "1")
    return {
            "CUDA_VISIBLE_DEVICES": "",
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
            # One thread: reproducible float output, no oversubscription with --jobs, and no threads
            # in the fork server when it forks.
            "OMP_NUM_THREADS": threads,
            "MKL_NUM_THREADS": threads,
            "OPENBLAS_NUM_THREADS": threads,
            "TORCHINDUCTOR_COMPILE_THREADS": "1",
            "TOKENIZERS_PARALLELISM": "false",
            "HF_HUB_OFFLINE": "1",
    }


class _Lines:
    """A thread that reads JSON lines from a stream into a queue."""

    def __init__(self, stream):
        self.replies: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        try:
            for line in stream:
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


def _tail(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    return " | ".join(lines[-3:])[-400:]


class _Process:
    """A worker started as its own sandboxed subprocess (imports torch itself). Killing it kills the
    sandbox, and the sandbox's PID namespace takes every process the snippets started with it."""

    def __init__(self, stderr_path: Path, args: tuple[str, ...] = (), exchange: Path | None = None):
        self.stderr_path = stderr_path
        self.stderr_file = open(stderr_path, "w", encoding="utf-8", errors="replace")
        command = sandbox_command(
            [sys.executable, str(WORKER), *args],
            readonly=[*python_paths(), WORKER],
            writable=[exchange] if exchange else [],
            env=_worker_env(),
        )
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr_file,
            text=True,
            encoding="utf-8",
        )
        self.lines = _Lines(self.proc.stdout)

    def receive(self, timeout: float) -> dict | None:
        return self.lines.receive(timeout)

    def send(self, message: dict) -> bool:
        try:
            self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self) -> str:
        self.stderr_file.flush()
        return _tail(self.stderr_path)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send({"op": "exit"})
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (subprocess.TimeoutExpired, OSError):
                self.kill()
        self.stderr_file.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class _Child:
    """A worker forked by the fork server, talking over a Unix socket. Its pid is one of the sandbox's PID
    namespace, so the server checks and kills it."""

    def __init__(self, conn: socket.socket, stderr_path: Path, server: "ForkServer"):
        self.server = server
        self.conn = conn
        self.stderr_path = stderr_path
        self.reader = conn.makefile("r", encoding="utf-8")
        self.writer = conn.makefile("w", encoding="utf-8")
        self.lines = _Lines(self.reader)
        self.pid: int | None = None

    def receive(self, timeout: float) -> dict | None:
        reply = self.lines.receive(timeout)
        if reply and reply.get("hello"):
            self.pid = reply.get("pid")
        return reply

    def send(self, message: dict) -> bool:
        try:
            self.writer.write(json.dumps(message) + "\n")
            self.writer.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def alive(self) -> bool:
        return self.pid is not None and self.server.ask({"op": "alive", "pid": self.pid})

    def stderr_tail(self) -> str:
        return _tail(self.stderr_path)

    def close(self) -> None:
        self.send({"op": "exit"})
        try:
            self.writer.close()
        except OSError:
            pass
        deadline = time.monotonic() + 5
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        self.kill()
        for stream in (self.reader, self.conn):
            try:
                stream.close()
            except OSError:
                pass

    def kill(self) -> None:
        if self.pid is not None:
            self.server.ask({"op": "kill", "pid": self.pid})


class ForkServer:
    """One process that imports torch once and forks a fresh worker for each page (Linux/macOS).

    `check` starts one for the whole run; `run_page` falls back to plain subprocess workers without it.
    """

    def __init__(self, tmp_dir: Path):
        self.tmp_dir = Path(tmp_dir)
        self.lock = threading.Lock()
        # The one folder the sandbox shares with the checker: page workers' sockets and stderr logs.
        self.exchange = self.tmp_dir / "exchange"
        self.exchange.mkdir()
        self.exchange.chmod(0o777)
        self.process = _Process(self.tmp_dir / "fork-server.stderr.txt", ("--fork-server",), exchange=self.exchange)
        hello = self.process.receive(STARTUP_TIMEOUT)
        if not hello or hello.get("error"):
            why = (hello or {}).get("error") or self.process.stderr_tail() or "no reply"
            self.process.kill()
            self.process.close()
            raise RuntimeError(f"the fork server did not start: {why}")
        self.torch_version = hello.get("torch")
        self.import_seconds = hello.get("seconds", 0.0)
        self.count = 0

    def ask(self, request: dict) -> bool:
        """A "kill" or "alive" request; the reply's `alive`."""
        with self.lock:
            if not self.process.send(request):
                return False
            reply = self.process.receive(STARTUP_TIMEOUT)
            return bool(reply and reply.get("alive"))

    def spawn(self) -> _Child:
        with self.lock:
            self.count += 1
            address = str(self.exchange / f"w{self.count}.sock")
            stderr_path = self.exchange / f"w{self.count}.stderr.txt"
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                listener.bind(address)
                os.chmod(address, 0o666)  # the sandbox runs as another user
                listener.listen(1)
                listener.settimeout(STARTUP_TIMEOUT)
                if not self.process.send({"op": "fork", "socket": address, "stderr": str(stderr_path)}):
                    raise RuntimeError("the fork server is gone")
                reply = self.process.receive(STARTUP_TIMEOUT)
                if not reply or "pid" not in reply:
                    raise RuntimeError(f"the fork server did not fork: {self.process.stderr_tail()}")
                conn, _ = listener.accept()
                conn.settimeout(None)
            finally:
                listener.close()
                Path(address).unlink(missing_ok=True)
        return _Child(conn, stderr_path, self)

    def close(self) -> None:
        self.process.close()


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


DEPRECATED_SUBJECT_RE = re.compile(r"`?([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)`?(?:\(\))? (?:is|are|has been|have been) (?:now )?deprecated")


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
        if not (before_code or warning.get("deprecation", warning["category"] in ("DeprecationWarning", "FutureWarning"))):
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
                Diagnostic(snippet.page, error["line"], 1, f"running it raised {error['message']}", "error", snippet.id, "run")
            )
        return outcome
    compared = False
    for example, result in zip(examples, reply.get("examples", [])):
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


def _isolated(snippets: list[Snippet]) -> set[str]:
    """Ids of snippets that get a worker of their own (their group shares it): those that use
    torch.distributed or torch.multiprocessing, whose process-wide state (an RPC agent, a default
    process group) would leak into the next snippet."""
    from scripts.snippets.names import collect_names

    isolated_groups = set()
    ids = set()
    for s in snippets:
        if any(u.name.startswith(ISOLATE_PREFIXES) for u in collect_names(s, {})):
            ids.add(s.id)
            if s.directives.get("group"):
                isolated_groups.add(s.directives["group"])
    return ids | {s.id for s in snippets if s.directives.get("group") in isolated_groups}


def run_page(
    snippets: list[Snippet], *, timeout: int = DEFAULT_TIMEOUT, server: ForkServer | None = None, deadline: float | None = None
) -> PageRun:
    """Run the given python/pycon snippets of ONE page, in page order, in one sandboxed worker process.

    Snippets that use torch.distributed/torch.multiprocessing (and their group) run in a worker of
    their own, started for them and stopped after their last block (see `_isolated`). A `timeout=`
    directive is capped at MAX_TIMEOUT; past `deadline` (time.monotonic()), the remaining snippets fail as
    not run, so a run has a total budget as well.
    """
    check_available()
    page = snippets[0].page
    result = PageRun(page=page)
    started = time.monotonic()
    isolated = _isolated(snippets)

    def unit_of(s: Snippet) -> str:
        return (s.directives.get("group") or s.id) if s.id in isolated else "shared"

    def fail(s: Snippet, message: str, line: int | None = None, seconds: float = 0.0) -> None:
        result.outcomes[s.id] = RunOutcome(s.id, "failed", [Diagnostic(s.page, line or s.line, 1, message, "error", s.id, "run")], seconds=seconds)

    last_of_unit = {unit_of(s): s.id for s in snippets}
    with tempfile.TemporaryDirectory(prefix="snippets-") as tmp:
        workers: dict[str, _Process | _Child] = {}
        try:
            for number, snippet in enumerate(snippets):
                if deadline is not None and time.monotonic() > deadline:
                    fail(snippet, "not run: the check's total time budget is used up (slow snippets before it)")
                    continue
                unit = unit_of(snippet)
                worker = workers.get(unit)
                if worker is None:
                    worker, hello = _start_worker(server, Path(tmp) / f"worker-{number}.stderr.txt")
                    if worker is None:
                        for s in snippets:
                            if s.id not in result.outcomes:
                                fail(s, f"cannot run: {hello}", line=s.fence_line)
                        break
                    workers[unit] = worker
                    result.torch_version = hello.get("torch")
                    result.import_seconds += hello.get("seconds", 0.0)
                request, examples = _request(snippet)
                limit = min(int(snippet.directives.get("timeout", timeout)), MAX_TIMEOUT)
                reply = worker.receive(limit) if worker.send(request) else None
                if reply is None or reply.get("id") != snippet.id:
                    alive = worker.alive()
                    worker.kill()
                    tail = worker.stderr_tail()
                    worker.close()
                    del workers[unit]
                    why = f"timed out after {limit} s" if alive else f"killed the worker ({tail or 'no message'})"
                    fail(snippet, f"running it {why}", seconds=float(limit))
                    continue
                result.outcomes[snippet.id] = _interpret(snippet, reply, examples)
                if unit != "shared" and last_of_unit[unit] == snippet.id:
                    workers.pop(unit).close()
        finally:
            for worker in workers.values():
                worker.close()
    result.seconds = time.monotonic() - started
    return result


def _start_worker(server: ForkServer | None, stderr_path: Path):
    """(worker, hello) of a fresh page worker, or (None, why it did not start)."""
    worker = None
    try:
        worker = server.spawn() if server else _Process(stderr_path)
        hello = worker.receive(STARTUP_TIMEOUT)
    except (OSError, RuntimeError) as exc:
        hello = {"error": f"the worker did not start: {exc}"}
    if hello and not hello.get("error"):
        return worker, hello
    why = (hello or {}).get("error") or f"the worker did not start: {worker.stderr_tail() if worker else 'no message'}"
    if worker is not None:
        worker.kill()
        worker.close()
    return None, why
