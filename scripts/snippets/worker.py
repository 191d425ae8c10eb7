"""The worker process that runs one page's python and pycon snippets on real torch.

Started by `scripts.snippets.run` as `python worker.py` (by path, standard library only) with a
temporary working directory. It imports torch once, then answers one JSON request per line
(with --fork-server it instead forks one such worker per page, each talking over a Unix socket):

    {"id", "lang": "python"|"pycon", "filename", "line", "code", "group", "examples": [...]}

and replies with one JSON line: the error (python), what each example printed or raised (pycon),
the warnings seen, how many processes the snippet left running (killed), whether its output overflowed,
and the time taken. Before every snippet: seed 0 (torch, random, numpy), default print options, float32
default dtype, grad mode on; stdin is empty. Snippets of one `group` share a namespace.

It always runs inside the OS sandbox of `sandbox.py` (no network, read-only system, private /tmp, clean
environment, unprivileged). On top of it, this process sets resource limits (processes, file size, memory)
and makes itself a child subreaper, so whatever a snippet forks or daemonizes comes back to it and is killed
when the snippet ends: the snippet is blamed, not the next one.
Source lines are registered with linecache under the page's path, so tracebacks (and
`torch.jit.script`, which reads source) see the snippet's code at the page's line numbers.
"""

import builtins
import contextlib
import io
import json
import linecache
import os
import random
import signal
import socket
import sys
import time
import traceback
import types
import warnings
from pathlib import Path

if sys.path and sys.path[0] and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # the snippet package's own modules must not shadow anything a snippet imports

MAX_OUTPUT = 1 << 20  # bytes of stdout one snippet may print; more is an error (and is not kept)
MAX_PROCESSES = 512  # processes of the sandbox user at once: a fork bomb stops here
MAX_FILE_SIZE = 256 << 20  # no file (or the stderr log) may grow beyond this
MAX_DATA = 6 << 30  # heap and anonymous memory of one page's worker
PR_SET_CHILD_SUBREAPER = 36


def _set_limits(data: int | None = None) -> None:
    import resource

    limits = [(resource.RLIMIT_NPROC, MAX_PROCESSES), (resource.RLIMIT_FSIZE, MAX_FILE_SIZE), (resource.RLIMIT_CORE, 0)]
    if data:
        limits.append((resource.RLIMIT_DATA, data))
    for which, value in limits:
        soft, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (value, value))


def _become_subreaper() -> None:
    """Orphaned descendants (a snippet that double-forks a daemon) are re-parented to this process."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _descendants(root: int) -> list[tuple[int, bool]]:
    """(pid, is a zombie) of every process below `root`."""
    children: dict[int, list[tuple[int, bool]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().decode("ascii", "replace").rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append((int(entry), fields[0] == "Z"))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def _reap(deadline: float) -> None:
    """Collect dead children (killed ones, and orphans re-parented here) until none is left or time is up."""
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def kill_strays() -> int:
    """Kill every live process this one has left below it (children, and orphans re-parented here), and wait
    until they are gone (hundreds of dying processes take a moment); how many there were."""
    strays = [pid for pid, zombie in _descendants(os.getpid()) if not zombie]
    deadline = time.monotonic() + 30
    live = strays
    while live and time.monotonic() < deadline:
        for pid in live:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap(time.monotonic() + 0.5)
        live = [pid for pid, zombie in _descendants(os.getpid()) if not zombie]
    _reap(time.monotonic() + 0.2)
    return len(strays)


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
        return {"hello": True, "error": None, "torch": torch.__version__, "seconds": round(time.monotonic() - started, 3)}

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
        reply["strays"] = kill_strays()
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
    """Answer run requests until "exit" or the end of input."""
    for line in proto_in:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") == "exit":
            break
        proto_out.write(json.dumps(worker.run(request)) + "\n")
        proto_out.flush()


def _enter_own_directory():
    """A fresh working directory in the sandbox's private /tmp, and torch.compile's cache inside it.

    Why the cache: the default (/tmp/torchinductor_<user>) is shared by every page worker, and the two
    languages of a page run the same code at the same time; two processes compiling the same graph there
    race (one read another's half-written JSON and failed in a clean CI run)."""
    import tempfile

    os.chdir(tempfile.mkdtemp(prefix="page-", dir="/tmp"))
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(os.getcwd(), "torchinductor-cache")


def _kill_group(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def _fork_server(proto_in, proto_out, worker):
    """--fork-server: torch is imported once here; each "fork" request gets a fresh child that connects
    back to the checker over the given Unix socket and serves one page (so torch's import is paid once
    for the whole site, and pages still run in separate processes). The checker cannot signal processes
    inside the sandbox's PID namespace, so it asks: "kill" ends a page worker's whole process group, "alive"
    says whether it still runs."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped automatically
    for line in proto_in:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") == "kill":
            _kill_group(request["pid"])
            reply = {"pid": request["pid"], "alive": False}
        elif request.get("op") == "alive":
            reply = {"pid": request["pid"], "alive": _alive(request["pid"])}
        elif request.get("op") == "fork":
            reply = {"pid": _fork_page_worker(request, proto_in, proto_out, worker)}
        else:
            break
        proto_out.write(json.dumps(reply) + "\n")
        proto_out.flush()


def _fork_page_worker(request, proto_in, proto_out, worker) -> int:
    pid = os.fork()
    if pid:
        return pid
    code = 0
    try:  # the page's worker
        os.setsid()  # its own process group: "kill" ends it with everything it started
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # snippets may wait for their own subprocesses
        _set_limits(MAX_DATA)
        _become_subreaper()
        proto_in.close()
        proto_out.close()
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(err, 2)
        os.dup2(err, 1)
        os.close(err)
        _enter_own_directory()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(request["socket"])
        child_in = sock.makefile("r", encoding="utf-8")
        child_out = sock.makefile("w", encoding="utf-8")
        child_out.write(json.dumps({"hello": True, "error": None, "pid": os.getpid(), "torch": worker.torch.__version__, "seconds": 0.0}) + "\n")
        child_out.flush()
        _serve_requests(child_in, child_out, worker)
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        code = 1
    finally:
        sys.stderr.flush()
        os._exit(code)


def main():
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # anything written to fd 1 by C code goes to stderr, never into the protocol
    sys.stdin = open(os.devnull, encoding="utf-8")
    fork_server = "--fork-server" in sys.argv[1:]
    _set_limits(None if fork_server else MAX_DATA)  # the server's memory is shared by its forks: they set theirs
    if not fork_server:
        _become_subreaper()
        _enter_own_directory()

    worker = Worker()
    hello = worker.start()
    proto_out.write(json.dumps(hello) + "\n")
    proto_out.flush()
    if hello["error"]:
        return 1
    if fork_server:
        _fork_server(proto_in, proto_out, worker)
    else:
        _serve_requests(proto_in, proto_out, worker)
    return 0


if __name__ == "__main__":
    sys.exit(main())
