"""Site benchmark: build time (ours against plain Material), build scaling with the number of releases,
bytes per page view, search index size and Lighthouse scores.

    python -m scripts.bench_site [--repeats 5] [--sizes 24,100,200] [--only build,scale,bytes,lighthouse]
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
              topic), and home and the release page on desktop: the four category scores, the performance
              metrics, and under the table every failing audit. Target: performance >= 95 on mobile.

Progress goes to stderr; stdout gets a short header (machine, versions) and one markdown table to paste
into an issue note. Needs Debian's chromium and the test extra (playwright) for bytes and lighthouse.
Figures only: targets are printed beside them, never asserted here.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
PARTS = ("build", "scale", "bytes", "lighthouse")
DEFAULT_SIZES = (24, 100, 200)
GZIP_LEVEL = 6  # what nginx / GitHub Pages style servers use by default
PAGE_WEIGHT_TARGET_KB = 120
SCALE_TARGET = (200, 60.0)  # releases, seconds
LANG_PREFIX = {"zh": "", "en": "en/"}
PLAIN_CONFIG_NAME = "mkdocs.plain-material.yml"
SYNTHETIC_MAJOR = 10  # synthetic releases are 10.0, 10.1, ...: far above any real version
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
LIGHTHOUSE_CHROME_FLAGS = (
    "--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --no-first-run"
)
LIGHTHOUSE_CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CATEGORY_SHORT = {"performance": "perf", "accessibility": "a11y", "best-practices": "bp", "seo": "seo"}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def kb(n: float) -> str:
    return f"{n / 1024:.1f} KB"


def _test_harness():
    """tests/ holds the shared harness (copy_project, serve_directory, browser_page); import it by path."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))


# --- builds ---------------------------------------------------------------------------------------


class BuildFailed(RuntimeError):
    pass


def copy_project(dest: Path) -> Path:
    """A throwaway copy of the project (mkdocs.yml, overrides, scripts, docs), as the tests make one."""
    _test_harness()
    from conftest import copy_project as copy  # noqa: E402  (the tests' own copy, so both build the same tree)

    return copy(dest)


def build_env() -> dict[str, str]:
    # As `make build`: no bytecode written into the temp copy, so every repeat starts equally clean.
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def timed_build(
    project: Path, config_file: str | None = None, strict: bool = True, keep_site: Path | None = None
) -> float:
    """Wall time of one `mkdocs build` subprocess in `project`, into a fresh temp site dir (or keep_site)."""
    with tempfile.TemporaryDirectory(prefix="bench-site-out-") as out:
        site_dir = keep_site or Path(out) / "site"
        cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site_dir)]
        if strict:
            cmd.append("--strict")
        if config_file:
            cmd += ["--config-file", config_file]
        start = time.perf_counter()
        result = subprocess.run(cmd, cwd=project, env=build_env(), capture_output=True, text=True, timeout=1800)
        elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise BuildFailed(
            f"{' '.join(cmd)} in {project} failed ({result.returncode}):\n{(result.stdout + result.stderr)[-4000:]}"
        )
    return elapsed


def plain_material_config(config_file: Path) -> dict:
    """mkdocs.yml as a plain Material site: same docs, theme, Markdown extensions, extra CSS/JS and search
    settings, but no hooks, no plugin besides search (i18n off: `*.en.md` become ordinary pages), no
    polyfills, no custom_dir (overrides/sitemap.xml needs static-i18n's template extensions) and not strict (links meant for
    the i18n layout warn)."""
    from mkdocs.utils.yaml import yaml_load  # resolves !ENV like a real build

    with open(config_file, encoding="utf-8") as f:
        config = yaml_load(f)
    config.pop("hooks", None)
    config.pop("INHERIT", None)
    search = None
    plugins = config.get("plugins") or []
    if isinstance(plugins, dict):
        plugins = [{name: options} for name, options in plugins.items()]
    for plugin in plugins:
        name, options = (plugin, None) if isinstance(plugin, str) else next(iter(plugin.items()))
        if name in ("search", "material/search"):
            search = {"search": options} if options else "search"
    config["plugins"] = [search or "search"]
    extra = config.get("extra")
    if isinstance(extra, dict):
        extra.pop("polyfills", None)
    theme = config.get("theme")
    if isinstance(theme, dict):
        theme.pop("custom_dir", None)
    config["strict"] = False
    return config


def write_plain_config(project: Path) -> str:
    """Write the plain Material config beside the project's mkdocs.yml; returns its file name."""
    import yaml

    config = plain_material_config(project / "mkdocs.yml")
    (project / PLAIN_CONFIG_NAME).write_text(
        yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return PLAIN_CONFIG_NAME


def warm_up() -> None:
    """Read the build's Python packages once so the first timed build does not pay for a cold disk cache."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import mkdocs.commands.build, material, mkdocs_static_i18n, pymdownx, pygments, jieba, yaml",
        ],
        env=build_env(),
        capture_output=True,
    )


def jieba_installed() -> bool:
    """Whether Material's search plugin segments Chinese in the plain build (it does when jieba imports;
    ours never asks it to: overrides/hooks/lazy_search_index.py)."""
    from importlib.util import find_spec

    return find_spec("jieba") is not None


def bench_build(work: Path, repeats: int) -> dict:
    """Plain Material and our build of the same project copy, alternately; medians and their ratio."""
    project = copy_project(work / "project-build")
    plain_config = write_plain_config(project)
    warm_up()
    times: dict[str, list[float]] = {"plain": [], "ours": []}
    for i in range(repeats):
        times["plain"].append(timed_build(project, plain_config, strict=False))
        times["ours"].append(timed_build(project))
        log(f"  build {i + 1}/{repeats}: plain {times['plain'][-1]:.2f} s, ours {times['ours'][-1]:.2f} s")
    plain, ours = statistics.median(times["plain"]), statistics.median(times["ours"])
    return {"plain": plain, "ours": ours, "ratio": ours / plain, "times": times}


# --- synthetic releases ---------------------------------------------------------------------------


def _replace_field(front: str, name: str, value: str) -> str:
    new, count = re.subn(rf"(?m)^{name}:.*$", f"{name}: {value}", front, count=1)
    if count != 1:
        raise ValueError(f"front matter has no '{name}' line")
    return new


def clone_release_text(text: str, old_version: str, new_version: str, new_date: dt.date, facts: bool = True) -> str:
    """A release page with another version and date: front matter version/date replaced (`facts`: only the
    default language's page holds them), its patch versions (1.6.0) renamed with it, and "PyTorch <old>" in
    the front matter's texts (title, summary, description) renamed. The body is left as it is."""
    from scripts.catalog.frontmatter import split_front_matter

    text = text.replace("\r\n", "\n")
    split = split_front_matter(text)
    if not text.startswith("---\n") or split is None:
        raise ValueError("release page has no front matter")
    front, body, _ = split
    if facts:
        front = _replace_field(front, "version", f'"{new_version}"')
        front = _replace_field(front, "date", new_date.isoformat())
    front = re.sub(rf"PyTorch {re.escape(old_version)}(?![\d.]*\d)", f"PyTorch {new_version}", front)
    # Its patch releases (1.6.0 -> 10.3.0) wherever the facts name them: patches, PyPI notes, compat pins.
    front = re.sub(rf"(?<![\d.]){re.escape(old_version)}\.(\d+)(?![\d.])", rf"{new_version}.\1", front)
    return f"---\n{front}\n---\n{body}"


def add_synthetic_releases(docs_dir: Path, total: int) -> list[str]:
    """Add release page pairs cloned from the real ones (round robin, oldest first) until docs_dir holds
    `total` releases. New versions are 10.0, 10.1, ... and their dates spread from the day after the newest
    real release to today (a release may not be dated in the future; several may share a day), so versions
    and dates rise together. Returns the new versions."""
    from scripts.catalog.loader import load_catalog
    from scripts.catalog.model import DEFAULT_LANGUAGE, LANGUAGES, RELEASES_DIR, page_file_name

    catalog = load_catalog(docs_dir)
    sources = list(reversed(catalog.releases))  # oldest first
    missing = total - len(sources)
    if missing < 0:
        raise ValueError(f"{docs_dir} already holds {len(sources)} releases, more than {total}")
    taken = {r.version for r in catalog.releases}
    newest = max(r.date for r in catalog.releases)
    major = max(SYNTHETIC_MAJOR, max(int(v.split(".")[0]) for v in taken) + 1)
    today = dt.date.today()
    room = max(0, (today - newest).days)
    added = []
    for i in range(missing):
        source = sources[i % len(sources)]
        version = f"{major}.{i}"
        date = min(newest + dt.timedelta(days=1 + i * room // max(missing, 1)), today) if room else newest
        for lang in LANGUAGES:
            page = source.pages[lang]
            text = (docs_dir / page.src_uri).read_text(encoding="utf-8-sig")
            target = docs_dir / RELEASES_DIR / page_file_name(version, lang)
            target.write_text(
                clone_release_text(text, source.version, version, date, facts=lang == DEFAULT_LANGUAGE),
                encoding="utf-8",
            )
        added.append(version)
    return added


def bench_scale(work: Path, sizes: list[int], repeats: int, reuse: dict[int, float] | None = None) -> list[dict]:
    """Strict build time per release count; `reuse` maps a size to a median already measured."""
    from scripts.catalog.loader import load_catalog

    rows = []
    for size in sizes:
        if reuse and size in reuse:
            rows.append({"size": size, "seconds": reuse[size], "reused": True})
            log(f"  scale {size}: {reuse[size]:.2f} s (median from the build part)")
            continue
        project = copy_project(work / f"project-scale-{size}")
        try:
            add_synthetic_releases(project / "docs", size)
        except ValueError as exc:
            log(f"  scale {size}: skipped ({exc})")
            continue
        count = len(load_catalog(project / "docs").releases)
        warm_up()
        times = []
        for i in range(repeats):
            times.append(timed_build(project))
            log(f"  scale {size} ({count} releases) {i + 1}/{repeats}: {times[-1]:.2f} s")
        rows.append({"size": count, "seconds": statistics.median(times), "times": times})
        shutil.rmtree(project, ignore_errors=True)
    return rows


# --- bytes per page view ------------------------------------------------------------------------------


def gzip_size(data: bytes) -> int:
    return len(gzip.compress(data, GZIP_LEVEL, mtime=0))


def url_to_file(url: str, base_url: str, site_dir: Path) -> Path | None:
    """The file in site_dir that a same-site URL serves (directory URLs -> index.html); None if foreign."""
    if not url.startswith(base_url):
        return None
    path = unquote(urlparse(url).path)[len(urlparse(base_url).path) :]
    if path == "" or path.endswith("/"):
        path += "index.html"
    return site_dir / path


def kind_of(path: str) -> str:
    suffix = Path(path).suffix.lower()
    return {
        ".html": "html", ".css": "css", ".js": "js", ".mjs": "js", ".json": "json",
        ".woff": "font", ".woff2": "font", ".ttf": "font", ".otf": "font",
        ".png": "image", ".jpg": "image", ".jpeg": "image", ".gif": "image", ".svg": "image", ".webp": "image", ".ico": "image",
    }.get(suffix, "other")  # fmt: skip


@dataclass
class PageWeight:
    files: dict[str, int] = field(default_factory=dict)  # site-relative path -> gzipped bytes
    missing: list[str] = field(default_factory=list)  # same-site URLs with no file (404s)
    foreign: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.files.values())

    @property
    def search(self) -> int:
        return sum(n for path, n in self.files.items() if path.startswith("search/"))

    @property
    def without_search(self) -> int:
        return self.total - self.search

    def by_kind(self) -> dict[str, int]:
        kinds: dict[str, int] = {}
        for path, n in self.files.items():
            kinds[kind_of(path)] = kinds.get(kind_of(path), 0) + n
        return kinds


def account(site_dir: Path, base_url: str, urls: list[str]) -> PageWeight:
    """Gzipped bytes of every distinct file the URLs load, read from site_dir (a repeat is served from
    cache, so each file counts once)."""
    weight = PageWeight()
    site_dir = Path(site_dir)
    for url in urls:
        path = url_to_file(url.split("#")[0].split("?")[0], base_url, site_dir)
        if path is None:
            if not url.startswith(("data:", "blob:")):
                weight.foreign.append(url)
            continue
        rel = path.relative_to(site_dir).as_posix()
        if rel in weight.files or rel in weight.missing:
            continue
        if path.is_file():
            weight.files[rel] = gzip_size(path.read_bytes())
        else:
            weight.missing.append(rel)
    return weight


def measured_pages(release: str) -> dict[str, str]:
    """page -> path (default language) of the pages every part measures: home and one release page."""
    return {"home": "", "release": f"releases/{release}/"}


def page_urls(release: str) -> dict[tuple[str, str], str]:
    """(page, lang) -> site-relative URL of the pages measured."""
    return {
        (page, lang): prefix + path
        for page, path in measured_pages(release).items()
        for lang, prefix in LANG_PREFIX.items()
    }


def longest_release(site_dir: Path) -> str | None:
    """The release whose built (default-language) page is the largest: the heaviest page a reader opens."""
    pages = [(p.stat().st_size, p.parent.name) for p in (site_dir / "releases").glob("*/index.html")]
    return max(pages)[1] if pages else None


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
        }
    )
    urls = {}
    for page, path in types.items():
        if not (site_dir / path / "index.html").is_file():
            continue
        for lang, prefix in LANG_PREFIX.items():
            urls[(page, lang, "mobile")] = prefix + path
            if page in measured_pages(release):
                urls[(page, lang, "desktop")] = prefix + path
    return urls


def measure_page_weights(site_dir: Path, release: str) -> dict[tuple[str, str], PageWeight]:
    """Load each page in a fresh Chromium, wait for network idle, and account every response."""
    _test_harness()
    from browser import browser_page, serve_directory  # noqa: E402
    from playwright.sync_api import sync_playwright

    results = {}
    with serve_directory(site_dir) as base, sync_playwright() as pw:
        for key, rel_url in page_urls(release).items():
            with browser_page(pw) as (page, browser_log):
                seen: list[str] = []
                page.context.on("response", lambda response, seen=seen: seen.append(response.url))
                page.goto(base + rel_url, wait_until="networkidle")
                page.wait_for_timeout(500)  # a late worker fetch still counts
                weight = account(site_dir, base, seen)
                weight.foreign = list(browser_log.foreign_requests)
                results[key] = weight
                log(
                    f"  bytes {key[0]} {key[1]}: {kb(weight.total)} gz in {len(weight.files)} files (search {kb(weight.search)})"
                )
    return results


def _index_docs(data) -> tuple[dict | None, list[dict]]:
    """(config, docs) of a search JSON file: Material's {"config", "docs"} or a bare list of docs."""
    if isinstance(data, dict) and isinstance(data.get("docs"), list):
        return data.get("config"), [d for d in data["docs"] if isinstance(d, dict)]
    if isinstance(data, list):
        return None, [d for d in data if isinstance(d, dict) and "location" in d]
    return None, []


def index_sizes(site_dir: Path) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """Each language's share of the search index, raw and gzipped, summed over search/search_index.json
    and any other search/*.json (a lazily loaded full index included); and each file's own raw/gz size.
    A doc is English when its location starts with `en/`; search/index.<lang>.json and its full-text part
    search/index.<lang>.text.json belong to <lang> whole."""
    search_dir = Path(site_dir) / "search"
    names = sorted(p.name for p in search_dir.glob("*.json"))
    if "search_index.json" in names:
        names.remove("search_index.json")
        names.insert(0, "search_index.json")
    per_lang = {"zh": [0, 0], "en": [0, 0]}
    per_file = {}
    for name in names:
        raw_bytes = (search_dir / name).read_bytes()
        per_file[f"search/{name}"] = (len(raw_bytes), gzip_size(raw_bytes))
        own = re.fullmatch(r"index\.(zh|en)(\.text)?\.json", name)
        if own:  # one language's index (scripts/search_index.py): its first part and its full-text part
            per_lang[own.group(1)][0] += len(raw_bytes)
            per_lang[own.group(1)][1] += gzip_size(raw_bytes)
            continue
        try:
            config, docs = _index_docs(json.loads(raw_bytes.decode("utf-8")))
        except ValueError:
            continue
        for lang in per_lang:
            mine = [d for d in docs if str(d.get("location", "")).startswith("en/") == (lang == "en")]
            if not mine:
                continue
            share = {"config": config, "docs": mine} if config is not None else mine
            raw = json.dumps(share, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            per_lang[lang][0] += len(raw)
            per_lang[lang][1] += gzip_size(raw)
    return {lang: (raw, gz) for lang, (raw, gz) in per_lang.items()}, per_file


# --- lighthouse -------------------------------------------------------------------------------------


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
    node = _version_of(["node", "--version"])
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
    _test_harness()
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
    return " · ".join(
        f"{CATEGORY_SHORT[c]} {'—' if scores.get(c) is None else round(scores[c] * 100)}" for c in LIGHTHOUSE_CATEGORIES
    )


# --- report -----------------------------------------------------------------------------------------


def _version_of(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "missing"
    return out.splitlines()[-1] if out else "missing"


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
    chromium = _version_of([CHROMIUM, "--version"]) if Path(CHROMIUM).exists() else "missing"
    lighthouse = _version_of([str(LIGHTHOUSE), "--version"]) if LIGHTHOUSE.exists() else "missing (npm ci)"
    return [
        f"machine: {usable} usable cores ({os.cpu_count()} online){', ' + model if model else ''}; load average at start {load}; {platform.system()} {platform.release()}",
        f"versions: Python {platform.python_version()}, mkdocs {pkg('mkdocs')}, mkdocs-material {pkg('mkdocs-material')}, "
        f"mkdocs-static-i18n {pkg('mkdocs-static-i18n')}, playwright {pkg('playwright')}, {chromium}, lighthouse {lighthouse}, "
        f"node {_version_of(['node', '--version']) if shutil.which('node') else 'missing'}",
    ]


def markdown_table(rows: list[tuple[str, str, str]]) -> str:
    header = ("Figure", "Value", "Target")
    rows = [tuple(cell.replace("|", "\\|") for cell in row) for row in rows]
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) for i in range(3)] if rows else [len(h) for h in header]
    lines = [
        "| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |",
        "|" + "|".join("-" * (w + 2) for w in widths) + "|",
    ]
    lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
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
        prog="python -m scripts.bench_site",
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
                    "Plain Material segments Chinese for its search index with jieba",
                    "yes" if jieba_installed() else "no (jieba not installed)",
                    "",
                )
            )
        if "scale" in parts:
            from scripts.catalog.loader import load_catalog

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

        if "bytes" in parts or "lighthouse" in parts:
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
            if "lighthouse" in parts:
                if not lighthouse_available():
                    msg = f"Lighthouse skipped: {LIGHTHOUSE} (or node, or {CHROMIUM}) is missing; install it with `npm ci` in {ROOT}."
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
    sys.exit(main())
