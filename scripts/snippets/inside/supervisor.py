"""The page supervisor, and the processes that run one page's python and pycon snippets on real torch.

Started by `scripts.snippets.run` as `python worker.py` (by path, standard library only) as the first
process (PID 1) of the page's own sandbox (`sandbox.py`). It imports torch once, then answers one JSON
request per line on its stdin/stdout, which only the checker holds:

    {"op": "run", "id", "unit", "last", "timeout", "lang": "python"|"pycon", "filename", "line", "code",
     "group", "examples": [...]}

For each unit (one block, or the blocks of one `group`) it forks a fresh *runner* from its clean,
torch-imported state; the snippet runs in the runner, never in the supervisor. The supervisor writes the
reply the checker reads: the runner's own report of its block (the error, what each example printed or
raised, the warnings seen, whether its output overflowed), checked and bounded, plus what the supervisor
measured itself: the time taken, the processes the block left running (killed), a timeout, or the runner's
death with the tail of what it wrote to stdout/stderr (read from a pipe, never from a file).

Why the examples cannot reach it (the sandbox threat model, README.md):
- the checker's channel is the supervisor's stdin/stdout; a runner closes both before any snippet runs,
  and the supervisor is not dumpable (PR_SET_DUMPABLE 0), so /proc/1/fd, /proc/1/mem and ptrace are refused;
- as PID 1 of the page's PID namespace it receives no signal from inside the sandbox (it installs no
  handler), and `kill(-1, ...)` skips it; it may start a few processes more than a runner may;
- when a unit ends, everything else in the namespace is killed and /tmp is emptied, so the next unit starts
  from the same state as the first: one block cannot forge, hang or starve the next.
Snippets of one `group` share a runner (and a namespace) by design, so they can affect each other.

Before every snippet: seed 0 (torch, random, numpy), default print options, float32 default dtype, grad
mode on; stdin is empty. Source lines are registered with linecache under the page's path, so tracebacks
(and `torch.jit.script`, which reads source) see the snippet's code at the page's line numbers.
"""

import builtins
import contextlib
import ctypes
import io
import json
import linecache
import os
import random
import select
import shutil
import signal
import sys
import time
import traceback
import types
import warnings
from pathlib import Path

if sys.path and sys.path[0] and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # the snippet package's own modules must not shadow anything a snippet imports

MAX_OUTPUT = 1 << 20  # bytes of stdout one snippet may print; more is an error (and is not kept)
MAX_PROCESSES = 512  # processes (and threads) of the sandbox's user at once: a fork bomb stops here
SUPERVISOR_SPARE = 16  # the supervisor may start this many more, so it can always fork the next runner
MAX_FILE_SIZE = 256 << 20  # no file may grow beyond this (the sandbox's /tmp is smaller anyway)
MAX_DATA = 6 << 30  # heap and anonymous memory of one runner
MAX_REPLY = 16 << 20  # bytes of one runner's report; more is the block's failure
TAIL_BYTES = 4096  # of a runner's stdout/stderr, kept for the message when it dies
KILL_PATIENCE = 30  # seconds to wait for hundreds of killed processes to go
PR_SET_DUMPABLE = 4


def _set_limits(data: int | None, processes: int) -> None:
    import resource

    limits = [(resource.RLIMIT_NPROC, processes), (resource.RLIMIT_FSIZE, MAX_FILE_SIZE), (resource.RLIMIT_CORE, 0)]
    if data:
        limits.append((resource.RLIMIT_DATA, data))
    for which, value in limits:
        soft, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (value, value))


def _set_dumpable(dumpable: bool) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, int(dumpable), 0, 0, 0)


class BoundedOutput(io.TextIOBase):
    """stdout for a snippet: keeps the first MAX_OUTPUT bytes, counts the rest."""

    def __init__(self):
        self.parts: list[str] = []
        self.size = 0

    def writable(self):
        return True

    def write(self, text):
        room = MAX_OUTPUT - self.size
        if room > 0:
            self.parts.append(text[:room])
        self.size += len(text)
        return len(text)

    @property
    def overflowed(self) -> bool:
        return self.size > MAX_OUTPUT

    def getvalue(self) -> str:
        return "".join(self.parts)


class Worker:
    def __init__(self):
        self.namespaces = {}
        self.page_lines = {}
        self.torch = None
        self.numpy = None

    def start(self):
        started = time.monotonic()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import torch

            self.torch = torch
        except BaseException as exc:  # noqa: BLE001 - report anything
            return {"hello": True, "error": f"cannot import torch: {type(exc).__name__}: {exc}"}
        try:
            import numpy

            self.numpy = numpy
        except ImportError:
            pass
        return {
            "hello": True,
            "error": None,
            "torch": torch.__version__,
            "seconds": round(time.monotonic() - started, 3),
        }

    def _reset(self):
        torch = self.torch
        random.seed(0)
        torch.manual_seed(0)
        if self.numpy is not None:
            self.numpy.random.seed(0)
        torch.set_printoptions(profile="default", sci_mode=None)
        torch.set_default_dtype(torch.float32)
        torch.set_grad_enabled(True)

    def _register_source(self, filename, first_line, source_lines):
        lines = self.page_lines.setdefault(filename, [])
        last = first_line - 1 + len(source_lines)
        if len(lines) < last:
            lines.extend(["\n"] * (last - len(lines)))
        for k, text in enumerate(source_lines):
            lines[first_line - 1 + k] = text + "\n"
        linecache.cache[filename] = (sum(len(x) for x in lines), None, lines, filename)

    def _namespace(self, group, filename):
        """A real module named __main__ whose __file__ is the page (so pickle finds the snippet's
        functions and inspect finds its classes' source), shared by a group."""
        if group and group in self.namespaces:
            module = self.namespaces[group]
        else:
            module = types.ModuleType("__main__")
            module.__dict__["__builtins__"] = builtins
            module.__file__ = filename
            if group:
                self.namespaces[group] = module
        sys.modules["__main__"] = module
        return module.__dict__

    @staticmethod
    def _where(exc, filename):
        """The last line of the page in the traceback, and where the exception was raised."""
        line = None
        origin = None
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            if frame.f_code.co_filename == filename:
                line = lineno
                origin = None
            elif line is not None:  # deeper than the snippet: where torch (or the stdlib) raised it
                origin = f"{Path(frame.f_code.co_filename).name}:{lineno}"
        return line, origin

    def run(self, request):
        filename = request["filename"]
        namespace = self._namespace(request.get("group"), filename)
        self._reset()
        started = time.monotonic()
        reply = {"id": request["id"], "ok": True, "error": None, "examples": [], "warnings": []}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if request["lang"] == "python":
                self._run_python(request, filename, namespace, reply)
            else:
                self._run_pycon(request, filename, namespace, reply)
        for w in caught[:50]:
            reply["warnings"].append(
                {
                    "category": w.category.__name__,
                    "deprecation": issubclass(w.category, (DeprecationWarning, FutureWarning)),
                    "message": str(w.message)[:500],
                    "line": w.lineno if w.filename == filename else None,
                }
            )
        reply["seconds"] = round(time.monotonic() - started, 3)
        return reply

    def _run_python(self, request, filename, namespace, reply):
        code_lines = request["code"].split("\n")
        self._register_source(filename, request["line"], code_lines)
        padded = "\n" * (request["line"] - 1) + request["code"] + "\n"
        out = BoundedOutput()
        try:
            compiled = compile(padded, filename, "exec", dont_inherit=True)
            with contextlib.redirect_stdout(out):
                exec(compiled, namespace)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - report anything the snippet raises
            line, origin = self._where(exc, filename)
            message = "".join(traceback.format_exception_only(type(exc), exc)).strip().split("\n")[-1][:500]
            if origin and line is not None:
                message += f" (raised in {origin})"
            reply["ok"] = False
            reply["error"] = {"line": line or request["line"], "message": message}
        reply["stdout"] = out.getvalue()[-2000:]
        reply["overflow"] = out.size if out.overflowed else 0

    def _run_pycon(self, request, filename, namespace, reply):
        for example in request["examples"]:
            if example.get("skip"):
                reply["examples"].append({"got": "", "exc": None, "skipped": True})
                continue
            source = example["source"]
            self._register_source(filename, example["line"], source.rstrip("\n").split("\n"))
            padded = "\n" * (example["line"] - 1) + source
            out = BoundedOutput()
            result = {"got": "", "exc": None, "line": None}
            try:
                compiled = compile(padded, filename, "single", dont_inherit=True)
                with contextlib.redirect_stdout(out):
                    sys.displayhook = sys.__displayhook__
                    exec(compiled, namespace)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # noqa: BLE001
                line, origin = self._where(exc, filename)
                result["exc"] = traceback.format_exception_only(type(exc), exc)[-1][:500]
                result["line"] = line
                result["origin"] = origin
            result["got"] = out.getvalue()
            if out.overflowed:
                reply["overflow"] = max(reply.get("overflow", 0), out.size)
            reply["examples"].append(result)


def _serve_requests(proto_in, proto_out, worker):
    """The runner's loop: answer run requests until the supervisor closes the pipe."""
    for line in proto_in:
        if not line.strip():
            continue
        proto_out.write(json.dumps(worker.run(json.loads(line))) + "\n")
        proto_out.flush()


def _enter_own_directory():
    """A fresh working directory in the sandbox's private /tmp, and torch.compile's cache inside it, so a
    unit never finds what an earlier one left (a compiled kernel included)."""
    import tempfile

    os.chdir(tempfile.mkdtemp(prefix="page-", dir="/tmp"))
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(os.getcwd(), "torchinductor-cache")


# --- the runner: a fork of the supervisor that runs one unit ------------------------------------------


def _signals_for_snippets() -> None:
    """What a fresh Python has: Ctrl-C raises KeyboardInterrupt, a closed pipe is an error, not death."""
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)


def _keep_only_fds(keep: set[int]) -> None:
    """Close every descriptor but `keep`: the checker's channel (the supervisor's) above all."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _run_unit(worker, requests_fd: int, replies_fd: int, output_fd: int) -> None:
    """The runner's whole life (never returns): stdio on the output pipe, limits, then requests."""
    code = 0
    try:
        os.setsid()
        _signals_for_snippets()
        _set_dumpable(True)  # as any process: a snippet may read its own /proc files
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        # Replaced before the descriptors go: the old object closes its own descriptor when it is dropped.
        sys.stdin = open(0, encoding="utf-8", closefd=False)
        _keep_only_fds({0, 1, 2, requests_fd, replies_fd})
        _set_limits(MAX_DATA, MAX_PROCESSES)
        _enter_own_directory()
        with open(requests_fd, encoding="utf-8") as requests, open(replies_fd, "w", encoding="utf-8") as replies:
            _serve_requests(requests, replies, worker)
    except BaseException:  # noqa: BLE001 - the supervisor sees the tail of this
        traceback.print_exc()
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
        os._exit(code)


class Runner:
    """The supervisor's handle on one runner: its pid and the three pipes it shares with it."""

    def __init__(self, worker):
        request_read, self.requests = os.pipe()
        self.replies, reply_write = os.pipe()
        self.output, output_write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        self.pid = os.fork()
        if self.pid == 0:
            _run_unit(worker, request_read, reply_write, output_write)
        for fd in (request_read, reply_write, output_write):
            os.close(fd)
        self.tail = b""

    def keep_tail(self, chunk: bytes) -> None:
        self.tail = (self.tail + chunk)[-TAIL_BYTES:]

    def tail_text(self) -> str:
        return self.tail.decode("utf-8", "replace")

    def discard_pending_replies(self) -> None:
        """Anything the runner wrote after its last reply is not the next block's reply."""
        while select.select([self.replies], [], [], 0)[0]:
            if not os.read(self.replies, 1 << 16):
                return

    def send(self, request: dict) -> bool:
        data = (json.dumps(request) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self.requests, data) :]
        except OSError:
            return False
        return True

    def close(self) -> None:
        for fd in (self.requests, self.replies, self.output):
            with contextlib.suppress(OSError):
                os.close(fd)


# --- the supervisor: PID 1 of the page's sandbox --------------------------------------------------------


def _live_processes(keep: set[int]) -> list[int]:
    """Pids of the live processes in this PID namespace, except this one (PID 1) and `keep`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in keep or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != b"Z":
            found.append(int(entry))
    return found


def _reap(until: float) -> None:
    """Collect dead children (runners, and orphans re-parented to PID 1) until none is left or time is up."""
    while time.monotonic() < until:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def _kill_all_but(keep: set[int]) -> int:
    """Kill every live process of the namespace but PID 1 and `keep`; how many there were."""
    live = _live_processes(keep)
    count = len(live)
    deadline = time.monotonic() + KILL_PATIENCE
    while live and time.monotonic() < deadline:
        if keep:
            for pid in live:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        else:
            with contextlib.suppress(OSError):
                os.kill(-1, signal.SIGKILL)  # from PID 1: everything else, including what forks meanwhile
        _reap(time.monotonic() + 0.2)
        live = _live_processes(keep)
    return count


def _empty_tmp() -> None:
    """What a unit left in /tmp goes with it (the runner's user owns it, so even a 000 folder goes)."""
    for entry in os.scandir("/tmp"):
        path = entry.path
        if entry.is_dir(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.chmod(path, 0o700)
            for root, dirs, _ in os.walk(path):  # top-down: a folder is opened up before it is entered
                for name in dirs:
                    if not os.path.islink(os.path.join(root, name)):
                        with contextlib.suppress(OSError):
                            os.chmod(os.path.join(root, name), 0o700)
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(path)


def _end_unit(runner: Runner) -> None:
    _kill_all_but(set())
    _reap(time.monotonic() + 1)
    runner.close()
    _empty_tmp()


def _checked_report(report, request: dict) -> dict | str:
    """The runner's report with only the fields and types the checker reads, bounded; or why it is not one."""
    if not isinstance(report, dict):
        return "its report is not an object"
    checked = {"error": None, "examples": [], "warnings": [], "overflow": 0}
    error = report.get("error")
    if error is not None:
        if not (
            isinstance(error, dict) and isinstance(error.get("line"), int) and isinstance(error.get("message"), str)
        ):
            return "its report has a malformed error"
        checked["error"] = {"line": error["line"], "message": error["message"][:500]}
    examples = report.get("examples", [])
    if not isinstance(examples, list) or len(examples) > len(request.get("examples", [])):
        return "its report has more examples than the block"
    for result in examples:
        if not (
            isinstance(result, dict)
            and isinstance(result.get("got", ""), str)
            and isinstance(result.get("exc"), (str, type(None)))
        ):
            return "its report has a malformed example"
        checked["examples"].append(
            {
                "got": result.get("got", "")[: MAX_OUTPUT + 1],
                "exc": result.get("exc"),
                "skipped": result.get("skipped") is True,
                "origin": result["origin"] if isinstance(result.get("origin"), str) else None,
            }
        )
    for warning in report.get("warnings", [])[:50] if isinstance(report.get("warnings"), list) else []:
        if (
            isinstance(warning, dict)
            and isinstance(warning.get("category"), str)
            and isinstance(warning.get("message"), str)
        ):
            checked["warnings"].append(
                {
                    "category": warning["category"][:100],
                    "deprecation": warning.get("deprecation") is True,
                    "message": warning["message"][:500],
                    "line": warning["line"] if isinstance(warning.get("line"), int) else None,
                }
            )
    overflow = report.get("overflow", 0)
    checked["overflow"] = overflow if isinstance(overflow, int) and overflow > 0 else 0
    return checked


def _await_report(runner: Runner, timeout: float) -> tuple[bytes | None, str | None]:
    """(the runner's report line, None), or (None, "timeout" | "died" | why), draining its output meanwhile."""
    deadline = time.monotonic() + timeout
    received = b""
    streams = [runner.replies, runner.output]
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None, "timeout"
        ready, _, _ = select.select(streams, [], [], remaining)
        if runner.output in ready:
            chunk = os.read(runner.output, 1 << 16)
            if chunk:
                runner.keep_tail(chunk)
            else:
                streams.remove(runner.output)
        if runner.replies in ready:
            chunk = os.read(runner.replies, 1 << 20)
            if not chunk:
                return None, "died"
            received += chunk
            if b"\n" in received:
                return received.split(b"\n", 1)[0], None
            if len(received) > MAX_REPLY:
                return None, f"its report is larger than {MAX_REPLY >> 20} MB"


def _drain_output(runner: Runner, seconds: float) -> None:
    """What the runner wrote just before it died (its traceback) arrives after the end of its report pipe."""
    deadline = time.monotonic() + seconds
    while (
        time.monotonic() < deadline and select.select([runner.output], [], [], max(0.0, deadline - time.monotonic()))[0]
    ):
        chunk = os.read(runner.output, 1 << 16)
        if not chunk:
            return
        runner.keep_tail(chunk)


def _how_it_ended(pid: int) -> str:
    """ "exit status 3" or "signal 9" of a runner that closed its report pipe (waiting a second at most)."""
    deadline = time.monotonic() + 1
    while time.monotonic() < deadline:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            break
        if done:
            return (
                f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit status {os.WEXITSTATUS(status)}"
            )
        time.sleep(0.02)
    return "no message"


def _run_block(runner: Runner, request: dict) -> tuple[dict, bool]:
    """(the reply for the checker, whether the runner must go) for one block."""
    started = time.monotonic()
    reply = {"id": request["id"]}
    runner.discard_pending_replies()
    line, failure = (None, "died") if not runner.send(request) else _await_report(runner, float(request["timeout"]))
    reply["seconds"] = round(time.monotonic() - started, 3)
    if failure == "timeout":
        return {**reply, "timeout": True}, True
    if failure == "died":
        _drain_output(runner, 2.0)
        return {**reply, "died": runner.tail_text().strip() or _how_it_ended(runner.pid)}, True
    try:
        report = _checked_report(json.loads(line), request) if failure is None else failure
    except ValueError:
        report = "its report is not JSON"
    if isinstance(report, str):
        return {**reply, "died": f"{report} ({runner.tail_text().strip()[-300:] or 'no message'})"}, True
    reply.update(report)
    last = bool(request.get("last"))
    # Processes the block left behind are its fault; they go now (with the runner too, when the unit ends).
    reply["strays"] = len(_live_processes({runner.pid})) if last else _kill_all_but({runner.pid})
    return reply, last


def _shield_supervisor() -> None:
    """No handler for any signal (PID 1 then gets none from inside its namespace) and not dumpable."""
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # the kernel drops an ignored signal: no handler either
    _set_dumpable(False)


def _supervise(proto_in, proto_out, worker) -> None:
    """Answer the checker's run requests, one unit's runner at a time, until "exit" or the end of input."""
    runner, unit = None, None
    for line in proto_in:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") != "run":
            break
        if runner is not None and unit != request["unit"]:
            _end_unit(runner)
            runner = None
        if runner is None:
            runner, unit = Runner(worker), request["unit"]
        reply, done = _run_block(runner, request)
        if done:
            _end_unit(runner)
            runner = None
        proto_out.write(json.dumps(reply) + "\n")
        proto_out.flush()
    if runner is not None:
        _end_unit(runner)


def main():
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # anything written to fd 1 by C code goes to stderr, never into the protocol
    sys.stdin = open(os.devnull, encoding="utf-8")
    _set_limits(None, MAX_PROCESSES + SUPERVISOR_SPARE)  # its memory is shared by its forks: they set theirs
    worker = Worker()
    hello = worker.start()
    _shield_supervisor()  # after torch's import, which could have installed handlers
    proto_out.write(json.dumps(hello) + "\n")
    proto_out.flush()
    if hello["error"]:
        return 1
    _supervise(proto_in, proto_out, worker)
    return 0


if __name__ == "__main__":
    sys.exit(main())
