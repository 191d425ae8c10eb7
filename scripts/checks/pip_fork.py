"""A pip that starts once and resolves many times: `python -m scripts.checks.pip_fork` imports pip (and warms it on
the first job), then reads jobs as JSON lines on stdin (`{"id": 1, "argv": ["install", "--dry-run", ...]}`), runs
each in a forked child (pip's own `main`, its own process: no state passes from one job to the next) and writes
`{"id": 1, "code": 0, "error": "<pip's last ERROR line>"}` per job on stdout, in order. It ends at the end of its
input. scripts/checks/install_resolver.py starts one per worker; a job costs its resolution, not pip's start.

Run it with an environment free of pip configuration (the caller's job: a machine's find-links or constraints must
not decide what PyPI could resolve).
"""

from __future__ import annotations

import json
import os
import sys
import types


def run_forked(main, argv: list[str]) -> tuple[int, str]:
    """pip's `main(argv)` in a child process; (exit status, its stdout and stderr together)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: pip writes into the pipe, and the child never returns into the caller's code
        code = 3
        try:
            os.close(read_end)
            os.dup2(write_end, 1)
            os.dup2(write_end, 2)
            code = main(argv) or 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - any failure is the job's, reported by its status
            code = 3
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()  # os._exit flushes nothing
                except (OSError, ValueError):
                    pass
            os._exit(code)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode("utf-8", "replace")


def last_error(output: str) -> str:
    errors = [line for line in output.splitlines() if line.startswith("ERROR")]
    return errors[-1] if errors else output.strip()[-300:]


def warm(main) -> None:
    """One throw-away resolution in this process, so the modules pip imports as it runs are imported once, here,
    and every forked job starts with them. Its output is dropped."""
    saved = os.dup(1), os.dup(2)
    with open(os.devnull, "w") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            main(["install", "--dry-run", "--no-index", "--quiet", "--disable-pip-version-check", "nothing-to-find==0"])
        except SystemExit:
            pass
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def main() -> int:
    # PEP 600 lets a `_manylinux` module override manylinux compatibility; packaging tries to import one for every
    # tag it considers (on the host: pip's wheel cache asks), and a failed import is searched for again each time.
    # An empty module defines no override, so pip decides exactly as without one, minus the searches.
    sys.modules.setdefault("_manylinux", types.ModuleType("_manylinux"))
    from pip._internal.cli.main import main as pip_main  # noqa: PLC0415 - pip is imported here, once, by design

    warm(pip_main)
    for line in sys.stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        code, output = run_forked(pip_main, job["argv"])
        sys.stdout.write(
            json.dumps({"id": job["id"], "code": code, "error": "" if code == 0 else last_error(output)}) + "\n"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
