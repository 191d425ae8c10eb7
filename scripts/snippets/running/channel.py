"""The checker's end of one snippet sandbox: start it, send JSON requests, read JSON replies, stop it.

A sandbox (`sandbox.py`) whose first process is the supervisor (`inside/supervisor.py`): it imports torch
once and forks a fresh process for every unit and every names request. Its stdin/stdout pipes are the
only channel; no path is shared with it and the checker reads nothing else back. Killing it ends the
sandbox and every process in it; so does the checker's death (see the supervisor's docstring).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from scripts.snippets.running.sandbox import python_paths, sandbox_command, sandbox_uid

__all__ = ["INSIDE", "STARTUP_TIMEOUT", "Sandbox", "last_lines", "start_sandbox"]

INSIDE = Path(__file__).resolve().parents[1] / "inside"  # what runs in the sandbox, bound read-only
SUPERVISOR = INSIDE / "supervisor.py"
STARTUP_TIMEOUT = 180
MAX_LINE = 64 << 20  # bytes of one reply line from a supervisor
TAIL_BYTES = 4096  # of a supervisor's stderr, for the message when its sandbox stops


def _sandbox_env() -> dict:
    """The whole environment inside the sandbox: nothing of the checker's own (no tokens, no paths)."""
    threads = os.environ.get("SNIPPETS_THREADS", "1")
    return {
        "CUDA_VISIBLE_DEVICES": "",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        # One thread: reproducible float output, no oversubscription with --jobs, and no threads
        # in the supervisor when it forks.
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
        return last_lines(self.text.decode("utf-8", "replace"))


def last_lines(text: str) -> str:
    """The last three non-empty lines, as one short line (what a message shows of a dying process)."""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    return " | ".join(lines[-3:])[-400:]


class Sandbox:
    """One sandbox: a bubblewrap of its own (own PID, IPC and network namespaces and /tmp; as root, an own
    user) whose first process is the supervisor. Its stdin/stdout are the only channel."""

    def __init__(self):
        command = sandbox_command(
            [sys.executable, str(SUPERVISOR)],
            readonly=[*python_paths(), INSIDE],
            env=_sandbox_env(),
            uid=sandbox_uid(),
            as_pid_1=True,
        )
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = _Lines(self.proc.stdout)
        self.stderr = _Tail(self.proc.stderr)
        self.hello: dict = {}

    def receive(self, timeout: float) -> dict | None:
        return self.lines.receive(timeout)

    def send(self, message: dict) -> bool:
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def ask(self, message: dict, timeout: float) -> dict | None:
        """Send a request and wait for its reply (None when the sandbox stopped or took too long)."""
        return self.receive(timeout) if self.send(message) else None

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


def start_sandbox() -> tuple[Sandbox | None, str]:
    """(a started sandbox, ""), or (None, why it did not start). The sandbox's `hello` says torch's version
    and how long its import took."""
    sandbox = None
    try:
        sandbox = Sandbox()
        hello = sandbox.receive(STARTUP_TIMEOUT)
    except OSError as exc:
        hello = {"error": f"the sandbox did not start: {exc}"}
    if sandbox is not None and hello and not hello.get("error"):
        sandbox.hello = hello
        return sandbox, ""
    why = (hello or {}).get(
        "error"
    ) or f"the sandbox did not start: {sandbox.stderr_tail() if sandbox else 'no message'}"
    if sandbox is not None:
        sandbox.kill()
        sandbox.close()
    return None, why
