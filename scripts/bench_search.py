"""Search benchmark: our engine against Material's stock lunr search, on the same build and query set.

    python -m scripts.bench_search [--site-dir DIR] [--offline]

Prints, per language: index size (raw and gzipped), the median time from the last keystroke to the
rendered result list in Chromium, the same for the first key typed on a fresh page (which, on the hosted
site, includes loading the search documents), and hit@3 over tests/search_queries.py, for both engines. The stock
search is Material's own worker configured as well as it can be (mkdocs.yml already sets `lang: [en, zh]`,
`pipeline: [trimmer]` and a separator with \\u200b); it is swapped in by answering the request for our
worker with Material's file, so both run on identical pages and index. Needs Debian's chromium and the
test extra (playwright). Figures only: targets live in the issue, not in an assertion here.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build_site(site_dir: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "--site-dir", str(site_dir)], cwd=ROOT, env=env, check=True)


def whole_search_index(site_dir: Path) -> dict:
    """Material's search index with its documents: the hosted build keeps them apart in search_docs.json
    (overrides/hooks/lazy_search_index.py), loaded on the first query; this joins them back."""
    index = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    docs_file = site_dir / "search" / "search_docs.json"
    if docs_file.is_file():
        index["docs"] = json.loads(docs_file.read_text(encoding="utf-8"))["docs"]
    return index


def index_sizes(site_dir: Path) -> dict[str, tuple[int, int]]:
    """Bytes of each language's share of the search index, raw and gzipped."""
    index = whole_search_index(site_dir)
    sizes = {}
    for lang in ("zh", "en"):
        docs = [d for d in index["docs"] if d["location"].startswith("en/") == (lang == "en")]
        raw = json.dumps({"config": index["config"], "docs": docs}, ensure_ascii=False).encode("utf-8")
        sizes[lang] = (len(raw), len(gzip.compress(raw, 9)))
    return sizes


def worker_sizes(site_dir: Path) -> dict[str, tuple[int, int]]:
    ours = (site_dir / "assets/javascripts/search/worker.zh.js").read_bytes()
    material = next((site_dir / "assets/javascripts/workers").glob("search.*.min.js")).read_bytes()
    lunr = b"".join((site_dir / "assets/javascripts/lunr/min" / n).read_bytes() for n in ("lunr.stemmer.support.min.js", "lunr.multi.min.js", "lunr.zh.min.js"))
    return {"ours": (len(ours), len(gzip.compress(ours, 9))), "stock": (len(material + lunr), len(gzip.compress(material + lunr, 9)))}


def with_stock_worker(site_dir: Path, dest: Path) -> Path:
    """A copy of a build whose pages point at Material's own worker again: same pages, same index,
    stock engine (the reverse of overrides/hooks/search_worker.py)."""
    import re
    import shutil

    shutil.copytree(site_dir, dest)
    material = next((dest / "assets/javascripts/workers").glob("search.*.min.js")).name
    for page in dest.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        page.write_text(re.sub(r"assets/javascripts/search/worker\.(zh|en)\.js", f"assets/javascripts/workers/{material}", text), encoding="utf-8")
    # Material's worker takes its documents from search_index.json, as before lazy_search_index.py split them off.
    if (dest / "search" / "search_docs.json").is_file():
        (dest / "search" / "search_index.json").write_text(json.dumps(whole_search_index(dest), ensure_ascii=False), encoding="utf-8")
    return dest


def measure(site_dir: Path, offline_dir: Path | None = None) -> dict[str, dict]:
    sys.path.insert(0, str(ROOT / "tests"))
    from browser import browser_page, serve_directory  # noqa: E402  (test harness shared with the tests)
    from playwright.sync_api import sync_playwright
    from search_queries import QUERIES
    from search_ui import hit_at_3, run_query

    results: dict[str, dict] = {}

    def run(base: str, home) -> None:
        with sync_playwright() as pw, browser_page(pw) as (page, log):
            for lang in ("zh", "en"):
                page.goto(home(lang), wait_until="networkidle")
                hits, times = 0, []
                queries = [q for q in QUERIES if q[0] == lang]
                # The first key typed on a fresh page: for the hosted site this includes fetching and indexing
                # the search documents (overrides/hooks/lazy_search_index.py).
                _, first_ms = run_query(page, queries[0][1][0])
                for _, query, expected in queries:
                    links, elapsed = run_query(page, query)
                    hits += hit_at_3(links, base, expected)
                    if elapsed == elapsed:  # NaN when nothing changed on screen
                        times.append(elapsed)
                results[lang] = {
                    "hit_rate": hits / len(queries),
                    "median_ms": statistics.median(times) if times else float("nan"),
                    "first_ms": first_ms,
                    "foreign": len(log.foreign_requests),
                    "console_errors": len(log.console_errors),
                }

    if offline_dir is not None:
        base = offline_dir.as_uri() + "/"
        run(base, lambda lang: base + ("" if lang == "zh" else "en/") + "index.html")
    else:
        with serve_directory(site_dir, like_a_web_host=True) as base:  # gzip, as the hosted site is served
            run(base, lambda lang: base + ("" if lang == "zh" else "en/"))
    return results


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_search", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", type=Path, help="an existing build (default: build one into a temp dir)")
    parser.add_argument("--offline", action="store_true", help="also measure the offline copy from file://")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site_dir = args.site_dir
        if site_dir is None:
            site_dir = Path(tmp) / "site"
            build_site(site_dir)
        sizes = index_sizes(site_dir)
        workers = worker_sizes(site_dir)
        modes = {"online": None}
        if args.offline:
            import zipfile

            from scripts.offline import TOP_FOLDER, build_offline_zip

            zip_path = build_offline_zip(ROOT, site_dir)
            with zipfile.ZipFile(zip_path) as archive:
                archive.extractall(Path(tmp) / "offline")
            modes["offline"] = Path(tmp) / "offline" / TOP_FOLDER
            print(f"offline zip: {kb(zip_path.stat().st_size)}")
        print("search index (shared by both engines; one file holds both languages):")
        for lang, (raw, gz) in sizes.items():
            print(f"  {lang}: {kb(raw)} raw, {kb(gz)} gzipped")
        print(f"worker code: ours {kb(workers['ours'][0])} ({kb(workers['ours'][1])} gz), stock worker+lunr {kb(workers['stock'][0])} ({kb(workers['stock'][1])} gz)")
        print()
        print(f"{'mode':8} {'engine':6} {'lang':4} {'hit@3':>6} {'median ms':>10} {'first key ms':>12} {'foreign':>7} {'errors':>6}")
        for mode, offline_dir in modes.items():
            for engine in ("ours", "stock"):
                site, offline = site_dir, offline_dir
                if engine == "stock":
                    if offline_dir is None:
                        site = with_stock_worker(site_dir, Path(tmp) / "stock-online")
                    else:
                        offline = with_stock_worker(offline_dir, Path(tmp) / "stock-offline")
                for lang, r in measure(site, offline).items():
                    print(f"{mode:8} {engine:6} {lang:4} {r['hit_rate']:6.0%} {r['median_ms']:10.1f} {r['first_ms']:12.1f} {r['foreign']:7d} {r['console_errors']:6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
