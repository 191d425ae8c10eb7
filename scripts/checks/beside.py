"""One helper process that runs the build's pure, costly work beside MkDocs, on the core MkDocs leaves idle.

MkDocs renders on one core. Three jobs are pure functions of strings and paths: the checks that refuse hostile
markup (`markup.html_policy.body_verdict` on every rendered page, and each page's content as
`pages.page_content_problems` renders it) and the search documents of each page (`views.search_index.
page_documents`). The build hands them to this process as it goes, goes on rendering, and waits for each answer
where the answer decides something: a page's content check before MkDocs renders that page, every check before
any page is written, the documents before the index is built (`overrides/hooks/`). Nothing is skipped and
nothing is kept between builds: the same functions run on the same input, only in another process.

The process is started with "spawn" (a fresh interpreter, never a fork of a build that may hold threads, as
`mkdocs serve` does) when the first job is handed over, and lives until the interpreter exits. It saves wall
time, not CPU time: `make bench` reports both. A job that raises, or a process that dies, comes back as the
exception of its future; the hook names it and the build fails (a dead helper is replaced at the next job).
`BESIDE_ENV` set to "0" runs every job in the build's own process instead (one core, or a debugger).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["BESIDE_ENV", "run_here", "submit"]

BESIDE_ENV = "TIMELINE_CHECKS_BESIDE"
T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None
# The helper imports the checks as `scripts.…` from the project's root, which MkDocs takes out of sys.path again
# once it has loaded the hooks that put it there (a spawned process starts from its parent's sys.path).
_ROOT = str(Path(__file__).resolve().parents[2])


def _helper(fresh: bool = False) -> ProcessPoolExecutor:
    global _pool
    if _pool is None or fresh:
        if _ROOT not in sys.path:
            sys.path.insert(0, _ROOT)
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        # At exit nothing is awaited any more: pending checks are dropped, a running one is waited for, and the
        # process is reaped (never left behind).
        atexit.register(_pool.shutdown, wait=True, cancel_futures=True)
    return _pool


def run_here(function: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
    """`function(*args, **kwargs)` run here and now, as a future (what `submit` does with BESIDE_ENV=0, and what
    a caller that hands nothing over passes as its runner)."""
    future: Future[T] = Future()
    try:
        future.set_result(function(*args, **kwargs))
    except BaseException as exc:  # noqa: BLE001  (the caller reads it from the future, as from the helper)
        future.set_exception(exc)
    return future


def submit(function: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
    """`function(*args, **kwargs)` in the helper process (a module-level function and picklable arguments), as a
    future."""
    if os.environ.get(BESIDE_ENV) == "0":
        return run_here(function, *args, **kwargs)
    try:
        return _helper().submit(function, *args, **kwargs)
    except BrokenProcessPool:  # the helper died in an earlier build (`mkdocs serve` goes on): start another
        return _helper(fresh=True).submit(function, *args, **kwargs)
