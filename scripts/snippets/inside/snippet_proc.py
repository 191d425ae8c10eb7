"""Process plumbing inside a snippet sandbox: limits, prctl, a child's own namespaces, pipes, killing, cleaning.

Standard library only: it runs in the supervisor (`supervisor.py`, PID 1 of the sandbox) and in the
children it forks, a unit's runner (`snippet_runner.py`) or a name resolver (`snippet_resolve.py`).
"""

import contextlib
import ctypes
import fcntl
import json
import os
import select
import shutil
import signal
import struct
import sys
import termios
import time

MAX_PROCESSES = 512  # processes (and threads) of the sandbox's user at once: a fork bomb stops here
SUPERVISOR_SPARE = 16  # the supervisor may start this many more, so it can always fork the next child
MAX_FILE_SIZE = 256 << 20  # no file may grow beyond this (the sandbox's /tmp is smaller anyway)
# Address space of one child, shared mappings (SysV and POSIX shared memory, mmap of files) included, which
# RLIMIT_DATA does not count. torch maps ~3.2 GiB as it is imported; the site's largest unit (a torch.compile
# block) peaks at 4.7 GiB (`check -v` prints the peak it measured): this leaves a unit ~6.8 GiB of room.
MAX_ADDRESS_SPACE = 10 << 30
MAX_REPLY = 16 << 20  # bytes of one child's report line; more is the child's failure
TAIL_BYTES = 4096  # of a child's stdout/stderr, kept for the message when it dies
KILL_PATIENCE = 30  # seconds to wait for hundreds of killed processes to go
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CAPABILITY_VERSION_3 = 0x20080522
SYSV_KINDS = (("shm", 0), ("sem", 0), ("msg", 0))  # /proc/sysvipc/<kind>; IPC_RMID is 0 for all three
_libc = ctypes.CDLL(None, use_errno=True)


def set_limits(address_space: int | None, processes: int) -> None:
    import resource

    limits = [(resource.RLIMIT_NPROC, processes), (resource.RLIMIT_FSIZE, MAX_FILE_SIZE), (resource.RLIMIT_CORE, 0)]
    if address_space:
        limits.append((resource.RLIMIT_AS, address_space))
    for which, value in limits:
        soft, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (value, value))


def set_dumpable(dumpable: bool) -> None:
    _libc.prctl(PR_SET_DUMPABLE, int(dumpable), 0, 0, 0)


def die_with_parent() -> None:
    """SIGKILL when the parent goes (bubblewrap's monitor, which dies with the checker)."""
    _libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as f:
        f.write(text)


def _drop_capabilities() -> None:
    """No capability left, not even in the user namespace just made (it would own the new IPC namespace)."""
    header = struct.pack("II", CAPABILITY_VERSION_3, 0)
    data = bytes(24)  # two (effective, permitted, inheritable) triples, all empty
    if _libc.capset(ctypes.c_char_p(header), ctypes.c_char_p(data)) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def own_ipc_namespace() -> bool:
    """Move this (single-threaded, just forked) process into an IPC namespace of its own, so SysV objects and
    POSIX message queues it makes go with it. An unprivileged process may do so in a user namespace of its
    own, in which it keeps its ids (mapped to themselves) and then drops every capability. False when the
    kernel refuses user namespaces: the supervisor then removes the unit's SysV objects after it."""
    uid, gid = os.getuid(), os.getgid()
    if _libc.unshare(CLONE_NEWUSER | CLONE_NEWIPC) != 0:
        return False
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1\n")
    _write("/proc/self/gid_map", f"{gid} {gid} 1\n")
    _drop_capabilities()
    return True


def remove_sysv_objects() -> int:
    """Remove every SysV shared memory segment, semaphore set and message queue this user can see."""
    removed = 0
    for kind, command in SYSV_KINDS:
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        call = {"shm": _libc.shmctl, "sem": _libc.semctl, "msg": _libc.msgctl}[kind]
        for row in rows:
            fields = row.split()
            if len(fields) > 1 and fields[1].isdigit():
                removed += call(int(fields[1]), command, 0, 0) == 0
    return removed


def signals_for_snippets() -> None:
    """What a fresh Python has: Ctrl-C raises KeyboardInterrupt, a closed pipe is an error, not death."""
    for number in signal.valid_signals():
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)


def keep_only_fds(keep: set[int]) -> None:
    """Close every descriptor but `keep`: the checker's channel (the supervisor's) above all."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def enter_child(requests_fd: int, replies_fd: int, output_fd: int) -> None:
    """The first steps of every forked child: own session, default signals, stdio on the output pipe, only
    its own pipes open, limits, its own IPC namespace."""
    os.setsid()
    signals_for_snippets()
    set_dumpable(True)  # as any process: a snippet may read its own /proc files
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    # Replaced before the descriptors go: the old object closes its own descriptor when it is dropped.
    sys.stdin = open(0, encoding="utf-8", closefd=False)
    keep_only_fds({0, 1, 2, requests_fd, replies_fd})
    set_limits(MAX_ADDRESS_SPACE, MAX_PROCESSES)
    own_ipc_namespace()


class Child:
    """The supervisor's handle on one forked child: its pid and the three pipes it shares with it.
    `body(requests_fd, replies_fd, output_fd)` runs in the child and never returns."""

    def __init__(self, body):
        request_read, self.requests = os.pipe()
        self.replies, reply_write = os.pipe()
        self.output, output_write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        self.pid = os.fork()
        if self.pid == 0:
            body(request_read, reply_write, output_write)
            os._exit(1)
        for fd in (request_read, reply_write, output_write):
            os.close(fd)
        self.tail = b""
        self.received = b""

    def keep_tail(self, chunk: bytes) -> None:
        self.tail = (self.tail + chunk)[-TAIL_BYTES:]

    def tail_text(self) -> str:
        return self.tail.decode("utf-8", "replace")

    def discard_pending_replies(self) -> None:
        """Anything the child wrote after its last reply is not the next request's reply."""
        self.received = b""
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


def checker_gone(fd: int) -> bool:
    """Is the checker's end of the channel closed? (It sends nothing while it waits for a reply, so a
    readable channel with no bytes in it is its end of file.)"""
    if not select.select([fd], [], [], 0)[0]:
        return False
    waiting = bytearray(4)
    try:
        fcntl.ioctl(fd, termios.FIONREAD, waiting)
    except OSError:
        return True
    return int.from_bytes(waiting, sys.byteorder) == 0


def await_line(child: Child, timeout: float, channel_fd: int) -> tuple[bytes | None, str | None]:
    """(the child's next report line, None), or (None, "timeout" | "died" | "checker gone" | why), draining
    its output meanwhile. The checker's channel is watched too: when the checker dies, the sandbox goes."""
    deadline = time.monotonic() + timeout
    streams = [child.replies, child.output, channel_fd]
    while True:
        if b"\n" in child.received:
            line, child.received = child.received.split(b"\n", 1)
            return line, None
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None, "timeout"
        ready, _, _ = select.select(streams, [], [], remaining)
        if channel_fd in ready:
            if checker_gone(channel_fd):
                return None, "checker gone"
            streams.remove(channel_fd)  # bytes the checker sent early wait for the request loop
        if child.output in ready:
            chunk = os.read(child.output, 1 << 16)
            if chunk:
                child.keep_tail(chunk)
            else:
                streams.remove(child.output)
        if child.replies in ready:
            chunk = os.read(child.replies, 1 << 20)
            if not chunk:
                return None, "died"
            child.received += chunk
            if b"\n" not in child.received and len(child.received) > MAX_REPLY:
                return None, f"its report is larger than {MAX_REPLY >> 20} MB"


def drain_output(child: Child, seconds: float) -> None:
    """What the child wrote just before it died (its traceback) arrives after the end of its report pipe."""
    deadline = time.monotonic() + seconds
    while (
        time.monotonic() < deadline and select.select([child.output], [], [], max(0.0, deadline - time.monotonic()))[0]
    ):
        chunk = os.read(child.output, 1 << 16)
        if not chunk:
            return
        child.keep_tail(chunk)


def how_it_ended(pid: int) -> str:
    """ "exit status 3" or "signal 9" of a child that closed its report pipe (waiting a second at most)."""
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


def peak_address_space(pid: int) -> int | None:
    """The child's largest address space so far (VmPeak), in bytes: what MAX_ADDRESS_SPACE is measured by."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return None


# --- ending a unit: nothing it started or wrote stays for the next ------------------------------------


def live_processes(keep: set[int]) -> list[int]:
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


def reap(until: float) -> None:
    """Collect dead children (forks, and orphans re-parented to PID 1) until none is left or time is up."""
    while time.monotonic() < until:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def kill_all_but(keep: set[int]) -> int:
    """Kill every live process of the namespace but PID 1 and `keep`; how many there were."""
    live = live_processes(keep)
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
        reap(time.monotonic() + 0.2)
        live = live_processes(keep)
    return count


def empty_tmp() -> None:
    """What a unit left in /tmp goes with it (the child's user owns it, so even a 000 folder goes)."""
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


def end_child(child: Child) -> None:
    """Everything the child started goes, its pipes close, /tmp is emptied and its SysV objects removed."""
    kill_all_but(set())
    reap(time.monotonic() + 1)
    child.close()
    empty_tmp()
    remove_sysv_objects()
