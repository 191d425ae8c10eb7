"""Checks 3, 4 and 6: resolve the torch names pages use, run python and pycon units, record deprecations.

Everything runs in sandboxes (`channel.Sandbox`: own PID, IPC and network namespaces, own 1 GiB /tmp,
own user when the checker runs as root) whose supervisor imports torch once and forks a fresh process for
each unit (a block, or a group's blocks) and for each names request, so no block ever runs where an earlier
one ran, and no name a page mentions is imported in the checker. When a unit ends, every process it left is
killed, /tmp is emptied and its IPC objects go; the next unit, of this page or another, starts from the
same state. The checker talks to a supervisor only over its stdin/stdout pipes and reads nothing else back.

`run_tasks` keeps `jobs` sandboxes busy: each is a thread that takes the costliest task left (units of any
page, the names request, g++ translation units), so a slow torch.compile block does not wait behind a page.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from scripts.snippets.model import Diagnostic, Snippet
from scripts.snippets.running.channel import STARTUP_TIMEOUT, Sandbox, last_lines, start_sandbox
from scripts.snippets.running.interpret import RunOutcome, interpret
from scripts.snippets.running.sandbox import check_available
from scripts.snippets.running.units import Layout, unit_key, unit_requests, units_of

__all__ = [
    "DEFAULT_TIMEOUT",
    "NAME_TIMEOUT",
    "PageRun",
    "RunOutcome",
    "Slot",
    "Task",
    "resolve_names",
    "run_page",
    "run_tasks",
    "run_unit",
    "share_unit",
    "unit_cost",
]

DEFAULT_TIMEOUT = 120  # seconds per snippet (torch.compile on CPU compiles C++ the first time)
NAME_TIMEOUT = 60  # seconds one name may take to resolve
SUPERVISOR_GRACE = 30  # seconds past a block's limit before the checker gives up on its supervisor
COMPILING_RE = re.compile(r"torch\.(compile|export|_dynamo|_inductor)|aot_compile|AOTInductor|\.compile\(")
_units_serial = itertools.count()


def _page_line(layout: Layout, blocks: list[Snippet], snippet: Snippet, line: int) -> int:
    """The page line of a line of the unit's file (the snippet's own line where it falls outside every block)."""
    return layout.page_line(blocks, line, snippet.line)


@dataclass
class PageRun:
    page: str
    outcomes: dict[str, RunOutcome] = field(default_factory=dict)
    torch_version: str | None = None
    seconds: float = 0.0
    replies: dict[str, dict] = field(default_factory=dict)  # the supervisor's reply per block, for `share_unit`
    shared: int = 0  # blocks judged on the run of the same unit on another page (`share_unit`)
    peak: int = 0  # the largest address space a unit's runner reached, in bytes

    def add(self, outcomes: dict[str, RunOutcome], replies: dict[str, dict], seconds: float, peak: int) -> None:
        self.outcomes.update(outcomes)
        self.replies.update(replies)
        self.seconds += seconds
        self.peak = max(self.peak, peak)


class Slot:
    """One sandbox of the pool, started when first needed and again after one stopped."""

    def __init__(self):
        self.sandbox: Sandbox | None = None
        self.import_seconds = 0.0
        self.starts = 0
        self.torch_version: str | None = None
        self.warmed = False
        self.warm_seconds = 0.0
        self.broken = ""  # why a sandbox could not start (torch does not import, ...)

    def get(self) -> tuple[Sandbox | None, str]:
        """The slot's sandbox, started if need be; (None, why) when one cannot start here (not tried again)."""
        if self.broken:
            return None, self.broken
        if self.sandbox is None:
            self.sandbox, why = start_sandbox()
            if self.sandbox is None:
                self.broken = why
                return None, why
            self.starts += 1
            self.import_seconds += self.sandbox.hello.get("seconds", 0.0)
            self.torch_version = self.sandbox.hello.get("torch")
            self.warmed = False
        return self.sandbox, ""

    def warm(self) -> None:
        """Have the sandbox prepare torch.compile once for all its units (`inside/snippet_runner.py`)."""
        if self.sandbox is not None and not self.warmed:
            reply = self.sandbox.ask({"op": "warm"}, STARTUP_TIMEOUT)
            self.warmed = True
            self.warm_seconds += (reply or {}).get("seconds", 0.0)

    def stopped(self) -> str:
        """The sandbox stopped answering: kill it (a fresh one starts for the next task); why it stopped."""
        if self.sandbox is None:
            return "no message"
        self.sandbox.kill()
        why = self.sandbox.stderr_tail() or "no message"
        self.sandbox.close()
        self.sandbox = None
        return why

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None


def _failed(s: Snippet, message: str, line: int | None = None, seconds: float = 0.0) -> RunOutcome:
    return RunOutcome(
        s.id, "failed", [Diagnostic(s.page, line or s.line, 1, message, "error", s.id, "run")], seconds=seconds
    )


def run_unit(
    slot: Slot, blocks: list[Snippet], *, timeout: int = DEFAULT_TIMEOUT, deadline: float | None = None
) -> tuple[dict[str, RunOutcome], dict[str, dict], int]:
    """Run one unit in the slot's sandbox: (outcome per block, supervisor's reply per block, peak address space).

    A `timeout=` directive is capped at MAX_TIMEOUT; past `deadline` (time.monotonic()), the unit's
    blocks fail as not run, so a check has a total budget as well.
    """
    outcomes: dict[str, RunOutcome] = {}
    replies: dict[str, dict] = {}
    layout = Layout.of(blocks)
    serial = next(_units_serial)
    peak = 0
    for k, (s, request) in enumerate(zip(blocks, unit_requests(blocks, timeout), strict=True)):
        if deadline is not None and time.monotonic() > deadline:
            outcomes[s.id] = _failed(s, "not run: the check's total time budget is used up (slow snippets before it)")
            continue
        sandbox, why = slot.get()
        if sandbox is None:
            for rest in blocks[k:]:
                outcomes[rest.id] = _failed(rest, f"cannot run: {why}", line=rest.fence_line)
            break
        if k == 0 and any(COMPILING_RE.search(b.code) for b in blocks):
            slot.warm()  # before the unit's runner is forked: a group's blocks share it
        limit = request["timeout"]
        request.update(id=s.id, unit=serial, last=k == len(blocks) - 1)
        # The supervisor enforces the limit; waiting a little longer here only catches a stuck sandbox.
        reply = sandbox.ask(request, limit + SUPERVISOR_GRACE)
        if reply is None or reply.get("id") != s.id:
            outcomes[s.id] = _failed(s, f"running it stopped the sandbox ({slot.stopped()})", seconds=float(limit))
            continue
        peak = max(peak, reply.get("peak") or 0)
        if reply.get("timeout"):
            outcomes[s.id] = _failed(s, f"running it timed out after {limit} s", seconds=float(limit))
        elif reply.get("died") is not None:
            message = f"running it killed the worker ({last_lines(str(reply['died'])) or 'no message'})"
            outcomes[s.id] = _failed(s, message, seconds=reply.get("seconds", 0.0))
        else:
            replies[s.id] = reply
            outcomes[s.id] = interpret(s, reply, functools.partial(_page_line, layout, blocks, s))
    return outcomes, replies, peak


def resolve_names(slot: Slot, names: list[str]) -> dict[str, tuple[bool, str | None]]:
    """Whether each torch name exists, asked of a sandbox (importing a name runs code: never in the checker)."""
    if not names:
        return {}
    sandbox, why = slot.get()
    reply = None
    if sandbox is not None:
        request = {"op": "names", "names": names, "timeout": NAME_TIMEOUT}
        reply = sandbox.ask(request, NAME_TIMEOUT * len(names) + SUPERVISOR_GRACE)
        if reply is None or reply.get("op") != "names":
            why, reply = f"resolving names stopped the sandbox ({slot.stopped()})", None
    answers = {a["name"]: (a["ok"], a["why"]) for a in (reply or {}).get("results", [])}
    return {name: answers.get(name, (False, f"cannot resolve it: {why or 'no answer'}")) for name in names}


def run_page(snippets: list[Snippet], *, timeout: int = DEFAULT_TIMEOUT, deadline: float | None = None) -> PageRun:
    """Run the python/pycon snippets of ONE page, unit after unit, in one sandbox (see `run_unit`)."""
    check_available()
    result = PageRun(page=snippets[0].page)
    slot = Slot()
    started = time.monotonic()
    try:
        for blocks in units_of(snippets):
            outcomes, replies, peak = run_unit(slot, blocks, timeout=timeout, deadline=deadline)
            result.add(outcomes, replies, 0.0, peak)
    finally:
        slot.close()
    result.seconds = time.monotonic() - started
    result.torch_version = slot.torch_version
    return result


def share_unit(
    blocks: list[Snippet], owner_blocks: list[Snippet], owner_run: PageRun, timeout: int = DEFAULT_TIMEOUT
) -> dict[str, RunOutcome] | None:
    """The outcomes of `blocks` read from the run of `owner_blocks` (byte-identical blocks on another page:
    `unit_key`): each block is judged on the reply its counterpart got, at its own page's lines. None when the
    blocks differ, a counterpart failed or got no reply, or a block would fail: the unit then runs on its own
    page, so a failure is always reported from its own run."""
    if unit_key(blocks, timeout) != unit_key(owner_blocks, timeout):
        return None
    layout = Layout.of(blocks)
    outcomes = {}
    for mine, theirs in zip(blocks, owner_blocks, strict=True):
        reply = owner_run.replies.get(theirs.id)
        if reply is None or owner_run.outcomes[theirs.id].status == "failed":
            return None
        outcome = interpret(mine, reply, functools.partial(_page_line, layout, blocks, mine))
        if outcome.status == "failed":
            return None
        outcome.seconds = 0.0
        outcomes[mine.id] = outcome
    return outcomes


def unit_cost(blocks: list[Snippet]) -> float:
    """A guess at a unit's seconds, to start the longest first: torch.compile and export compile C++."""
    return sum(30.0 if COMPILING_RE.search(s.code) else 1.0 for s in blocks)


@dataclass
class Task:
    """Work for the pool: `work(slot)` (a slot's sandbox is started only if the work asks for it)."""

    cost: float
    work: Callable[[Slot], None]
    ready: Callable[[], bool] = lambda: True  # False until what it needs is done (a precompiled header)


def run_tasks(tasks: list[Task], jobs: int) -> list[Slot]:
    """Do every task on `jobs` threads, each with a slot of its own, costliest ready task first. Returns the
    slots (their import counts); an exception in a task is raised here once every thread has stopped."""
    todo = sorted(tasks, key=lambda t: -t.cost)
    changed = threading.Condition()
    errors: list[BaseException] = []
    slots = [Slot() for _ in range(max(1, jobs))]

    def next_task() -> Task | None:
        with changed:
            while todo and not errors:
                for k, task in enumerate(todo):
                    if task.ready():
                        return todo.pop(k)
                changed.wait()
            return None

    def worker(slot: Slot) -> None:
        try:
            while (task := next_task()) is not None:
                try:
                    task.work(slot)
                except BaseException as exc:  # noqa: BLE001 - raised again by run_tasks
                    errors.append(exc)
                with changed:
                    changed.notify_all()
        finally:
            slot.close()

    threads = [threading.Thread(target=worker, args=(slot,), daemon=True) for slot in slots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return slots
