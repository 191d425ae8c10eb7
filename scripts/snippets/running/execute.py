"""Steps 3-5 of `check` on one pool of sandboxes: names resolved, units run, translation units compiled.

Every piece of work is a task of `run.run_tasks` (costliest first, on `jobs` threads, each with a
sandbox of its own that imports torch once): the names every page uses, in one request; each distinct
unit; each distinct g++ translation unit. Work is done once for byte-identical input only: a unit whose
blocks are byte-identical to one on an earlier page is judged on that run (`run.share_unit`; when that
run failed, it runs on its own page too), and pages with byte-identical translation units share a compile.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from scripts.snippets.cxx.cpp import CompileResult, apply_record
from scripts.snippets.cxx.gxx import compile_unit, unit_hash
from scripts.snippets.model import Snippet
from scripts.snippets.running.run import PageRun, Slot, Task, resolve_names, run_tasks, run_unit, share_unit, unit_cost
from scripts.snippets.running.units import assign_units

__all__ = ["Executed", "execute"]

NAMES_COST = 20.0  # seconds, roughly: resolving imports torch._dynamo and friends
HEAVY_HEADERS = ("torch/torch.h", "torch/script.h", "torch/extension.h", "ATen/ATen.h")


@dataclass
class Executed:
    names: dict[str, tuple[bool, str | None]] = field(default_factory=dict)
    runs: dict[str, PageRun] = field(default_factory=dict)
    compiles: dict[str, CompileResult] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    torch_version: str | None = None
    peak: int = 0  # the largest address space a unit reached, bytes


def _tu_cost(snippets: list[Snippet]) -> float:
    return 12.0 if any(h in s.code for s in snippets for h in HEAVY_HEADERS) else 3.0


class _Work:
    """The tasks of one check and what they found (written from the pool's threads, under a lock)."""

    def __init__(self, timeout: int, deadline: float):
        self.timeout, self.deadline = timeout, deadline
        self.lock = threading.Lock()
        self.done = Executed()
        self.unit_count = 0
        self.names_seconds = 0.0

    def names_task(self, names: list[str]) -> Task:
        def work(slot: Slot) -> None:
            started = time.monotonic()
            found = resolve_names(slot, names)
            with self.lock:
                self.done.names.update(found)
                self.names_seconds = time.monotonic() - started

        return Task(NAMES_COST, work)

    def unit_task(self, blocks: list[Snippet]) -> Task:
        def work(slot: Slot) -> None:
            started = time.monotonic()
            outcomes, replies, peak = run_unit(slot, blocks, timeout=self.timeout, deadline=self.deadline)
            seconds = time.monotonic() - started
            with self.lock:
                page = self.done.runs.setdefault(blocks[0].page, PageRun(page=blocks[0].page))
                page.add(outcomes, replies, seconds, peak)
                self.unit_count += 1

        return Task(unit_cost(blocks), work)

    def compile_task(self, pages: list[tuple[str, list[Snippet]]]) -> Task:
        def work(slot: Slot) -> None:
            record, seconds = compile_unit(pages[0][1])
            with self.lock:
                for n, (page, snippets) in enumerate(pages):
                    result = apply_record(record, snippets)
                    if record.get("unavailable"):
                        result.compiled = []
                    result.seconds, result.shared = (seconds if n == 0 else 0.0), n > 0
                    self.done.compiles[page] = result

        return Task(_tu_cost(pages[0][1]), work)


def execute(
    names: list[str],
    by_page_run: dict[str, list[Snippet]],
    by_page_cpp: dict[str, list[Snippet]],
    *,
    jobs: int,
    timeout: int,
    budget: float,
) -> Executed:
    """Resolve `names`, run the units of `by_page_run` and compile the cpp blocks of `by_page_cpp`."""
    started = time.monotonic()
    work = _Work(timeout, started + budget)
    tasks = [work.names_task(names)] if names else []
    own, borrowed = assign_units(by_page_run, timeout)
    tasks += [work.unit_task(blocks) for blocks in own]
    same_unit: dict[str, list[tuple[str, list[Snippet]]]] = {}
    for page, snippets in by_page_cpp.items():
        same_unit.setdefault(unit_hash(snippets), []).append((page, snippets))
    tasks += [work.compile_task(pages) for pages in same_unit.values()]
    slots = run_tasks(tasks, jobs)

    done = work.done
    reruns: list[list[Snippet]] = []
    for page, units in borrowed.items():
        result = done.runs.setdefault(page, PageRun(page=page))
        for blocks, owner_blocks in units:
            outcomes = share_unit(blocks, owner_blocks, done.runs[owner_blocks[0].page], timeout)
            if outcomes is None:
                reruns.append(blocks)
            else:
                result.outcomes.update(outcomes)
                result.shared += len(outcomes)
    if reruns:
        slots += run_tasks([work.unit_task(blocks) for blocks in reruns], jobs)

    done.torch_version = next((s.torch_version for s in slots if s.torch_version), None)
    done.peak = max([r.peak for r in done.runs.values()] or [0])
    done.timings = {
        "parallel wall": time.monotonic() - started,
        "names": work.names_seconds,
        "torch runs": sum(r.seconds for r in done.runs.values()),
        "torch imports": sum(s.import_seconds for s in slots),
        "compiler warm-ups": sum(s.warm_seconds for s in slots),
        "sandboxes": sum(s.starts for s in slots),
        "units run": work.unit_count,
        "units rerun": len(reruns),
        "shared blocks": sum(r.shared for r in done.runs.values()),
        "g++": sum(r.seconds for r in done.compiles.values()),
        "g++ TUs": len(done.compiles),
        "g++ compiled": sum(1 for r in done.compiles.values() if not r.shared),
        "g++ shared": sum(1 for r in done.compiles.values() if r.shared),
    }
    return done
