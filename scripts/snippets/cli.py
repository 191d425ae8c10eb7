"""Command line of the snippet checker.

    python -m scripts.snippets extract [--docs-dir docs] [--out DIR]
    python -m scripts.snippets list    [--docs-dir docs] [--status-file FILE]
    python -m scripts.snippets check   [--docs-dir docs] [--no-run] [--no-cpp] [--status-file FILE]
                                       [--check-status] [--jobs N] [--timeout S]

Messages are compiler-style (`path:line:col: error: message`); the last line of `check` is
`N passed, N failed` (`, N skipped` when blocks were not run), and the exit status is 1 on any failure.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from scripts.snippets.model import Diagnostic

__all__ = ["main"]


def _emit(diags: list[Diagnostic]) -> None:
    github = os.environ.get("GITHUB_ACTIONS") == "true"
    for d in diags:
        print(d, flush=True)
        if github and d.severity == "error":
            first = d.message.split("\n")[0].replace("%", "%25").replace("\r", "").replace("\n", "%0A")
            print(f"::error file={d.path},line={d.line},col={d.col}::{first}", flush=True)


def _status_path(args: argparse.Namespace) -> Path:
    from scripts.snippets.status import DEFAULT_STATUS_FILE

    return Path(args.status_file) if args.status_file else Path(args.docs_dir) / DEFAULT_STATUS_FILE


def cmd_extract(args: argparse.Namespace) -> int:
    from scripts.snippets.extract import extract_site, write_extracted

    pages = extract_site(args.docs_dir)
    manifest = write_extracted(pages, args.out)
    problems = [d for page in pages for d in page.problems]
    _emit(problems)
    count = sum(len(page.snippets) for page in pages)
    print(f"wrote {count} snippet(s) from {len(pages)} page(s) to {args.out} (manifest: {manifest})")
    return 1 if problems else 0


def cmd_list(args: argparse.Namespace) -> int:
    from scripts.snippets.directives import not_run_reason
    from scripts.snippets.extract import extract_site
    from scripts.snippets.status import load_status

    pages = extract_site(args.docs_dir)
    entries = load_status(_status_path(args)).get("snippets", {})
    counts: dict[tuple[str, str], int] = {}
    for page in pages:
        for s in page.snippets:
            entry = entries.get(s.id)
            if entry is None:
                outcome = "not checked yet"
            elif entry.get("hash") != s.hash:
                outcome = f"changed since last check (was {entry.get('status')})"
            else:
                outcome = entry.get("status", "?")
                if entry.get("deprecation"):
                    outcome += f", deprecated: {entry['deprecation']}"
            reason = not_run_reason(s.directives)
            if reason and s.lang not in ("output", "markdown"):
                outcome += f" [{reason}]"
            extra = " ".join(f"{k}={v}" if v is not True else k for k, v in s.directives.items())
            lang = s.lang or f"?{s.tag or 'untagged'}"
            print(
                f"{s.page}:{s.fence_line}: {s.id:<24} {lang:<8} {s.role:<11} {outcome}{'  (' + extra + ')' if extra else ''}"
            )
            key = (lang, s.role)
            counts[key] = counts.get(key, 0) + 1
    problems = [d for page in pages for d in page.problems]
    _emit(problems)
    total = sum(counts.values())
    by_lang = ", ".join(f"{n} {lang} ({role})" for (lang, role), n in sorted(counts.items()))
    print(f"{total} code block(s) on {len(pages)} page(s): {by_lang or 'none'}")
    return 1 if problems else 0


def cmd_check(args: argparse.Namespace) -> int:
    from scripts.snippets.check import CheckOptions, check_site, status_entries, summary_table
    from scripts.snippets.extract import extract_site
    from scripts.snippets.model import shown_path
    from scripts.snippets.status import load_status, stale_problems, write_status

    status_path = _status_path(args)
    if args.check_status:
        pages = extract_site(args.docs_dir)
        if not status_path.exists():
            problems = [
                Diagnostic(
                    shown_path(status_path), 1, 1, "status file is missing: run `python -m scripts.snippets check`"
                )
            ]
        else:
            problems = stale_problems(pages, load_status(status_path), shown_path(status_path))
        _emit(problems)
        total = sum(len(p.snippets) for p in pages)
        failed = len(problems)
        print(f"{shown_path(status_path)}: {'up to date' if not failed else 'stale'} ({total} code blocks)")
        print(f"{total - len({d.snippet for d in problems if d.snippet})} passed, {failed} failed")
        return 1 if failed else 0

    options = CheckOptions(
        docs_dir=Path(args.docs_dir),
        run=not args.no_run,
        cpp=not args.no_cpp,
        jobs=args.jobs,
        timeout=args.timeout,
        fork=not args.no_fork,
        only=tuple(args.only or ()),
    )
    from scripts.snippets.running.sandbox import SandboxError

    try:
        report = check_site(options, on_phase=lambda name, diags: _emit(diags))
    except SandboxError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    skipped = [
        r for r in report.results.values() if r.status == "not-run" and r.snippet.lang not in ("output", "markdown")
    ]
    if skipped:
        print(f"not run ({len(skipped)}):")
        for r in sorted(skipped, key=lambda r: (r.snippet.page, r.snippet.fence_line)):
            print(f"  {r.snippet.page}:{r.snippet.fence_line}: {r.snippet.lang}: {r.reason}")
    deprecated = [r for r in report.results.values() if r.deprecation]
    if deprecated:
        print(f"deprecated ({len(deprecated)}):")
        for r in sorted(deprecated, key=lambda r: (r.snippet.page, r.snippet.fence_line)):
            print(f"  {r.snippet.page}:{r.snippet.fence_line}: {r.deprecation}")
    print("blocks by language and status:")
    for line in summary_table(report):
        print(line)

    full = options.run and options.cpp and not options.only
    if full or args.status_file:
        changed = write_status(status_path, status_entries(report), report.torch_version)
        print(f"status file: {shown_path(status_path)} ({'updated' if changed else 'unchanged'})")
    else:
        print("status file: not written (--no-run/--no-cpp is a partial check; pass --status-file to write anyway)")
    if args.verbose:
        print("slowest:")
        for seconds, what in report.slowest[:15]:
            print(f"  {seconds:7.1f} s  {what}")
    t = report.timings
    print(
        f"time: {t['total']:.1f} s total; extract+parse {t['extract+parse']:.1f} s; "
        + (f"names {t['names']:.1f} s; " if t.get("names") else "")
        + f"torch {t.get('torch runs', 0):.1f} s for {int(t.get('units run', 0))} unit(s) in "
        + f"{int(t.get('sandboxes', 0))} sandbox(es) (imports {t.get('torch imports', 0):.1f} s, "
        + f"compiler warm-ups {t.get('compiler warm-ups', 0):.1f} s), "
        + f"{int(t.get('shared blocks', 0))} block(s) judged on the run of the same code on another page; "
        + f"g++ {t.get('g++', 0):.1f} s for {int(t.get('g++ TUs', 0))} page(s) ({int(t.get('g++ compiled', 0))} compiled, "
        + f"{int(t.get('g++ shared', 0))} same code as another page); "
        + f"runs and compiles {t.get('parallel wall', 0):.1f} s wall on {options.jobs} job(s)"
    )
    if args.verbose and t.get("peak address space"):
        print(f"largest address space of a unit: {t['peak address space'] / (1 << 30):.2f} GiB")
    counts = report.counts
    line = f"{counts.get('passed', 0)} passed, {counts.get('failed', 0)} failed"
    if counts.get("skipped"):
        line += f", {counts['skipped']} skipped"
    print(line)
    return 1 if counts.get("failed") else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.snippets",
        description="Extract the code blocks of the site's Markdown pages and check that they parse, "
        "match across languages, use torch names that exist, run on the installed torch and compile against libtorch.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{extract,list,check}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--docs-dir", default="docs", help="the MkDocs docs_dir (default: docs)")

    p = sub.add_parser("extract", parents=[common], help="write every snippet to a folder, with a JSON manifest")
    p.add_argument(
        "--out", default=".cache/snippets/extracted", help="output folder (default: .cache/snippets/extracted)"
    )
    p.set_defaults(func=cmd_extract)

    p = sub.add_parser("list", parents=[common], help="print every code block with its role and last outcome")
    p.add_argument("--status-file", help="status file to read outcomes from (default: DOCS_DIR/.snippet-status.json)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("check", parents=[common], help="run every check; write the status file")
    p.add_argument(
        "--no-run", action="store_true", help="do not import torch: skip the names check and running python/pycon"
    )
    p.add_argument("--no-cpp", action="store_true", help="skip the g++ tier (tree-sitter still parses C++)")
    p.add_argument(
        "--status-file",
        help="where to write the status file (default: DOCS_DIR/.snippet-status.json; written by a full check, "
        "or by a partial one when this option is given)",
    )
    p.add_argument(
        "--check-status",
        action="store_true",
        help="only verify the status file is up to date with the pages (fast, no torch)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=max(1, min(os.cpu_count() or 1, 4)),
        help="parallel workers and compilers (default: CPU count, at most 4)",
    )
    p.add_argument(
        "--timeout",
        type=int,
        default=120,
        help="seconds per python/pycon snippet (default: 120; a block may set timeout=N)",
    )
    p.add_argument(
        "--no-fork",
        action="store_true",
        help="no effect (kept for old scripts): each sandbox's supervisor imports torch once and forks each unit",
    )
    p.add_argument(
        "-v", "--verbose", action="store_true", help="also print the slowest pages, translation units and blocks"
    )
    p.add_argument(
        "--only",
        action="append",
        metavar="GLOB",
        help="check only pages whose path under the docs dir matches (repeatable, e.g. 'releases/2.10*'); "
        "a partial check writes the status file only when --status-file is given",
    )
    p.set_defaults(func=cmd_check)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not Path(args.docs_dir).is_dir():
        print(f"error: docs dir '{args.docs_dir}' does not exist", file=sys.stderr)
        return 2
    reconfigure = getattr(sys.stdout, "reconfigure", None)  # a real console stream has it; a test's stand-in may not
    if reconfigure is not None:
        with contextlib.suppress(ValueError):
            reconfigure(line_buffering=True)
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. `list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
