"""Lighthouse for the site benchmark: every page type on mobile in both languages (and home and a release page
on desktop), served like GitHub Pages; the category scores, the performance metrics and every failing audit."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlparse

from scripts.bench.common import ROOT, log, test_harness
from scripts.bench.weight import LANG_PREFIX, longest_release, measured_pages

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
LIGHTHOUSE_CHROME_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run"
)
LIGHTHOUSE_CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CATEGORY_SHORT = {"performance": "perf", "accessibility": "a11y", "best-practices": "bp", "seo": "seo"}


def lighthouse_urls(site_dir: Path, release: str) -> dict[tuple[str, str, str], str]:
    """(page type, lang, form factor) -> site-relative URL: every page type on mobile in both languages, and
    the pages measured for bytes on desktop too."""
    types = measured_pages(release)
    longest = longest_release(site_dir)
    if longest and longest != release:
        types[f"release {longest} (longest)"] = f"releases/{longest}/"
    types.update(
        {
            "lifecycle": "lifecycle/",
            "upgrade": "compare/",
            "matrix": "compatibility/",
            "support": "support/",
            "topic": "topics/distributed/",
            "machine": "machine/?os=linux-x86_64&python=3.10&gpu=6.1&driver=535",  # an answer drawn, as a link opens it
        }
    )
    urls = {}
    for page, path in types.items():
        if not (site_dir / path.split("?")[0] / "index.html").is_file():
            continue
        for lang, prefix in LANG_PREFIX.items():
            urls[(page, lang, "mobile")] = prefix + path
            if page in measured_pages(release):
                urls[(page, lang, "desktop")] = prefix + path
    return urls


def lighthouse_available() -> bool:
    return LIGHTHOUSE.exists() and shutil.which("node") is not None and Path(CHROMIUM).exists()


def failing_audits(report: dict) -> list[dict]:
    """Audits with a score below 1 that count (not informative, notApplicable or manual)."""
    failing = []
    for audit_id, audit in report.get("audits", {}).items():
        mode = audit.get("scoreDisplayMode")
        score = audit.get("score")
        if mode in ("informative", "notApplicable", "manual"):
            continue
        if mode == "error" or (score is not None and score < 1):
            display = audit.get("displayValue", "") or audit.get("errorMessage", "")
            selectors = [
                item["node"]["selector"]
                for item in (audit.get("details") or {}).get("items", [])
                if isinstance(item, dict) and isinstance(item.get("node"), dict) and item["node"].get("selector")
            ]
            if selectors and not display:
                display = (
                    f"{len(selectors)} element(s): "
                    + ", ".join(f"`{s}`" for s in selectors[:3])
                    + (", …" if len(selectors) > 3 else "")
                )
            failing.append(
                {"id": audit_id, "title": audit.get("title", audit_id).rstrip("."), "score": score, "display": display}
            )
    return sorted(failing, key=lambda a: (a["score"] if a["score"] is not None else -1, a["id"]))


def node_version_problem() -> str | None:
    """A note when node is older than the Lighthouse package's `engines.node` (a ">=X.Y" range)."""
    try:
        wanted = json.loads((LIGHTHOUSE.parent.parent / "lighthouse" / "package.json").read_text(encoding="utf-8"))[
            "engines"
        ]["node"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    need = re.match(r"\s*>=\s*v?(\d+)(?:\.(\d+))?", wanted)
    node = version_of(["node", "--version"])
    have = re.match(r"v?(\d+)\.(\d+)", node)
    if not need or not have:
        return None
    if (int(have[1]), int(have[2])) < (int(need[1]), int(need[2] or 0)):
        return (
            f"Lighthouse asks for node {wanted} but node is {node}: the category scores still come out, but "
            "audits that use newer JavaScript (e.g. the *-insight audits) end in an error and are listed as such."
        )
    return None


def run_lighthouse(url: str, form_factor: str, out_dir: Path) -> dict:
    out = (
        out_dir
        / f"lighthouse-{re.sub(r'[^A-Za-z0-9.]+', '-', urlparse(url).path).strip('-') or 'home'}-{form_factor}.json"
    )
    cmd = [
        str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}", "--quiet",
        f"--chrome-flags={LIGHTHOUSE_CHROME_FLAGS}", f"--only-categories={','.join(LIGHTHOUSE_CATEGORIES)}",
    ]  # fmt: skip
    if form_factor == "desktop":
        cmd.append("--preset=desktop")
    result = subprocess.run(
        cmd, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0 or not out.exists():
        raise RuntimeError(f"lighthouse failed on {url} ({form_factor}):\n{(result.stdout + result.stderr)[-2000:]}")
    report = json.loads(out.read_text(encoding="utf-8"))
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse runtime error on {url}: {report['runtimeError']}")
    scores = {c: report["categories"][c]["score"] for c in LIGHTHOUSE_CATEGORIES if c in report.get("categories", {})}
    return {"scores": scores, "failing": failing_audits(report), "metrics": performance_metrics(report)}


METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "dom-size": "DOM",
}


def performance_metrics(report: dict) -> str:
    """The metrics behind the performance score, as Lighthouse prints them (FCP 1.4 s · TBT 150 ms · …)."""
    audits = report.get("audits", {})
    return " · ".join(
        f"{short} {audits[key].get('displayValue', '—')}" for key, short in METRICS.items() if key in audits
    )


def bench_lighthouse(site_dir: Path, release: str, work: Path) -> dict[tuple[str, str, str], dict]:
    test_harness()
    from browser import serve_directory  # noqa: E402

    results = {}
    # gzip and cache headers like GitHub Pages: Lighthouse should score the site, not http.server.
    with serve_directory(site_dir, like_a_web_host=True) as base:
        for (page, lang, form_factor), rel_url in lighthouse_urls(site_dir, release).items():
            try:
                results[(page, lang, form_factor)] = run_lighthouse(base + rel_url, form_factor, work)
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                results[(page, lang, form_factor)] = {"error": str(exc).splitlines()[0]}
            r = results[(page, lang, form_factor)]
            log(
                f"  lighthouse {page} {lang} {form_factor}: "
                + (format_scores(r["scores"]) + " · " + r["metrics"] if "scores" in r else r["error"])
            )
    return results


def format_scores(scores: dict[str, float | None]) -> str:
    return " · ".join(f"{CATEGORY_SHORT[c]} {_percent(scores.get(c))}" for c in LIGHTHOUSE_CATEGORIES)


def _percent(score: float | None) -> str:
    return "—" if score is None else str(round(score * 100))


def version_of(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "missing"
    return out.splitlines()[-1] if out else "missing"
