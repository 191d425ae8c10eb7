"""Gate: the site loads nothing from any other host. Statically: no HTML, CSS or JS file of the hosted build
or the offline copy names a CDN or font service as something to load. In the browser: browsing every page
type in both languages and searching, hosted and from disk, requests nothing but the site itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import browser_page
from bs4 import BeautifulSoup
from parsed_pages import parsed_page
from search_ui import run_query

URL = re.compile(r"(?:https?:)?//(?:[a-z0-9-]+\.)+[a-z]{2,}[^\s\"'()<>`]*", re.I)
CDNS_AND_FONT_SERVICES = re.compile(
    r"fonts\.googleapis\.com|fonts\.gstatic\.com|cdn\.jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|use\.fontawesome\.com|"
    r"kit\.fontawesome\.com|ajax\.googleapis\.com|code\.jquery\.com|polyfill\.io|bootstrapcdn\.com|use\.typekit\.net|fonts\.bunny\.net",
    re.I,
)
# Dormant code paths in Material's bundle: a mermaid loader (no page has a diagram) and a ResizeObserver
# polyfill for browsers without one. Never requested (the browser tests below would catch it).
MATERIAL_DORMANT = {"https://unpkg.com/mermaid@11/dist/mermaid.min.js", "https://unpkg.com/resize-observer-polyfill"}
# Namespace URIs, sources cited in comments and licence headers, and repository-link parsers: not requests.
NOT_REQUESTS = re.compile(
    r"(https?:)?//(www\.w3\.org|github\.com|api\.github\.com|gitlab\.com|tartarus\.org|fontawesome\.com|bit\.ly|bitbucket\.org|"
    r"opensource\.org|lunrjs\.com|mths\.be|feross\.org|fb\.me|clipboardjs\.com)"
)
# <link> relations that load something (canonical, alternate, prev/next only name pages).
LOADING_RELS = {
    "stylesheet",
    "icon",
    "preload",
    "modulepreload",
    "prefetch",
    "manifest",
    "preconnect",
    "dns-prefetch",
    "apple-touch-icon",
}


# CSS loads through url(…) and @import "…"; in HTML through these attributes, style attributes (CSS), SVG
# references (every href of an SVG element but a link's), and a refresh that navigates away.
CSS_LOAD = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"]*?))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')""", re.I)
LOADING_ATTRIBUTES = ("src", "poster", "data", "background")
SVG_REFERENCES = ("href", "xlink:href")
REFRESH_URL = re.compile(r"url\s*=\s*['\"]?([^'\"]+)", re.I)


def css_urls(css: str) -> list[str]:
    """Every URL a style sheet or style attribute would load."""
    return [next(group for group in match.groups() if group is not None).strip() for match in CSS_LOAD.finditer(css)]


def srcset_urls(srcset: str) -> list[str]:
    """The URLs of an <img srcset> / <source srcset>: comma-separated candidates, each 'URL [descriptor]'."""
    return [candidate.split()[0] for candidate in srcset.split(",") if candidate.strip()]


def _html_loads(soup: BeautifulSoup) -> list[str]:
    # Every attribute read here holds one value (a string), never a list as class or rel do.
    loaded = [str(t[a]) for a in LOADING_ATTRIBUTES for t in soup.select(f"[{a}]")]
    loaded += [u for t in soup.find_all(srcset=True) for u in srcset_urls(str(t["srcset"]))]
    loaded += [u for t in soup.find_all(style=True) for u in css_urls(str(t["style"]))]
    loaded += [
        str(t["href"]) for t in soup.find_all("link", href=True) if LOADING_RELS & set(t.get_attribute_list("rel"))
    ]
    for svg in soup.find_all("svg"):
        loaded += [
            str(t[a]) for t in [svg, *svg.find_all(True)] if t.name != "a" for a in SVG_REFERENCES if t.has_attr(a)
        ]
    loaded += [
        m.group(1)
        for t in soup.find_all("meta", content=True)
        if str(t.get("http-equiv", "")).lower() == "refresh"
        for m in [REFRESH_URL.search(str(t["content"]))]
        if m
    ]
    return loaded


def loaded_urls(path: Path) -> set[str]:
    """Foreign URLs a file would load: for HTML every loading attribute (src, srcset, poster, data, SVG
    references, CSS url() in style attributes, loading <link>s) and inline script or style (links *to*
    pages, like the official posts, and URLs inside code examples are content); for CSS every url() and
    @import, protocol-relative ones too; for JS any full http(s) URL (minified JS holds regex literals like
    /\\/\\//, so protocol-relative ones don't count there)."""
    if path.suffix == ".html":
        soup = parsed_page(path)
        inline = " ".join(
            t.get_text() for t in soup.find_all(["script", "style"]) if t.get("type") != "application/json"
        )
        styles = [u for t in soup.find_all("style") for u in css_urls(t.get_text())]
        return {u for u in _html_loads(soup) + styles if URL.match((u or "").strip())} | set(URL.findall(inline))
    text = path.read_text(encoding="utf-8", errors="replace")
    found = {u for u in URL.findall(text) if u.lower().startswith("http")}
    if path.suffix == ".css":
        found |= {u for u in css_urls(text) if URL.match(u)}
    if path.name.startswith("bundle."):
        found -= MATERIAL_DORMANT
    return {u for u in found if not NOT_REQUESTS.match(u)}


def code_files(site: Path) -> list[Path]:
    # search/ holds page text (the index), lunr/ only licence headers naming lunr's sites.
    return [
        p
        for p in sorted(site.rglob("*"))
        if p.suffix in (".html", ".js", ".css")
        and "search" != p.parent.name
        and "/lunr/" not in p.as_posix()
        and "downloads" not in p.parts
    ]


# Each way a page or style sheet makes the browser fetch from another host (issue 24 found the first four
# passing this gate), with what the gate must name.
STATIC_LOADS = {
    "style-attribute": ('<p style="background:url(https://evil.example/bg.png)">x</p>', "https://evil.example/bg.png"),
    "svg-image": ('<svg><image href="https://evil.example/i.png"/></svg>', "https://evil.example/i.png"),
    "srcset": (
        '<img src="a.png" srcset="a2.png 2x, https://evil.example/s.png 3x" alt="">',
        "https://evil.example/s.png",
    ),
    "poster": ('<video poster="https://evil.example/p.png"></video>', "https://evil.example/p.png"),
    "svg-xlink-href": ('<svg><use xlink:href="//evil.example/u.svg#x"/></svg>', "//evil.example/u.svg#x"),
    "style-element-protocol-relative": (
        "<style>body{background:url('//evil.example/b.png')}</style>",
        "//evil.example/b.png",
    ),
    "object-data": ('<object data="https://evil.example/o.pdf"></object>', "https://evil.example/o.pdf"),
    "meta-refresh": ('<meta http-equiv="refresh" content="0; url=https://evil.example/">', "https://evil.example/"),
}
# What is content, not a load: links to pages, an SVG's own link, a local image, a fragment paint.
NOT_LOADS = '<a href="https://pytorch.org/">post</a><svg><a href="https://pytorch.org/"><text>x</text></a><rect fill="url(#g)"/></svg><img src="../a.png" alt="">'


@pytest.mark.parametrize("html, url", STATIC_LOADS.values(), ids=STATIC_LOADS.keys())
def test_the_static_gate_reads_every_way_html_loads(tmp_path, html, url):
    page = tmp_path / "page.html"
    page.write_text(f"<!DOCTYPE html><html><body>{NOT_LOADS}{html}</body></html>", encoding="utf-8")
    assert loaded_urls(page) == {url}


def test_the_static_gate_reads_css_url_and_import(tmp_path):
    sheet = tmp_path / "site.css"
    sheet.write_text(
        '@import "https://evil.example/a.css";\n.x{background:url(//evil.example/b.png)}\n'
        ".y{background:url( 'https://evil.example/c.png' )}\n.z{background:url(../img/local.png)}\n",
        encoding="utf-8",
    )
    assert loaded_urls(sheet) == {"https://evil.example/a.css", "//evil.example/b.png", "https://evil.example/c.png"}


@pytest.mark.parametrize("build", ["hosted", "offline"])
def test_no_file_loads_from_another_host(build, built_site, offline_copy):
    site = built_site if build == "hosted" else offline_copy
    files = code_files(site)
    assert len(files) > 90
    loads = {f.relative_to(site).as_posix(): loaded_urls(f) for f in files}
    assert {name: sorted(urls)[:5] for name, urls in loads.items() if urls} == {}


@pytest.mark.parametrize("build", ["hosted", "offline"])
def test_no_cdn_or_font_service_is_named_anywhere(build, built_site, offline_copy):
    site = built_site if build == "hosted" else offline_copy
    named = {}
    for path in code_files(site):
        hits = set(
            m.group(0) for m in CDNS_AND_FONT_SERVICES.finditer(path.read_text(encoding="utf-8", errors="replace"))
        )
        if path.name.startswith("bundle.") and path.suffix == ".js":
            text = path.read_text(encoding="utf-8")
            # Exactly the dormant URLs, nothing more.
            assert sum(text.count(u) for u in MATERIAL_DORMANT) == len(CDNS_AND_FONT_SERVICES.findall(text)), path
            continue
        if hits:
            named[path.relative_to(site).as_posix()] = sorted(hits)
    assert named == {}


PAGES = {
    "home": "",
    "release": "releases/1.6/",
    "lifecycle": "lifecycle/",
    "topic": "topics/compiler/",
    "compare": "compare/?from=1.13&to=2.0",
}


def offline_url(copy: Path, path: str) -> str:
    page, _, query = path.partition("?")
    # Offline URLs: a page is <name>.html, a language's home <lang>/index.html.
    target = copy / page / "index.html" if page in ("", "en/") else copy / (page.rstrip("/") + ".html")
    return target.as_uri() + (f"?{query}" if query else "")


@pytest.mark.browser
@pytest.mark.parametrize("build", ["hosted", "offline"])
def test_browsing_and_searching_requests_only_the_site(build, playwright_instance, served_site, offline_copy):
    url = (lambda p: served_site + p) if build == "hosted" else (lambda p: offline_url(offline_copy, p))
    with browser_page(playwright_instance) as (page, log):
        for lang, prefix in (("zh", ""), ("en", "en/")):
            for path in PAGES.values():
                page.goto(url(prefix + path), wait_until="networkidle")
            links, _ = run_query(page, {"zh": "编译", "en": "compiler"}[lang])
            assert links
            with page.expect_navigation():
                page.locator(".md-search-result__item > a").first.click()
            page.wait_for_load_state("networkidle")
        if build == "hosted":
            page.goto(served_site + "404.html", wait_until="networkidle")
        else:
            assert not (offline_copy / "404.html").exists(), "a 404 page is for servers; the offline copy has none"
        assert log.foreign_requests == []
        log.assert_clean()
