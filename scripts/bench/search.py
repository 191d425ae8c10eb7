"""Search benchmark: our search on the hosted site and the offline copy, at full speed and with a 4x slower
CPU, against Material's stock lunr search on the same pages.

    python -m scripts.bench.search [--site-dir DIR] [--offline] [--repeats 5] [--no-stock] [--no-fast3g]

Prints, per language:
  index          bytes of the search file the first answer needs (the index's first part; raw and gzipped)
                 and of the full text that follows it;
  first query    on a fresh page (new browser profile, nothing cached): search opened and a first character
                 typed at once; from that key to the result list on screen, median of --repeats pages. On
                 the hosted site this includes downloading and reading the index. On Fast 3G also typed a
                 second after opening search, as a reader might (the index starts loading when search opens),
                 and the search bytes received on the wire (gzipped) before that first answer;
  later keys     median, over tests/search_queries.py, from a query's last key to the result list changing,
                 once the full text has arrived; and (in brackets) to the end of the frame that draws it;
  hit@3          share of those queries with an expected page among the first three results (full text);
  page open      the load event of the home and a release page on a fresh profile, median of --repeats;
                 and the search files such a view loads (none should be an index).
Modes: hosted (served with gzip and max-age=600, as GitHub Pages serves, each file compressed once), offline
(the unpacked zip from file://, --offline), and the hosted first query on a Fast 3G network (DevTools'
preset).

4x CPU: Chromium's CPU throttling (CDP Emulation.setCPUThrottlingRate) slows a page's main thread, where
Material renders results (and where the offline copy's search runs, in the iframe-worker shim), but
Chromium does not throttle dedicated workers. So the benchmark serves the hosted site's search workers with
a prelude that stretches each of the worker's tasks to `rate` times its length (a busy wait after it): the
same slowdown, applied to the worker.

Stock: Material's own worker configured as well as it can be (mkdocs.yml sets `lang: [en, zh]`, `pipeline:
[trimmer]` and a separator with \\u200b), swapped in by rewriting the pages of a copy of the build to
load Material's worker with the same documents in Material's index format. Full speed only.

Works on a build of this version and of the one before it (search/search_docs.json, one index for both
languages): "before" figures come from running this file against the older checkout. Needs Debian's
chromium and the test extra (playwright). Figures only: targets live in the issue, not in an assertion.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from scripts.bench.common import ROOT, kb, log, test_harness
from scripts.bench.search_site import (
    LANGS,
    build_site,
    index_sizes,
    text_sizes,
    with_stock_worker,
    with_throttled_workers,
)
from scripts.tools.offline import TOP_FOLDER, build_offline_zip

HOME = {"zh": "", "en": "en/"}
FIRST_KEY = {"zh": "分", "en": "t"}
# DevTools' "Fast 3G" preset (what Lighthouse and the DevTools network panel call it).
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1_440_000 / 8, "uploadThroughput": 675_000 / 8}
# What a search index is, in either layout: Material's search/search_index.json|js, the older
# search/search_docs.json, this version's search/index.<lang>.json|js.
SEARCH_DATA = re.compile(r"/search/(search_index|search_docs|index\.(zh|en)(\.text)?)\.(json|js)$")


@contextmanager
def static_host(directory: Path):
    """The site over loopback as a static host serves it: gzip (level 6, each file compressed once) and
    max-age=600 as GitHub Pages (tests/browser.py serve_directory(like_a_web_host=True))."""
    test_harness()
    from browser import serve_directory

    with serve_directory(directory, like_a_web_host=True) as base:
        yield base


@contextmanager
def fresh_page(playwright, cpu: int = 1, network: dict | None = None):
    """A page in a new browser profile (nothing cached), CPU-throttled and on a slow network if asked."""
    from browser import browser_page

    with browser_page(playwright) as (page, browser_log):
        client = page.context.new_cdp_session(page)
        if cpu > 1:
            client.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        if network:
            client.send("Network.enable")
            client.send("Network.emulateNetworkConditions", network)
        yield page, browser_log


OBSERVE = """() => {
    const targets = [document.querySelector('.md-search-result__meta'), document.querySelector('.md-search-result__list')];
    window.__searchStart = performance.now();
    window.__searchRendered = new Promise(resolve => {
        const observer = new MutationObserver(() => {
            if (!document.querySelector('.md-search-result__item')) return;  // "type to start" etc. is not a result
            observer.disconnect(); resolve(performance.now());
        });
        targets.forEach(t => observer.observe(t, {childList: true, characterData: true, subtree: true}));
        setTimeout(() => { observer.disconnect(); resolve(NaN); }, 30000);
    });
}"""


def first_query_ms(page, url: str, char: str, pause_ms: int = 0, received: list | None = None) -> float:
    """Open a page, open search and type one character (at once, or after `pause_ms`, as a reader who
    opens search and then thinks): ms from that key to the first results. `received` gets the search
    files' requests that finished by then."""
    finished = []
    page.context.on(
        "requestfinished", lambda request: finished.append(request) if SEARCH_DATA.search(request.url) else None
    )
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    page.keyboard.press("/")
    page.locator(".md-search__input").wait_for(state="visible")
    if pause_ms:
        page.wait_for_timeout(pause_ms)
    page.evaluate(OBSERVE)
    if ord(char) < 128:
        page.keyboard.type(char)
    else:
        # An input method's commit: the text, then the key that committed it (for the older build, whose
        # search listened to keys only; this one reacts to the text already).
        page.keyboard.insert_text(char)
        page.keyboard.press("Shift")
    ms = page.evaluate("async () => (await window.__searchRendered) - window.__searchStart")
    if received is not None:
        received += finished
    return ms


def wire_bytes(requests) -> int:
    """Bytes on the wire (the encoded body: gzipped as served) of search index files, Material's
    config-only search_index.json left out (every page view loads it)."""
    return sum(r.sizes()["responseBodySize"] for r in requests if "search_index" not in r.url)


def page_open(page, url: str) -> tuple[float, int]:
    """(ms to the load event, bytes of search files the view loads once the network is idle): a page view
    should load no search index (the offline copy's used to be a 2.6 MB script)."""
    responses = []
    page.on("response", lambda response: responses.append(response) if SEARCH_DATA.search(response.url) else None)
    page.goto(url, wait_until="load")
    ms = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; }"
    )
    page.wait_for_load_state("networkidle")
    return ms, sum(len(r.body()) for r in responses)


def later_keys(page, url: str, lang: str, base: str, split: bool) -> dict:
    """The query set in one page: hit@3 and the median ms from a query's last key to new results."""
    from search_queries import QUERIES
    from search_ui import hit_at_3, run_query

    page.goto(url, wait_until="networkidle")
    queries = [q for q in QUERIES if q[0] == lang]
    run_query(page, queries[0][1])  # the first query loads the index; the figures are for later ones
    wait_for_full_text(page, split)
    hits, times, framed = 0, [], []
    for _, query, expected in queries:
        links, elapsed = run_query(page, query, commit_key=True)
        hits += hit_at_3(links, base, expected)
        if elapsed == elapsed:  # NaN when nothing changed on screen
            times.append(elapsed)
            framed.append(page.evaluate("window.__searchFramed - window.__searchStart"))
    return {"hit_rate": hits / len(queries), "later_ms": median(times), "later_frame_ms": median(framed)}


def has_text_part(site: Path) -> bool:
    """Does this build load its index in two parts (this version), or each language whole (older)?"""
    return any((site / "search" / f"index.zh.text.{ext}").is_file() for ext in ("json", "js"))


def wait_for_full_text(page, split: bool) -> None:
    """Until both languages' full text is in (this version says so on the page: tests/search_ui.py); an
    older build, which loads each index whole and says nothing, gets a few seconds instead."""
    from search_ui import wait_for_full_index

    if split:
        wait_for_full_index(page, timeout_ms=60_000)
    else:
        page.wait_for_timeout(3_000)


def median(values: list[float]) -> float:
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def measure(
    urls, base: str, cpu: int, repeats: int, release: str, split: bool, query_set: bool = True
) -> dict[str, dict]:
    """Every figure of one site (hosted or offline) at one CPU speed; `urls(path)` gives a page's URL."""
    from playwright.sync_api import sync_playwright

    results: dict[str, dict] = {}
    with sync_playwright() as pw:
        for lang in LANGS:
            home = urls(HOME[lang])
            first = []
            for _ in range(repeats):
                with fresh_page(pw, cpu) as (page, _log):
                    first.append(first_query_ms(page, home, FIRST_KEY[lang]))
            opens, search_bytes = [], []
            for path in (HOME[lang], f"{HOME[lang]}releases/{release}/"):
                for _ in range(repeats):
                    with fresh_page(pw, cpu) as (page, _log):
                        ms, loaded = page_open(page, urls(path))
                        opens.append(ms)
                        search_bytes.append(loaded)
            r = {"first_ms": median(first), "open_ms": median(opens), "view_search_bytes": max(search_bytes)}
            if query_set:
                with fresh_page(pw, cpu) as (page, browser_log):
                    r.update(later_keys(page, home, lang, base, split))
                    r["foreign"] = len(browser_log.foreign_requests)
                    r["errors"] = len(browser_log.console_errors) + len(browser_log.page_errors)
            results[lang] = r
            log(
                f"    {lang}: "
                + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in r.items())
            )
    return results


def fast3g_first_query(site_dir: Path, repeats: int, pause_ms: int) -> dict[str, dict]:
    """Per language: {"first_ms": median ms to the first answer on Fast 3G, "bytes": search bytes received
    on the wire before it (largest of the runs)}."""
    from playwright.sync_api import sync_playwright

    out = {}
    with static_host(site_dir) as base, sync_playwright() as pw:
        for lang in LANGS:
            samples, received = [], []
            for _ in range(repeats):
                with fresh_page(pw, 1, FAST_3G) as (page, _log):
                    requests: list = []
                    samples.append(first_query_ms(page, base + HOME[lang], FIRST_KEY[lang], pause_ms, requests))
                    received.append(wire_bytes(requests))
            out[lang] = {"first_ms": median(samples), "first_bytes": max(received)}
            log(
                f"    fast 3G {lang}, typed {pause_ms} ms after opening: first query {out[lang]['first_ms']:.0f} ms, {kb(out[lang]['first_bytes'])} before it"
            )
    return out


def hosted_urls(base: str):
    return lambda path: base + path


def offline_urls(copy: Path):
    def url(path: str) -> str:
        target = copy / path / "index.html" if path in ("", "en/") else copy / (path.rstrip("/") + ".html")
        return target.as_uri()

    return url


def run_all(
    site_dir: Path, offline_dir: Path | None, work: Path, repeats: int, stock: bool, fast3g: bool, release: str
) -> list[tuple]:
    """[(mode, cpu, engine, lang, figures)] for every configuration."""
    test_harness()
    rows = []
    plans = [("hosted", 1, "ours"), ("hosted", 4, "ours")]
    if offline_dir is not None:
        plans += [("offline", 1, "ours"), ("offline", 4, "ours")]
    if stock:
        plans += [("hosted", 1, "stock")] + ([("offline", 1, "stock")] if offline_dir is not None else [])
    for mode, cpu, engine in plans:
        log(f"  {mode}, {cpu}x CPU, {engine}")
        name = f"{mode}-{cpu}-{engine}"
        if mode == "hosted":
            site = site_dir
            if engine == "stock":
                site = with_stock_worker(site_dir, work / name)
            elif cpu > 1:
                site = with_throttled_workers(site_dir, work / name, cpu)
            with static_host(site) as base:
                figures = measure(
                    hosted_urls(base), base, cpu, repeats, release, engine == "ours" and has_text_part(site)
                )
        else:
            assert offline_dir is not None  # offline plans exist only with an offline copy
            copy = with_stock_worker(offline_dir, work / name) if engine == "stock" else offline_dir
            base = copy.as_uri() + "/"
            figures = measure(offline_urls(copy), base, cpu, repeats, release, engine == "ours" and has_text_part(copy))
        rows += [(mode, cpu, engine, lang, figures[lang]) for lang in LANGS]
    if fast3g:
        for pause in (0, 1000):
            log(f"  hosted, Fast 3G, ours, first key {pause} ms after opening search")
            for lang, figures in fast3g_first_query(site_dir, max(1, repeats // 2), pause).items():
                mode = "hosted, Fast 3G" + (f", typed {pause / 1000:g} s after opening" if pause else "")
                rows.append((mode, 1, "ours", lang, figures))
    return rows


def fmt(value, digits=0) -> str:
    if value is None or value != value:
        return "—"
    return f"{value:.{digits}f}"


def summary(rows: list[tuple]) -> list[str]:
    """Issue 23's figures, per language: bytes before the first answer and the first answer on Fast 3G
    (typed at once), later keys at 4× CPU and hit@3 (hosted)."""
    lines = [
        "| lang | bytes before the first answer (Fast 3G, on the wire) | first answer, Fast 3G ms | later keys, 4× CPU ms (to the drawn frame) | hit@3 (hosted, 4×) |",
        "|---|---|---|---|---|",
    ]
    for lang in LANGS:
        fast: dict = next(
            (r for mode, _, e, lg, r in rows if mode == "hosted, Fast 3G" and lg == lang and e == "ours"), {}
        )
        slow: dict = next(
            (r for mode, cpu, e, lg, r in rows if mode == "hosted" and cpu == 4 and lg == lang and e == "ours"), {}
        )
        hit = f"{slow['hit_rate']:.0%}" if "hit_rate" in slow else "—"
        bytes_before = kb(fast["first_bytes"]) if "first_bytes" in fast else "—"
        lines.append(
            f"| {lang} | {bytes_before} | {fmt(fast.get('first_ms'))} | {fmt(slow.get('later_ms'), 1)} ({fmt(slow.get('later_frame_ms'), 1)}) | {hit} |"
        )
    return lines


def report(rows: list[tuple], sizes: dict, header: str, text: dict | None = None) -> str:
    lines = (
        [header, ""]
        + summary(rows)
        + [
            "",
            "| mode | CPU | engine | lang | first query ms | search bytes before it | later keys ms, median (to the drawn frame) | hit@3 | page open ms | search bytes per view | foreign | errors |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
    )
    for mode, cpu, engine, lang, r in rows:
        hit = f"{r['hit_rate']:.0%}" if "hit_rate" in r else "—"
        lines.append(
            f"| {mode} | {cpu}× | {engine} | {lang} | {fmt(r.get('first_ms'))} | {kb(r['first_bytes']) if 'first_bytes' in r else '—'} | {fmt(r.get('later_ms'), 1)} ({fmt(r.get('later_frame_ms'), 1)}) | {hit} | "
            f"{fmt(r.get('open_ms'))} | {kb(r['view_search_bytes']) if 'view_search_bytes' in r else '—'} | {r.get('foreign', '—')} | {r.get('errors', '—')} |"
        )
    lines += ["", "Search files the first answer needs (ours), and the full text that follows:"]
    for lang, (raw, gz) in sizes.items():
        rest = (text or {}).get(lang, (0, 0))
        lines.append(
            f"- {lang}: {kb(raw)} raw, {kb(gz)} gzipped"
            + (f"; then the full text, {kb(rest[0])} raw, {kb(rest[1])} gzipped" if rest[0] else "")
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench.search", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", type=Path, help="an existing build (default: build one into a temp dir)")
    parser.add_argument("--offline", action="store_true", help="also measure the offline copy from file://")
    parser.add_argument(
        "--repeats", type=int, default=5, help="fresh pages per first-query and page-open figure (default: 5)"
    )
    parser.add_argument("--no-stock", action="store_true", help="skip Material's stock search")
    parser.add_argument("--no-fast3g", action="store_true", help="skip the Fast 3G first query")
    parser.add_argument("--release", default="1.6", help="the release page whose opening is timed (default: 1.6)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-search-") as tmp:
        work = Path(tmp)
        site_dir = args.site_dir
        if site_dir is None:
            site_dir = work / "site"
            log("building the site")
            build_site(site_dir)
        offline_dir = None
        if args.offline:
            import zipfile

            log("building the offline copy")
            zip_path = build_offline_zip(ROOT, site_dir)
            with zipfile.ZipFile(zip_path) as archive:
                archive.extractall(work / "offline")
            offline_dir = work / "offline" / TOP_FOLDER
        started = time.strftime("%Y-%m-%d %H:%M")
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
        rows = run_all(site_dir, offline_dir, work, args.repeats, not args.no_stock, not args.no_fast3g, args.release)
        header = f"search benchmark, {started}; {os.cpu_count()} cores, load average at start {load}; {args.repeats} fresh pages per first-query/page-open figure"
        print(report(rows, index_sizes(site_dir), header, text_sizes(site_dir)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
