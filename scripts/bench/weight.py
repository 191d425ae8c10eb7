"""Bytes per page view for the site benchmark: each page loaded in Chromium until the network is idle, every
response mapped back to its file and gzipped; and each language's share of the search index."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from scripts.bench.common import gzip_size, kb, log, test_harness

LANG_PREFIX = {"zh": "", "en": "en/"}


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


def measure_page_weights(site_dir: Path, release: str) -> dict[tuple[str, str], PageWeight]:
    """Load each page in a fresh Chromium, wait for network idle, and account every response."""
    test_harness()
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
        if own:  # one language's index (scripts/views/search_index.py): its first part and its full-text part
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
