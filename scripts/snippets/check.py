"""`check`: run every check on every page, in order, and decide each block's status.

1. extraction and directives, then syntax (`parse`, `cpp.tree_sitter_problems`)        no torch
2. bilingual parity and full-width punctuation (`parity`)                                no torch
3. names exist (`names`: read here, resolved in a sandbox)                               torch, sandboxed
4. python/pycon run, output compared, deprecations recorded (`run`)                     torch, sandboxed
5. cpp type-checked by g++ against libtorch, one TU per page (`cpp`, `gxx`)             g++, sandboxed

Problems of steps 1-2 are reported before anything runs (`on_phase` is called after each step). Steps 3-5
share one pool of `jobs` sandboxes (`execute`): the names request, every distinct unit (a block, or a
group's blocks) and every distinct translation unit, costliest first. The checker itself imports nothing a
page names. Work is shared between pages only when its input is byte-identical (`units.unit_key`,
`gxx.unit_hash`), and nothing is kept between runs.
"""

from __future__ import annotations

import fnmatch
import os
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scripts.snippets.cxx.gxx import torch_version
from scripts.snippets.directives import not_run_reason
from scripts.snippets.extract import extract_site
from scripts.snippets.model import Diagnostic, Page, Snippet
from scripts.snippets.names import names_problems, wanted_names
from scripts.snippets.parity import full_width_problems, pair_pages, parity_problems
from scripts.snippets.parse import check_syntax
from scripts.snippets.running.execute import execute
from scripts.snippets.running.run import DEFAULT_TIMEOUT
from scripts.snippets.running.sandbox import check_available

__all__ = ["CheckOptions", "Report", "SnippetResult", "attach", "check_site", "status_entries"]

OUTPUT_REASON = "output shown on the page"
NO_TORCH = "cannot check names or run snippets: torch is not installed; install torch==2.14.1 numpy, or pass --no-run"


def short_version(version: str | None) -> str | None:
    """ "2.14.1+cu128" -> "2.14.1"."""
    return version.split("+")[0] if version else None


@dataclass
class CheckOptions:
    docs_dir: Path = Path("docs")
    run: bool = True  # names + running python/pycon (needs torch)
    cpp: bool = True  # g++ tier (needs g++ and torch's headers)
    jobs: int = max(1, min(os.cpu_count() or 1, 4))
    timeout: int = DEFAULT_TIMEOUT
    fork: bool = True  # no effect any more: each sandbox's supervisor imports torch once and forks each unit
    only: tuple[str, ...] = ()  # glob patterns on src_uri (e.g. "releases/2.10*"): check just those pages
    budget: int = 3600  # seconds all runs may take together; snippets left after it fail as not run


@dataclass
class SnippetResult:
    snippet: Snippet
    status: str = "parsed"
    reason: str | None = None
    deprecation: str | None = None
    torch: str | None = None
    failure: str | None = None  # "raised": how the before-code of a change fails on today's torch
    problems: list[Diagnostic] = field(default_factory=list)


@dataclass
class Report:
    pages: list[Page]
    results: dict[str, SnippetResult]
    diagnostics: list[Diagnostic]  # in the order they were reported
    page_problems: list[Diagnostic]  # diagnostics that belong to no block
    torch_version: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    slowest: list[tuple[float, str]] = field(default_factory=list)  # (seconds, what) of pages, TUs, snippets

    @property
    def failed(self) -> int:
        return self.counts.get("failed", 0)


def attach(diagnostics: list[Diagnostic], pages: list[Page]) -> list[Diagnostic]:
    """Give a snippet id to diagnostics that fall inside a block (directive line to closing fence)."""
    ranges: dict[str, list[tuple[int, int, str]]] = {}
    for page in pages:
        for s in page.snippets:
            ranges.setdefault(page.shown, []).append((s.directive_line or s.fence_line, s.end_line, s.id))
    out = []
    for d in diagnostics:
        if d.snippet is None:
            owner = next((sid for lo, hi, sid in ranges.get(d.path, []) if lo <= d.line <= hi), None)
            if owner:
                d = Diagnostic(d.path, d.line, d.col, d.message, d.severity, owner, d.check)
        out.append(d)
    return out


def _sorted(diags: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diags, key=lambda d: d.sort_key)


def check_site(options: CheckOptions, on_phase: Callable[[str, list[Diagnostic]], None] | None = None) -> Report:
    """Run the checks (see the module docstring) and return every block's result."""
    started = time.monotonic()
    timings: dict[str, float] = {}
    emitted: list[Diagnostic] = []

    def phase(name: str, diags: list[Diagnostic]) -> None:
        diags = _sorted(attach(diags, pages))
        emitted.extend(diags)
        if on_phase:
            on_phase(name, diags)

    pages = extract_site(options.docs_dir)
    if options.only:
        pages = [page for page in pages if any(fnmatch.fnmatchcase(page.src_uri, pattern) for pattern in options.only)]
    snippets = [s for page in pages for s in page.snippets]
    syntax: list[Diagnostic] = [d for page in pages for d in page.problems]
    for s in snippets:
        syntax.extend(check_syntax(s))
    timings["extract+parse"] = time.monotonic() - started
    phase("syntax", syntax)

    t = time.monotonic()
    parity: list[Diagnostic] = []
    for s in snippets:
        parity.extend(full_width_problems(s))
    for base, other in pair_pages(pages):
        parity.extend(parity_problems(base, other))
    timings["parity"] = time.monotonic() - t
    phase("parity", parity)

    broken = {d.snippet for d in syntax if d.snippet}
    runnable = [
        s
        for s in snippets
        if s.lang in ("python", "pycon") and s.id not in broken and not_run_reason(s.directives) is None
    ]
    compilable = [
        s for s in snippets if s.lang == "cpp" and s.id not in broken and not_run_reason(s.directives) is None
    ]

    by_page_run: dict[str, list[Snippet]] = {}
    for s in runnable if options.run else []:
        by_page_run.setdefault(s.page, []).append(s)
    by_page_cpp: dict[str, list[Snippet]] = {}
    for s in compilable if options.cpp else []:
        by_page_cpp.setdefault(s.page, []).append(s)
    names: list[str] = []
    if options.run and torch_version() is None:
        phase("names", [Diagnostic("(torch)", 1, 1, NO_TORCH, check="names")])
        by_page_run = {}
    elif options.run:
        names = wanted_names([s for s in snippets if s.id not in broken])
    if by_page_run or by_page_cpp or names:
        check_available()  # raises SandboxError with the reason: examples never run unsandboxed
    done = execute(names, by_page_run, by_page_cpp, jobs=options.jobs, timeout=options.timeout, budget=options.budget)
    timings.update(done.timings)
    run_results, compile_results = done.runs, done.compiles
    if options.run and names:
        found: list[Diagnostic] = []
        for page in pages:
            page_snippets = [s for s in page.snippets if s.id not in broken]
            found += names_problems(page_snippets, done.names, short_version(done.torch_version) or "?")[0]
        phase("names", found)

    run_diags = [d for r in run_results.values() for o in r.outcomes.values() for d in o.problems]
    phase("run", run_diags)
    cpp_diags = [d for r in compile_results.values() for d in r.problems]
    phase("cpp", cpp_diags)

    installed_torch = short_version(done.torch_version)
    if installed_torch is None and (compile_results or names):
        installed_torch = short_version(torch_version())

    outcomes = {sid: o for r in run_results.values() for sid, o in r.outcomes.items()}
    compiled = {sid for r in compile_results.values() for sid in r.compiled}
    cpp_deprecations = {sid: m for r in compile_results.values() for sid, m in r.deprecations.items()}

    problems_by_id: dict[str, list[Diagnostic]] = {}
    page_problems = []
    for d in emitted:
        if d.severity != "error":
            continue
        if d.snippet:
            problems_by_id.setdefault(d.snippet, []).append(d)
        else:
            page_problems.append(d)

    results: dict[str, SnippetResult] = {}
    for s in snippets:
        r = SnippetResult(s, problems=problems_by_id.get(s.id, []))
        reason = not_run_reason(s.directives)
        if s.lang in ("output", "markdown"):
            r.status, r.reason = "not-run", OUTPUT_REASON
        elif reason:
            r.status, r.reason = "not-run", reason
        elif s.lang in ("python", "pycon") and s.id in outcomes:
            o = outcomes[s.id]
            r.status = o.status
            r.torch = installed_torch
            r.deprecation = " / ".join(o.deprecations) or None
            r.failure = o.failure
        elif s.lang == "cpp" and s.id in compiled:
            r.status = "compiled"
            r.torch = installed_torch
            r.deprecation = cpp_deprecations.get(s.id)
        else:
            r.status = "parsed"
        if r.problems or s.lang is None:
            r.status = "failed"
            r.torch = None
        results[s.id] = r

    counts: Counter[str] = Counter()
    for r in results.values():
        if r.snippet.lang in ("output", "markdown"):
            continue
        counts["failed" if r.status == "failed" else "skipped" if r.status == "not-run" else "passed"] += 1
    counts["failed"] += len(page_problems)
    timings["total"] = time.monotonic() - started
    timings["peak address space"] = done.peak
    slowest = [(r.seconds, f"{page}: torch units, {len(r.outcomes)} block(s)") for page, r in run_results.items()]
    slowest += [
        (r.seconds, f"{page}: g++ TU, {len(r.compiled)} block(s){' (same as another page)' if r.shared else ''}")
        for page, r in compile_results.items()
    ]
    by_id = {s.id: s for s in snippets}
    slowest += [
        (o.seconds, f"{by_id[sid].page}:{by_id[sid].fence_line}: {by_id[sid].lang} block")
        for sid, o in outcomes.items()
    ]
    slowest.sort(reverse=True)
    return Report(
        pages=pages,
        results=results,
        diagnostics=emitted,
        page_problems=page_problems,
        torch_version=installed_torch,
        timings=timings,
        counts=dict(counts),
        slowest=slowest,
    )


def status_entries(report: Report) -> dict[str, dict]:
    """The status file's entries for a report (see `status`)."""
    entries = {}
    for sid, r in report.results.items():
        s = r.snippet
        entries[sid] = {
            "page": s.src_uri,
            "line": s.fence_line,
            "lang": s.lang,
            "status": r.status,
            "torch": r.torch,
            "deprecation": r.deprecation,
            "reason": r.reason,
            "hash": s.hash,
        }
        if s.directives.get("change"):
            entries[sid]["change"] = s.directives["change"]
            entries[sid]["failure"] = r.failure
    return entries


def summary_table(report: Report) -> list[str]:
    """Lines like `python   12 ran, 3 not-run` (per language and outcome)."""
    table: dict[str, Counter] = {}
    for r in report.results.values():
        table.setdefault(r.snippet.lang or "untagged", Counter())[r.status] += 1
    lines = []
    order = ["python", "pycon", "cpp", "shell", "output", "markdown", "untagged"]
    for lang in sorted(table, key=lambda x: order.index(x) if x in order else 99):
        parts = ", ".join(f"{n} {status}" for status, n in sorted(table[lang].items()))
        lines.append(f"  {lang:<9}{sum(table[lang].values()):>4} blocks: {parts}")
    return lines
