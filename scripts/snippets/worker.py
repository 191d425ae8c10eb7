"""The worker process that runs one page's python and pycon snippets on real torch.

Started by `scripts.snippets.run` as `python worker.py` (by path, standard library only) with a
temporary working directory. It imports torch once, then answers one JSON request per line
(with --fork-server it instead forks one such worker per page, each talking over a Unix socket):

    {"id", "lang": "python"|"pycon", "filename", "line", "code", "group", "examples": [...]}

and replies with one JSON line: the error (python), what each example printed or raised (pycon),
the DeprecationWarning/FutureWarning messages seen, and the time taken. Before every snippet: seed 0
(torch, random, numpy), default print options, float32 default dtype, grad mode on; sockets cannot
connect anywhere but loopback; stdin is empty. Snippets of one `group` share a namespace.
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

LOOPBACK = ("127.0.0.1", "::1", "localhost", "0.0.0.0", "")


class NetworkBlocked(OSError):
    pass


def _use_own_compile_cache():
    """Point torch.compile/AOTInductor at a cache inside this worker's working directory.

    Why: the default cache (/tmp/torchinductor_<user>) is shared by every worker, and the two
    languages of a page run the same code at the same time; two processes compiling the same graph
    there race (one read another's half-written JSON and failed in a clean CI run). The working
    directory is private to the worker and removed with it.
    """
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(os.getcwd(), "torchinductor-cache")


def _block_network():
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex

    def allowed(sock, address):
        if sock.family == getattr(socket, "AF_UNIX", object()):
            return True
        host = address[0] if isinstance(address, tuple) else address
        return host in LOOPBACK

    def connect(self, address):
        if not allowed(self, address):
            raise NetworkBlocked(f"network access is disabled while snippets run (connect to {address!r})")
        return original_connect(self, address)

    def connect_ex(self, address):
        if not allowed(self, address):
            raise NetworkBlocked(f"network access is disabled while snippets run (connect to {address!r})")
        return original_connect_ex(self, address)

    original_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and name not in LOOPBACK:
            raise NetworkBlocked(f"network access is disabled while snippets run (lookup of {name!r})")
        return original_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect
    socket.socket.connect_ex = connect_ex
    socket.getaddrinfo = getaddrinfo


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
        for w in caught:
            if issubclass(w.category, (DeprecationWarning, FutureWarning)):
                reply["warnings"].append(
                    {
                        "category": w.category.__name__,
                        "message": str(w.message),
                        "line": w.lineno if w.filename == filename else None,
                    }
                )
        reply["seconds"] = round(time.monotonic() - started, 3)
        return reply

    def _run_python(self, request, filename, namespace, reply):
        code_lines = request["code"].split("\n")
        self._register_source(filename, request["line"], code_lines)
        padded = "\n" * (request["line"] - 1) + request["code"] + "\n"
        out = io.StringIO()
        try:
            compiled = compile(padded, filename, "exec", dont_inherit=True)
            with contextlib.redirect_stdout(out):
                exec(compiled, namespace)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - report anything the snippet raises
            line, origin = self._where(exc, filename)
            message = "".join(traceback.format_exception_only(type(exc), exc)).strip().split("\n")[-1]
            if origin and line is not None:
                message += f" (raised in {origin})"
            reply["ok"] = False
            reply["error"] = {"line": line or request["line"], "message": message}
        reply["stdout"] = out.getvalue()[-2000:]

    def _run_pycon(self, request, filename, namespace, reply):
        for example in request["examples"]:
            if example.get("skip"):
                reply["examples"].append({"got": "", "exc": None, "skipped": True})
                continue
            source = example["source"]
            self._register_source(filename, example["line"], source.rstrip("\n").split("\n"))
            padded = "\n" * (example["line"] - 1) + source
            out = io.StringIO()
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
                result["exc"] = traceback.format_exception_only(type(exc), exc)[-1]
                result["line"] = line
                result["origin"] = origin
            result["got"] = out.getvalue()
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


def _fork_server(proto_in, proto_out, worker):
    """--fork-server: torch is imported once here; each "fork" request gets a fresh child that connects
    back to the checker over the given Unix socket and serves one page (so torch's import is paid once
    for the whole site, and pages still run in separate processes)."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped automatically
    for line in proto_in:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") != "fork":
            break
        pid = os.fork()
        if pid == 0:  # the page's worker
            code = 0
            try:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # snippets may wait for their own subprocesses
                proto_in.close()
                proto_out.close()
                err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(err, 2)
                os.dup2(err, 1)
                os.close(err)
                os.chdir(request["cwd"])
                _use_own_compile_cache()
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
        proto_out.write(json.dumps({"pid": pid}) + "\n")
        proto_out.flush()


def main():
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # anything written to fd 1 by C code goes to stderr, never into the protocol
    sys.stdin = open(os.devnull, encoding="utf-8")
    _block_network()
    if "--fork-server" not in sys.argv[1:]:
        _use_own_compile_cache()  # a forked page worker sets its own after moving to its directory

    worker = Worker()
    hello = worker.start()
    proto_out.write(json.dumps(hello) + "\n")
    proto_out.flush()
    if hello["error"]:
        return 1
    if "--fork-server" in sys.argv[1:]:
        _fork_server(proto_in, proto_out, worker)
    else:
        _serve_requests(proto_in, proto_out, worker)
    return 0


if __name__ == "__main__":
    sys.exit(main())
