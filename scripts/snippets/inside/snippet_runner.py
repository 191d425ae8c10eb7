"""A unit's runner: the fork of a sandbox's supervisor in which one unit's python and pycon blocks run.

Standard library only (torch is already imported by the supervisor it was forked from). Requests come
one JSON line each on the requests pipe; each gets one JSON report line on the replies pipe:

    {"op": "run", "id", "lang": "python"|"pycon", "filename", "line", "code", "group", "examples": [...]}

`filename` and `line` are what the checker chose for the unit (the same for any page holding the same
unit, so a run does not depend on which page asked). Before every snippet: seed 0 (torch, random, numpy),
default print options, float32 default dtype, grad mode on; stdin is empty. Source lines are registered
with linecache under `filename`, so tracebacks (and `torch.jit.script`, which reads source) see the code.
"""

import builtins
import contextlib
import io
import json
import linecache
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
import types
import warnings
from pathlib import Path

import snippet_proc  # type: ignore[import-not-found]  # a sibling: run by path in the sandbox

MAX_OUTPUT = 1 << 20  # bytes of stdout one snippet may print; more is an error (and is not kept)


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


def _warm_compiler() -> str | None:
    """What every torch.compile block would otherwise do first, done once here, before any page's code:
    import the compiler's modules and find which vector instructions this CPU and g++ support (inductor
    compiles a test program per instruction set, ~10 s, and remembers the answer in memory only). The
    answer is inherited by every runner forked later. Nothing of a page is involved. Returns what failed."""
    cache = tempfile.mkdtemp(prefix="warm-", dir="/tmp")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache  # the checks' binaries go, the answer stays
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import torch._dynamo  # noqa: F401
            import torch._inductor.codecache  # noqa: F401
            import torch._inductor.compile_fx  # noqa: F401
            import torch.export  # noqa: F401
            from torch._inductor import cpu_vec_isa

            cpu_vec_isa.valid_vec_isa_list()
            cpu_vec_isa.pick_vec_isa()
        return None
    except BaseException as exc:  # noqa: BLE001 - a unit then does it itself
        return f"{type(exc).__name__}: {exc}"[:300]
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        os.environ.pop("TORCHINDUCTOR_CACHE_DIR", None)


class Worker:
    """torch, imported once by the supervisor; `run` is only ever called in a runner (a fork)."""

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
            "threads": len(os.listdir("/proc/self/task")),
        }

    def warm(self) -> dict:
        """Prepare torch.compile once, here, for every runner forked later (`_warm_compiler`)."""
        started = time.monotonic()
        failed = _warm_compiler()
        return {
            "op": "warm",
            "error": failed,
            "seconds": round(time.monotonic() - started, 3),
            "threads": len(os.listdir("/proc/self/task")),
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
        """A real module named __main__ whose __file__ is the unit's file (so pickle finds the snippet's
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
        """The last line of the unit's file in the traceback, and where the exception was raised."""
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


def _enter_own_directory():
    """A fresh working directory in the sandbox's private /tmp, and torch.compile's cache inside it, so a
    unit never finds what an earlier one left (a compiled kernel included)."""
    os.chdir(tempfile.mkdtemp(prefix="page-", dir="/tmp"))
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(os.getcwd(), "torchinductor-cache")


def run_unit(worker: Worker, requests_fd: int, replies_fd: int, output_fd: int) -> None:
    """The runner's whole life (never returns): answer run requests until the supervisor closes the pipe."""
    code = 0
    try:
        snippet_proc.enter_child(requests_fd, replies_fd, output_fd)
        _enter_own_directory()
        with open(requests_fd, encoding="utf-8") as requests, open(replies_fd, "w", encoding="utf-8") as replies:
            for line in requests:
                if line.strip():
                    replies.write(json.dumps(worker.run(json.loads(line))) + "\n")
                    replies.flush()
    except BaseException:  # noqa: BLE001 - the supervisor sees the tail of this
        traceback.print_exc()
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
        os._exit(code)
