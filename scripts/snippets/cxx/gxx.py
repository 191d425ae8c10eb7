"""Check 5, tier 2: g++ type-checks a page's translation unit (`cpp.build_translation_unit`), bounded.

g++ runs in a sandbox of its own (`sandbox.py`: no network, read-only system and torch headers, nothing of
the checkout), since a block can make it read and quote a file (#include "/proc/self/environ"). It is held
to an address space (GXX_ADDRESS_SPACE, `prlimit`), CPU time, wall time and output size: `#include
"/dev/zero"` would otherwise grow it to 8 GiB in 14 s. When g++ does not finish a unit within them, each
block is compiled alone under the same limits, so the block that cannot be compiled fails with its own
`file:line`, and the others get their own verdicts.

Nothing is cached between runs: a result is only ever trusted from a g++ this run started (a cache in
the repository could be committed, forged, along with the page). Within a run, pages whose units are
byte-identical share one compile (`check`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import select
import shutil
import signal
import subprocess
import sysconfig
import threading
import time
from pathlib import Path

from scripts.snippets.cxx.cpp import build_translation_unit, relative_record
from scripts.snippets.model import Snippet
from scripts.snippets.running.sandbox import python_paths, sandbox_command

__all__ = ["GXX_ADDRESS_SPACE", "compile_unit", "gxx_flags", "torch_version", "unit_hash"]

GXX_ADDRESS_SPACE = 4 << 30  # a page including <torch/torch.h> peaks at ~1.6 GiB of address space
GXX_CPU_SECONDS = 300  # such a page takes ~10 s
GXX_WALL_SECONDS = 600  # on a machine busy with other work
GXX_OUTPUT = 1 << 20  # bytes of diagnostics read; more stops g++
STOPPED_RE = re.compile(
    r"out of memory|virtual memory exhausted|cannot allocate memory|signal terminated program|internal compiler error",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=1)
def _torch_dir() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("torch")  # finds the package without importing (running) it
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).parent


@functools.lru_cache(maxsize=1)
def torch_version() -> str | None:
    """The installed torch's version (read from its version file, without importing torch)."""
    torch_dir = _torch_dir()
    if torch_dir is None:
        return None
    version_file = torch_dir / "version.py"
    if version_file.exists():
        match = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", version_file.read_text(encoding="utf-8"), re.M)
        if match:
            return match.group(1)
    return None


def gxx_flags() -> list[str]:
    torch_dir = _torch_dir()
    if torch_dir is None:
        raise RuntimeError("torch is not installed: the C++ check needs the headers in the torch wheel")
    include = torch_dir / "include"
    return [
        "-std=c++20",
        "-fsyntax-only",
        "-fdiagnostics-color=never",
        "-fno-diagnostics-show-caret",
        "-isystem",
        str(include),
        "-isystem",
        str(include / "torch" / "csrc" / "api" / "include"),
        "-isystem",
        sysconfig.get_paths()["include"],
        "-DTORCH_EXTENSION_NAME=snippet_extension",
        "-D_GLIBCXX_USE_CXX11_ABI=1",
    ]


def _check_gxx() -> None:
    if shutil.which("g++") is None:
        raise RuntimeError("g++ is not installed: the C++ check needs it (or pass --no-cpp)")
    if shutil.which("prlimit") is None:
        raise RuntimeError("prlimit (util-linux) is missing: g++ runs under its limits")


def unit_hash(snippets: list[Snippet]) -> str:
    """Pages whose translation units hash alike are byte-identical: g++ checks them once."""
    return hashlib.sha256(build_translation_unit(snippets).encode("utf-8")).hexdigest()


def _include_roots(flags: list[str]) -> list[Path]:
    """The folders g++ reads headers from (torch's, inside the virtual environment), plus Python's."""
    roots = {Path(flag[2:]) for flag in flags if flag.startswith("-I") and len(flag) > 2}
    roots |= {Path(b) for a, b in zip(flags, flags[1:], strict=False) if a in ("-I", "-isystem")}
    return [*python_paths(), *sorted(r for r in roots if r.exists())]


def _command(flags: list[str]) -> list[str]:
    limits = [
        "prlimit",
        f"--as={GXX_ADDRESS_SPACE}",
        f"--cpu={GXX_CPU_SECONDS}",
        "--core=0",
        "--",
    ]
    return sandbox_command(
        [*limits, "g++", *flags, "-x", "c++", "-"], readonly=_include_roots(flags), env={"LC_ALL": "C"}
    )


def _run_bounded(command: list[str], source: str) -> tuple[str, int, str | None]:
    """(stderr, return code, why it was stopped or None): at most GXX_OUTPUT bytes read, GXX_WALL_SECONDS."""
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    stdin, stderr = proc.stdin, proc.stderr
    assert stdin is not None and stderr is not None  # both are pipes, asked for above

    def feed() -> None:
        try:
            stdin.write(source.encode("utf-8"))
            stdin.close()
        except OSError:
            pass

    threading.Thread(target=feed, daemon=True).start()
    deadline = time.monotonic() + GXX_WALL_SECONDS
    received, stopped = b"", None
    fd = stderr.fileno()
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            stopped = f"it took more than {GXX_WALL_SECONDS} s"
            break
        if not select.select([fd], [], [], remaining)[0]:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        received += chunk
        if len(received) > GXX_OUTPUT:
            stopped = f"it printed more than {GXX_OUTPUT >> 20} MB of diagnostics"
            break
    if stopped:
        with contextlib.suppress(OSError):  # it may have ended meanwhile
            os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    stderr.close()
    return received[:GXX_OUTPUT].decode("utf-8", "replace"), proc.returncode, stopped


def _stopped(stderr: str, returncode: int, stopped: str | None) -> str | None:
    """Why g++ did not finish the unit (a limit, a crash), or None when it gave a verdict."""
    if stopped:
        return stopped
    if returncode < 0:
        return f"it was killed by signal {-returncode}"
    found = STOPPED_RE.search(stderr)
    if returncode != 0 and found:
        limit = f" (limit {GXX_ADDRESS_SPACE >> 30} GiB)" if "memory" in found.group(0).lower() else ""
        return f"{found.group(0)}{limit}"
    return None


def compile_unit(snippets: list[Snippet]) -> tuple[dict, float]:
    """g++'s verdict on one page's cpp snippets (`cpp.relative_record`) and the seconds it took."""
    started = time.monotonic()
    try:
        flags = gxx_flags()
        _check_gxx()
    except RuntimeError as exc:
        return {"returncode": -1, "errors": [], "deprecations": {}, "other": [str(exc)], "unavailable": True}, 0.0
    command = _command(flags)
    stderr, code, stopped = _run_bounded(command, build_translation_unit(snippets))
    why = _stopped(stderr, code, stopped)
    if why is None:
        return relative_record(stderr, code, snippets), time.monotonic() - started
    # One block (or more) could not be compiled within the limits: each block alone says which.
    record: dict = {"returncode": code, "errors": [], "deprecations": {}, "other": [], "block_failures": {}}
    for k, s in enumerate(snippets):
        stderr, code, stopped = _run_bounded(command, build_translation_unit([s]))
        why = _stopped(stderr, code, stopped)
        if why is not None:
            record["block_failures"][str(k)] = f"could not check this block: {why}"
            continue
        alone = relative_record(stderr, code, [s])
        record["errors"] += [{**error, "block": k} for error in alone["errors"]]
        record["other"] += alone["other"]
        record["deprecations"].update({str(k): m for m in alone["deprecations"].values()})
    return record, time.monotonic() - started
