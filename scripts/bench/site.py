"""Site benchmark: build time (ours against plain Material), build scaling with the number of releases,
bytes per page view, search index size and Lighthouse scores.

    python -m scripts.bench.site [--repeats 5] [--sizes 24,100,200] [--only build,scale,bytes,lighthouse]
                                 [--skip-builds] [--skip-lighthouse] [--site-dir DIR] [--release 1.6]

Parts (each can be run alone with --only):
  build       clean `mkdocs build --strict` of a temp copy of the project, into a fresh temp dir, against a
              plain Material build of the same Markdown (hooks off, plugins reduced to search, i18n off so
              `*.en.md` are ordinary pages, no custom_dir, not strict); run alternately, median of --repeats,
              subprocess wall time.
  scale       the same strict build with the real releases plus synthetic ones cloned from them (new
              versions 10.0, 10.1, ... and later dates) up to each of --sizes; seconds per size and per
              release. Target: 200 releases x 2 languages under 60 s on 2 cores.
  bytes       each page (home and one release page, zh and en) loaded in Debian Chromium over loopback until
              the network is idle; every response mapped back to its file in the site dir and gzipped (level
              6): total, search index share (anything under search/) and the rest. Target: <= 120 KB gz.
              Also the search index per language (search/search_index.json plus any other search/*.json).
  lighthouse  Lighthouse (node_modules/.bin/lighthouse, `npm ci`) on every page type in both languages on
              mobile (home, a release page, the longest release page, lifecycle, upgrade, matrix, support, a
              topic, the machine page answering a machine), and home and the release page on desktop: the four
              category scores, the performance metrics, and under the table every failing audit. Target:
              performance >= 95 on mobile.
  machine     the machine page's data island, gzipped (target <= 40 KB), and the time its script takes to redraw
              an answer after a change, with the CPU slowed 4x (target <= 50 ms; scripts/bench/machine.py).

Progress goes to stderr; stdout gets a short header (machine, versions) and one markdown table to paste
into an issue note. Needs Debian's chromium and the test extra (playwright) for bytes and lighthouse.
Figures only: targets are printed beside them, never asserted here.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import tempfile
from pathlib import Path

from scripts.bench import lighthouse
from scripts.bench.builds import bench_build, bench_scale, copy_project, jieba_installed, timed_build
from scripts.bench.common import GZIP_LEVEL, ROOT, kb, log
from scripts.bench.lighthouse import (
    CHROMIUM,
    bench_lighthouse,
    format_scores,
    lighthouse_urls,
    node_version_problem,
    version_of,
)
from scripts.bench.machine import machine_rows
from scripts.bench.weight import index_sizes, measure_page_weights, page_urls
from scripts.catalog.loader import load_catalog

PARTS = ("build", "scale", "bytes", "lighthouse", "machine")
DEFAULT_SIZES = (24, 100, 200)
PAGE_WEIGHT_TARGET_KB = 120
SCALE_TARGET = (200, 60.0)  # releases, seconds


def machine_header() -> list[str]:
    from importlib.metadata import PackageNotFoundError, version

    def pkg(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "missing"

    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    model = ""
    try:
        model = next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            "",
        )
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    chromium = version_of([CHROMIUM, "--version"]) if Path(CHROMIUM).exists() else "missing"
    lighthouse_version = (
        version_of([str(lighthouse.LIGHTHOUSE), "--version"]) if lighthouse.LIGHTHOUSE.exists() else "missing (npm ci)"
    )
    return [
        f"machine: {usable} usable cores ({os.cpu_count()} online){', ' + model if model else ''}; load average at start {load}; {platform.system()} {platform.release()}",
        f"versions: Python {platform.python_version()}, mkdocs {pkg('mkdocs')}, mkdocs-material {pkg('mkdocs-material')}, "
        f"mkdocs-static-i18n {pkg('mkdocs-static-i18n')}, playwright {pkg('playwright')}, {chromium}, lighthouse {lighthouse_version}, "
        f"node {version_of(['node', '--version']) if shutil.which('node') else 'missing'}",
    ]


def markdown_table(rows: list[tuple[str, str, str]]) -> str:
    header = ("Figure", "Value", "Target")
    cells = [tuple(cell.replace("|", "\\|") for cell in row) for row in rows]
    widths = [max(len(header[i]), *(len(r[i]) for r in cells)) for i in range(3)] if cells else [len(h) for h in header]
    lines = [
        "| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |",
        "|" + "|".join("-" * (w + 2) for w in widths) + "|",
    ]
    lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in cells]
    return "\n".join(lines)


def parse_sizes(text: str) -> list[int]:
    sizes = sorted({int(s) for s in text.split(",") if s.strip()})
    if not sizes or sizes[0] < 1:
        raise argparse.ArgumentTypeError("expected release counts such as 24,100,200")
    return sizes


def parse_parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        raise argparse.ArgumentTypeError(f"unknown part(s) {unknown}: choose from {', '.join(PARTS)}")
    return parts


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.bench.site",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2],
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="builds per configuration; the median is reported (default: 5)"
    )
    parser.add_argument(
        "--sizes",
        type=parse_sizes,
        default=list(DEFAULT_SIZES),
        help="release counts for the scale part (default: 24,100,200)",
    )
    parser.add_argument(
        "--only", type=parse_parts, help=f"comma-separated parts to run: {','.join(PARTS)} (default: all)"
    )
    parser.add_argument("--skip-builds", action="store_true", help="skip the build and scale parts")
    parser.add_argument("--skip-lighthouse", action="store_true", help="skip the lighthouse part")
    parser.add_argument("--site-dir", type=Path, help="an existing build for bytes and lighthouse (default: build one)")
    parser.add_argument(
        "--release", default="1.6", help="the release page measured by bytes and lighthouse (default: 1.6)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.repeats < 1:
        build_parser().error("--repeats must be at least 1")
    parts = [p for p in (args.only or PARTS)]
    if args.skip_builds:
        parts = [p for p in parts if p not in ("build", "scale")]
    if args.skip_lighthouse:
        parts = [p for p in parts if p != "lighthouse"]
    header = machine_header()
    rows: list[tuple[str, str, str]] = []
    notes: list[str] = []
    lighthouse_results: dict = {}

    with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp:
        work = Path(tmp)
        build = None
        if "build" in parts:
            log(f"build: plain Material vs ours, {args.repeats} each, alternately")
            build = bench_build(work, args.repeats)
            rows.append(
                (
                    "Clean build, plain Material (same Markdown, no hooks/i18n, not strict), median",
                    f"{build['plain']:.2f} s",
                    "",
                )
            )
            rows.append(("Clean bilingual build, ours (`mkdocs build --strict`), median", f"{build['ours']:.2f} s", ""))
            rows.append(("Ours / plain Material", f"{build['ratio']:.2f}×", "≤ 1.3×"))
            rows.append(
                (
                    "CPU time of a build (all its processes), median: plain / ours",
                    f"{build['cpu_plain']:.2f} s / {build['cpu_ours']:.2f} s ({build['cpu_ratio']:.2f}×)",
                    "",
                )
            )
            rows.append(
                (
                    "Plain Material segments Chinese for its search index with jieba",
                    "yes" if jieba_installed() else "no (jieba not installed)",
                    "",
                )
            )
        if "scale" in parts:
            real = len(load_catalog(ROOT / "docs").releases)
            reuse = {real: build["ours"]} if build else None
            log(f"scale: {', '.join(map(str, args.sizes))} releases, {args.repeats} builds each")
            previous = None
            for row in bench_scale(work, args.sizes, args.repeats, reuse):
                size, seconds = row["size"], row["seconds"]
                per = f"{seconds / size * 1000:.0f} ms/release"
                if previous:
                    per += f", +{(seconds - previous[1]) / (size - previous[0]) * 1000:.0f} ms per added release"
                target = f"< {SCALE_TARGET[1]:.0f} s on 2 cores" if size == SCALE_TARGET[0] else ""
                source = " (build part)" if row.get("reused") else ""
                rows.append(
                    (f"Strict build, {size} releases × 2 languages, median{source}", f"{seconds:.2f} s ({per})", target)
                )
                previous = (size, seconds)

        if "bytes" in parts or "lighthouse" in parts or "machine" in parts:
            site_dir = args.site_dir
            if site_dir is None:
                site_dir = work / "site"
                log("building the site for bytes/lighthouse")
                project = copy_project(work / "project-site")
                timed_build(project, keep_site=site_dir)
            if "bytes" in parts:
                log("bytes: page views in Chromium")
                weights = measure_page_weights(site_dir, args.release)
                for (page, lang), w in weights.items():
                    kinds = ", ".join(f"{k} {kb(n)}" for k, n in sorted(w.by_kind().items(), key=lambda kv: -kv[1]))
                    value = f"{kb(w.total)} gz total ({len(w.files)} files: {kinds}); search index {kb(w.search)}; without search index {kb(w.without_search)}"
                    if w.missing:
                        value += f"; {len(w.missing)} 404: {', '.join(w.missing)}"
                    if w.foreign:
                        value += f"; {len(w.foreign)} foreign requests blocked"
                    rows.append(
                        (
                            f"Bytes per view, {page} ({lang}, /{page_urls(args.release)[(page, lang)]})",
                            value,
                            f"≤ {PAGE_WEIGHT_TARGET_KB} KB gz",
                        )
                    )
                # More than the config-only stub (overrides/hooks/lazy_search_index.py) means the documents came too.
                eager = [f"{page} {lang}" for (page, lang), w in weights.items() if w.search > 2_000]
                if eager:
                    notes.append(
                        f"The search index is fetched at page load, before search is opened ({', '.join(eager)}): the total is "
                        "what a view costs today; 'without search index' is the weight if it were loaded on first use."
                    )
                per_lang, per_file = index_sizes(site_dir)
                for lang, (raw, gz) in per_lang.items():
                    rows.append((f"Search index, {lang} share", f"{kb(raw)} raw, {kb(gz)} gz", ""))
                files = "; ".join(f"{name} {kb(raw)} raw / {kb(gz)} gz" for name, (raw, gz) in per_file.items())
                rows.append(("Search index files", files or "none", ""))
                notes.append(
                    f"Bytes: gzip level {GZIP_LEVEL} of each file as stored in the site dir, each distinct file once per view; the page is loaded in a fresh Chromium until the network is idle."
                )
            if "machine" in parts:
                log("machine: the page's data and its redraw")
                rows += machine_rows(site_dir)
            if "lighthouse" in parts:
                if not lighthouse.lighthouse_available():
                    msg = f"Lighthouse skipped: {lighthouse.LIGHTHOUSE} (or node, or {CHROMIUM}) is missing; install it with `npm ci` in {ROOT}."
                    log(msg)
                    notes.append(msg)
                else:
                    log(f"lighthouse: {len(lighthouse_urls(site_dir, args.release))} runs")
                    lighthouse_results = bench_lighthouse(site_dir, args.release, work)
                    problem = node_version_problem()
                    if problem:
                        notes.append(problem)
                    for (page, lang, form_factor), r in lighthouse_results.items():
                        value = (
                            format_scores(r["scores"]) + " (" + r["metrics"] + ")"
                            if "scores" in r
                            else f"error: {r['error']}"
                        )
                        rows.append(
                            (
                                f"Lighthouse, {page} ({lang}), {form_factor}",
                                value,
                                "perf ≥ 95" if form_factor == "mobile" else "",
                            )
                        )
                    notes.append(
                        "Lighthouse runs over loopback against a server that behaves like GitHub Pages (gzip level 6, "
                        "Cache-Control: max-age=600; tests/browser.py serve_directory(like_a_web_host=True)); its mobile "
                        "preset simulates a slow 4G network and a 4x slower CPU."
                    )

    print("\n".join(header))
    print()
    print(markdown_table(rows))
    if notes:
        print()
        for note in notes:
            print(f"- {note}")
    failing: dict[str, dict] = {}
    for (page, lang, form_factor), r in lighthouse_results.items():
        for audit in r.get("failing", []):
            entry = failing.setdefault(audit["id"], {**audit, "runs": []})
            score = "error" if audit["score"] is None else f"{audit['score']:.2f}"
            entry["runs"].append(
                f"{page}/{lang}/{form_factor} {score}" + (f" ({audit['display']})" if audit["display"] else "")
            )
    if failing:
        print()
        print("Failing Lighthouse audits (score < 1; informative and not-applicable audits left out):")
        for audit_id, entry in sorted(failing.items()):
            print(f"- `{audit_id}` {entry['title']}: {'; '.join(entry['runs'])}")
    elif lighthouse_results:
        print()
        print("Failing Lighthouse audits: none.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
