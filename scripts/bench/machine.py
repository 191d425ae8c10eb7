"""The machine page's weight and speed, for `python -m scripts.bench.site --only machine`: the JSON island its
script decides from (#machine-data, gzipped as a static host sends it; target <= 40 KB), and the time to redraw
an answer in Debian Chromium with the CPU slowed 4× (Chrome DevTools' CPU throttling, as Lighthouse's mobile preset
does; target <= 50 ms): a change of the form's GPU choice dispatched as the reader's is, timed from the event to
the end of the layout of the new answer, over alternating machines, median and worst of each language's runs."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

from scripts.bench.common import GZIP_LEVEL, gzip_size, kb, log, test_harness

DATA_TARGET_KB = 40
REDRAW_TARGET_MS = 50
SLOWDOWN = 4
RUNS = 21
ISLAND_RE = re.compile(r'<script type="application/json" id="machine-data">(.*?)</script>', re.S)
PAGES = {"zh": "machine/", "en": "en/machine/"}
QUERY = "?os=linux-x86_64&python=3.10&gpu=6.1&driver=535"
# Each run changes the GPU (a Pascal, a 4090, an Apple GPU that is refused on Linux, none), so every redraw draws
# another answer; the handler redraws synchronously, and reading offsetHeight makes the layout part of the time.
REDRAW = """async ([runs, choices]) => {
  const select = document.getElementById("machine-gpu");
  const times = [];
  for (let i = 0; i < runs; i++) {
    select.value = choices[i % choices.length];
    const start = performance.now();
    select.dispatchEvent(new Event("change", { bubbles: true }));
    void document.getElementById("machine-releases").offsetHeight;
    times.push(performance.now() - start);
    await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  return times;
}"""
CHOICES = ["8.9", "6.1", "", "3.7", "none"]


def island_sizes(site_dir: Path) -> dict[str, tuple[int, int]]:
    """lang -> (raw bytes, gzipped bytes) of the machine page's data island."""
    out = {}
    for lang, path in PAGES.items():
        page = site_dir / path / "index.html"
        if not page.is_file():
            continue
        found = ISLAND_RE.search(page.read_text(encoding="utf-8"))
        if found:
            data = found.group(1).encode("utf-8")
            out[lang] = (len(data), gzip_size(data))
    return out


def redraw_times(site_dir: Path) -> dict[str, list[float]]:
    """lang -> the redraw times (ms) of RUNS changes, on a phone viewport with the CPU slowed SLOWDOWN×."""
    test_harness()
    from browser import browser_page, serve_directory  # noqa: E402
    from playwright.sync_api import sync_playwright

    out = {}
    with serve_directory(site_dir) as base, sync_playwright() as pw:
        for lang, path in PAGES.items():
            with browser_page(pw, viewport={"width": 390, "height": 844}) as (page, _):
                page.goto(base + path + QUERY)
                page.wait_for_selector("#machine-releases li")
                session = page.context.new_cdp_session(page)
                session.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
                out[lang] = page.evaluate(REDRAW, [RUNS, CHOICES])
                session.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            times = out[lang]
            log(f"  machine redraw {lang}: median {statistics.median(times):.1f} ms, worst {max(times):.1f} ms")
    return out


def machine_rows(site_dir: Path) -> list[tuple[str, str, str]]:
    """The benchmark table's rows for the machine page."""
    rows = []
    for lang, (raw, gz) in island_sizes(site_dir).items():
        rows.append(
            (
                f"Machine page data (#machine-data, {lang})",
                f"{kb(raw)} raw, {kb(gz)} gz (level {GZIP_LEVEL})",
                f"≤ {DATA_TARGET_KB} KB gz",
            )
        )
    for lang, times in redraw_times(site_dir).items():
        rows.append(
            (
                f"Machine page, answer redrawn after a change ({lang}, {SLOWDOWN}× CPU slowdown, phone, {len(times)} runs)",
                f"median {statistics.median(times):.1f} ms, worst {max(times):.1f} ms",
                f"≤ {REDRAW_TARGET_MS} ms",
            )
        )
    return rows
