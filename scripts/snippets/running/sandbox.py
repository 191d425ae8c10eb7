"""The OS-level sandbox every code example runs in: bubblewrap (Debian's `bubblewrap`), as an unprivileged user.

A page's examples are untrusted code (they come from contributors' pull requests, and the deploy job has a
token in its environment), so the worker that runs them gets:

- **no network**: a network namespace of its own with only a loopback interface (127.0.0.0/8 works, so code
  that talks to itself — a TCPStore, a local socket pair — still runs);
- **a read-only view of what it needs**: /usr, /etc, the Python installation, the virtual environment and the
  worker script, each bound read-only at its own path; nothing else of the machine (not the repository, not
  the docs, not /root);
- **a private writable /tmp of 1 GiB** (a tmpfs that vanishes with the sandbox), which is also the working
  directory; nothing of the host is bound writable, so the checker never reads back a path a snippet made;
- **a clean environment**: only PATH, HOME, LANG, USER/LOGNAME and the variables the checker sets on purpose;
- **its own PID, IPC and UTS namespaces**, a new session (no terminal), and death with its parent: when the
  checker stops the sandbox or dies, every process in it dies with it (as root, the parent-death signal is
  set again after the change of user, which clears it); with `as_pid_1` the command is the namespace's
  first process, which nothing inside can signal;
- **an unprivileged user** with every capability dropped, so the resource limits the worker sets (processes,
  file size, memory) bind, and nothing can be remounted. When the checker runs as root (as in CI) that user
  is one of its own per sandbox (`sandbox_uid`), so the kernel counts each sandbox's processes and threads
  apart: a page that starts hundreds of them cannot starve another. Unprivileged, every sandbox is the
  checker's own user inside a user namespace, and that count is shared.

When bubblewrap is missing or cannot create the namespaces, `check_available` says so and why; the checker
refuses to run examples unsandboxed.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["NOBODY", "SandboxError", "TMP_SIZE", "check_available", "sandbox_command", "sandbox_uid"]

NOBODY = 65534
TMP_SIZE = 1 << 30  # bytes of the private /tmp: torch.compile alone writes ~150 MiB there (its precompiled header)
# Users of no one on the machine, one per sandbox: the checker's pid picks a block of 4096 (two checks can
# run at once), a counter walks it.
UID_BASE = 1_900_000_000
_uids = itertools.count()
SYSTEM_DIRS = ("/usr", "/etc")
MERGED_USR_LINKS = ("/bin", "/lib", "/lib64", "/sbin")
INSTALL_HINT = "install bubblewrap (Debian: apt-get install -y bubblewrap, or `make bwrap`)"


class SandboxError(RuntimeError):
    """The sandbox cannot be set up on this machine; the message says why and what to do."""


def _ancestors(path: Path) -> list[str]:
    """ "/root/.pyenv/versions" -> ["/root", "/root/.pyenv", "/root/.pyenv/versions"]."""
    parts = path.parts[1:]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def _system_binds() -> list[str]:
    args: list[str] = []
    for directory in SYSTEM_DIRS:
        args += ["--ro-bind", directory, directory]
    for link in MERGED_USR_LINKS:
        target = Path(link)
        if target.is_symlink():
            args += ["--symlink", os.readlink(target), link]
        elif target.is_dir():
            args += ["--ro-bind", link, link]
    return args


def _bind(path: Path, made: set[str]) -> list[str]:
    """Bind `path` read-only at its own path; its parent folders are created traversable (bubblewrap makes them 0700)."""
    args: list[str] = []
    for ancestor in _ancestors(path.parent):
        if ancestor in made or any(ancestor == d or ancestor.startswith(d + "/") for d in SYSTEM_DIRS):
            continue
        made.add(ancestor)
        args += ["--perms", "0755", "--dir", ancestor]
    args += ["--ro-bind", str(path), str(path)]
    return args


def python_paths() -> list[Path]:
    """What the worker's Python needs: its installation (base prefix) and the environment it runs in."""
    paths = {Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve()}
    executable = Path(sys.executable)
    paths.add(executable.parent.parent.resolve() if executable.parent.name == "bin" else executable.parent.resolve())
    return sorted(paths, key=lambda p: len(p.parts))


def sandbox_uid() -> int:
    """A user id for one sandbox, used by no one else (when the checker runs as root)."""
    return UID_BASE + (os.getpid() % 4096) * 4096 + next(_uids) % 4096


def sandbox_command(
    argv: list[str],
    *,
    readonly: list[Path],
    env: dict[str, str] | None = None,
    uid: int = NOBODY,
    as_pid_1: bool = False,
    tmp_size: int = TMP_SIZE,
) -> list[str]:
    """`argv` wrapped in bubblewrap (see the module docstring). `readonly` are host paths bound read-only at
    their own paths; `env` is the whole environment inside (PATH, HOME, LANG, USER and LOGNAME are added);
    `uid` is the user it runs as when the checker is root; `as_pid_1` makes `argv` the first process of the
    PID namespace (it must reap orphans itself)."""
    root = os.geteuid() == 0
    command = [shutil.which("bwrap") or "bwrap"]
    # As root, no user namespace: the process drops to `uid` itself (setpriv below), so the kernel counts
    # its processes against that user's limit. Otherwise a user namespace makes the same possible unprivileged.
    command += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    if not root:
        command += ["--unshare-user"]
    command += ["--die-with-parent", "--new-session", "--clearenv"]
    if as_pid_1:
        command += ["--as-pid-1"]
    # USER and LOGNAME: getpass.getuser() finds a name although the sandbox's user has none in /etc/passwd.
    full_env = {
        "PATH": "/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "USER": "nobody",
        "LOGNAME": "nobody",
        **(env or {}),
    }
    for key, value in sorted(full_env.items()):
        command += ["--setenv", key, value]
    command += _system_binds()
    # The private /tmp first: read-only binds below it (a virtual environment in /tmp) go on top.
    command += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(tmp_size), "--tmpfs", "/tmp"]
    made: set[str] = {"/tmp"}
    covered: list[Path] = []
    for path in sorted({Path(p).resolve() for p in readonly}, key=lambda p: len(p.parts)):
        if any(path == c or c in path.parents for c in covered):
            continue
        covered.append(path)
        command += _bind(path, made)
    command += ["--chdir", "/tmp", "--"]
    if root:
        command += [
            "setpriv",
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            # After the uid change, which clears the parent-death signal bubblewrap set: killing the checker
            # kills bubblewrap's monitor, and with it this process (for `as_pid_1`, the whole sandbox).
            "--pdeathsig=KILL",
            "--",
        ]
    return command + list(argv)


_AVAILABLE: str | None = None


def check_available() -> None:
    """Raise SandboxError (with the reason and the fix) unless a sandboxed process can start here."""
    global _AVAILABLE
    if _AVAILABLE == "ok":
        return
    if shutil.which("bwrap") is None:
        raise SandboxError(
            f"cannot run code examples: the sandbox needs bubblewrap, which is not installed: {INSTALL_HINT}"
        )
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        raise SandboxError(
            "cannot run code examples: running as root, the sandbox drops to nobody with setpriv (util-linux), which is missing"
        )
    probe = sandbox_command([sys.executable, "-c", "import os; print(os.getuid())"], readonly=python_paths())
    try:
        result = subprocess.run(probe, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxError(f"cannot run code examples: the sandbox did not start ({exc})") from None
    if result.returncode != 0:
        why = (result.stderr.strip().splitlines() or ["no message"])[-1]
        raise SandboxError(
            f"cannot run code examples: bubblewrap could not create the sandbox ({why}); it needs user or PID/network "
            "namespaces (in a container: run it with --privileged or allow unshare; on a host: sysctl kernel.unprivileged_userns_clone=1)"
        )
    _AVAILABLE = "ok"
