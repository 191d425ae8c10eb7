"""Assertions on the HTML of one real build of the whole site (the session's `built_site`)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import ROOT
from parsed_pages import parsed_page, within

from scripts.catalog.model import DEFAULT_LANGUAGE, LANGUAGES, MATURITY_LABELS
from scripts.catalog.model import RELEASES_DIR as RELEASES

OTHER = {"zh": "en", "en": "zh"}
SITE_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's default when SITE_URL is unset


def page_path(site: Path, url: str) -> Path:
    return site / url / "index.html" if url.endswith("/") or url == "" else site / url


def soup_of(site: Path, url: str) -> BeautifulSoup:
    return parsed_page(page_path(site, url))


def resolve(from_url: str, href: str) -> str:
    """A relative href on the page at site-relative `from_url`, as a site-relative URL."""
    joined = urljoin("http://site/" + from_url, href)
    return urlparse(joined).path.lstrip("/")


def home_url(lang: str) -> str:
    return "" if lang == DEFAULT_LANGUAGE else f"{lang}/"


# --- every release, both languages ------------------------------------------------------------------


def test_site_has_releases(catalog):
    assert len(catalog.releases) >= 5
    assert {"1.0", "1.4", "1.5", "1.6", "1.9"} <= {r.version for r in catalog.releases}


def test_every_release_has_both_language_pages(built_site, catalog):
    for release in catalog.releases:
        for lang in LANGUAGES:
            page = release.pages[lang]
            assert page.url == (
                f"releases/{release.version}/" if lang == "zh" else f"{lang}/releases/{release.version}/"
            )
            soup = soup_of(built_site, page.url)
            assert soup.html["lang"] == lang
            assert soup.find("h1").get_text(strip=True).startswith(page.title.split("：")[0].split(":")[0])


def test_release_page_shows_front_matter_facts(built_site, catalog):
    for release in catalog.releases:
        for page in release.pages.values():
            soup = soup_of(built_site, page.url)
            article = soup.select_one("article")
            assert article.select_one(".release-date time")["datetime"] == page.date_iso
            assert article.select_one(".release-source a")["href"] == page.source
            assert article.select_one(".release-source-link a")["href"] == page.source
            # The features, grouped by area in the order the page lists them: name, then this release's label.
            areas = list(dict.fromkeys(f.area for f in page.features))
            features = sorted(page.features, key=lambda f: areas.index(f.area))
            rows = article.select(".feature-areas table.feature-table tbody tr")
            assert [r.select_one("th a")["href"] for r in rows] == [f"#{f.id}" for f in features]
            assert [r.select_one(".feature-label .maturity")["data-maturity"] for r in rows] == [
                f.maturity for f in features
            ]
            for feature in page.features:
                assert article.find(id=feature.id) is not None, f"{page.path}: no element with id {feature.id}"


def test_maturity_labels_are_shown_as_written(built_site, catalog):
    # The newest release with features (the newest of all may be provisional, with none).
    page = next(r for r in catalog.releases if r.features).pages["en"]
    soup = soup_of(built_site, page.url)
    areas = list(dict.fromkeys(f.area for f in page.features))
    features = sorted(page.features, key=lambda f: areas.index(f.area))
    badges = soup.select(".feature-areas table.feature-table tbody tr .feature-label .maturity")
    assert [b.get_text(strip=True) for b in badges] == [MATURITY_LABELS[f.maturity]["en"] for f in features]


# --- timeline -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_timeline_lists_every_release_newest_first_with_dates(built_site, catalog, lang):
    soup = soup_of(built_site, home_url(lang))
    assert soup.html["lang"] == lang
    entries = soup.select(".timeline .timeline-entry")
    expected = catalog.pages(lang)
    assert [e["data-version"] for e in entries] == [p.version for p in expected]
    dates = [e.select_one(".timeline-date time")["datetime"] for e in entries]
    assert dates == [p.date_iso for p in expected]
    assert dates == sorted(dates, reverse=True), "newest first"
    for entry, page in zip(entries, expected, strict=True):
        link = entry.select_one("h2 a")
        assert resolve(home_url(lang), link["href"]) == page.url
        assert entry.select_one(".timeline-summary").get_text(strip=True) == page.summary
        counts = {b["data-maturity"]: int(b.get_text().split()[0]) for b in entry.select(".timeline-counts .maturity")}
        for label in (
            "Stable",
            "Beta",
            "Prototype",
        ):  # a pill only where there is something to count (tests/test_home.py)
            assert counts.get(label, 0) == sum(1 for f in page.features if f.maturity == label)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_navigation_lists_releases_newest_first(built_site, catalog, lang):
    page = catalog.releases[-1].pages[lang]
    soup = soup_of(built_site, page.url)
    links = [
        resolve(page.url, a["href"])
        for a in soup.select("nav.md-nav--primary a.md-nav__link[href]")
        if "/releases/" in "/" + resolve(page.url, a["href"])
    ]
    release_links = list(dict.fromkeys(links))
    assert release_links == [p.url for p in catalog.pages(lang)]


# --- language switching, lang, hreflang ----------------------------------------------------------------


def switcher_targets(soup: BeautifulSoup) -> dict[str, str]:
    return {str(a["hreflang"]): str(a["href"]) for a in soup.select("a.md-select__link[hreflang]")}


def test_switcher_keeps_the_page(built_site, catalog):
    for release in catalog.releases:
        for lang, page in release.pages.items():
            targets = switcher_targets(soup_of(built_site, page.url))
            other = release.pages[OTHER[lang]]
            assert resolve(page.url, targets[OTHER[lang]]) == other.url
            assert resolve(page.url, targets[lang]) == page.url
    for lang in LANGUAGES:
        targets = switcher_targets(soup_of(built_site, home_url(lang)))
        assert resolve(home_url(lang), targets[OTHER[lang]]) == home_url(OTHER[lang])


def test_sitemap_hreflang_is_absolute_with_x_default(built_site, catalog):
    text = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    urls = re.findall(r"<url>(.*?)</url>", text, flags=re.S)
    by_loc = {re.search(r"<loc>(.*?)</loc>", u).group(1): u for u in urls}
    for release in catalog.releases:
        for page in release.pages.values():
            entry = by_loc[SITE_URL + page.url]
            links = dict(re.findall(r'hreflang="([^"]+)" href="([^"]+)"', entry))
            assert links == {
                "zh": SITE_URL + release.pages["zh"].url,
                "en": SITE_URL + release.pages["en"].url,
                "x-default": SITE_URL + release.pages["zh"].url,
            }
    assert "<lastmod>" not in text, "build dates in the sitemap make builds irreproducible"


@pytest.mark.browser
def test_hreflang_links_cost_no_request(playwright_instance, served_site, catalog):
    """Unpatched, Material fetches <alternate>/../sitemap.xml for each hreflang link: 404s and console errors."""
    from browser import browser_page

    with browser_page(playwright_instance) as (page, log):
        requested = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(served_site + catalog.releases[0].pages["en"].url, wait_until="networkidle")
        assert page.locator('head link[rel="alternate"][hreflang]').count() == 3
        assert not [url for url in requested if "sitemap" in url]
        log.assert_clean()


def test_404_speaks_both_languages(built_site, catalog):
    soup = parsed_page(built_site / "404.html")
    article = soup.select_one("article")
    assert "页面不存在" in article.select_one('[lang="zh"]').get_text()
    assert "page not found" in article.select_one('[lang="en"]').get_text().lower()
    # Root-relative: a 404 is served on any host and port (tests/test_not_found_page.py). For a missing release
    # page, the newest release and the timeline in each language (shown by its script for such a URL).
    newest = catalog.releases[0].version
    hrefs = [a["href"] for a in article.select("a")]
    assert hrefs == ["/", "/en/", f"/releases/{newest}/", "/", f"/en/releases/{newest}/", "/en/"]


# --- nothing from the network --------------------------------------------------------------------------

FOREIGN = re.compile(r"^(https?:)?//", re.I)


def is_site_url(url: str) -> bool:
    return url.startswith(SITE_URL)


def test_no_asset_points_outside_the_site(built_site):
    html_files = sorted(built_site.rglob("*.html"))
    assert len(html_files) >= 12
    for path in html_files:
        soup = parsed_page(path)
        for tag in soup.find_all("script", src=True):
            assert not FOREIGN.match(tag["src"]), f"{path}: script {tag['src']}"
        for tag in soup.find_all("link", href=True):
            href = tag["href"]
            assert not FOREIGN.match(href) or is_site_url(href), f"{path}: link {href}"
        for tag in soup.find_all("style"):
            assert "@import" not in tag.get_text(), f"{path}: inline @import"
        for tag in soup.find_all(["img", "iframe", "source", "video", "audio"], src=True):
            assert not FOREIGN.match(tag["src"]), f"{path}: {tag.name} {tag['src']}"
    for css in built_site.rglob("*.css"):
        for target in re.findall(r"@import\s+(?:url\()?['\"]?([^'\")\s;]+)", css.read_text(encoding="utf-8")):
            assert not FOREIGN.match(target), f"{css}: @import {target}"
        for target in re.findall(r"url\(\s*['\"]?((?:https?:)?//[^'\")]+)", css.read_text(encoding="utf-8")):
            pytest.fail(f"{css}: url({target})")


def test_no_google_fonts_or_cdn_in_pages(built_site):
    for path in built_site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for host in ("fonts.googleapis.com", "fonts.gstatic.com", "unpkg.com", "cdn.jsdelivr.net", "cdnjs"):
            assert host not in text, f"{path} mentions {host}"


def test_mkdocs_config_avoids_instant_navigation():
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    assert "navigation.instant" not in config["theme"]["features"]
    assert config["theme"]["font"] is False


# --- breaking changes: the section, and its before/after badges -------------------------------------------


def test_change_sections_and_code_badges_match_the_checker(built_site, catalog):
    """Every change is on its release page (both languages) with its category, source and code; the badge
    under each before/after block says exactly what the snippet checker recorded for it."""
    from scripts.snippets.badges import badge_for
    from scripts.snippets.extract import change_snippet_id
    from scripts.snippets.status import load_status

    entries = load_status(ROOT / "docs" / ".snippet-status.json")["snippets"]
    checked = 0
    for release in catalog.releases:
        for lang, page in release.pages.items():
            article = soup_of(built_site, page.url).select_one("article")
            for change in page.changes:
                block = article.select_one(f"#change-{change.id}")
                assert block is not None and block["data-category"] == change.category, f"{page.path}: {change.id}"
                assert block.select_one(".change-meta a")["href"] == change.source
                badges = block.select(".snippet-badge")
                roles = [role for role in ("before", "after") if getattr(change, role)]
                assert len(block.select("pre")) == len(roles)
                for role, badge in zip(roles, badges, strict=True):
                    entry = entries[change_snippet_id(f"{RELEASES}/{release.version}.md", change.id, role)]
                    css, text = badge_for(entry, lang)
                    assert badge.get_text(strip=True) == text and css in badge["class"], (
                        f"{page.path}: {change.id} {role}"
                    )
                    checked += 1
    assert checked > 100


# --- one language per page: header, menu, search box and footer ----------------------------------------

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
# Latin words a Chinese page's chrome may hold: names, and the format of the offline copy.
ZH_CHROME_NAMES = {"PyTorch", "HTML", "API", "JIT", "TorchScript", "CUDA", "English"}
CHROME_TEXT_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")


def chrome_texts(soup: BeautifulSoup) -> list[str]:
    """The words of a page's chrome (header, navigation sidebar, footer), text and attributes, without the
    language menu's entries (each language's name in that language, on purpose) and without what repeats the
    page's own content (its title in the header, its table of contents in the sidebar)."""
    texts = []
    for region in soup.select("header.md-header, .md-sidebar--primary, footer.md-footer"):
        left_out = region.select('a.md-select__link, [data-md-component="header-topic"], .md-nav--secondary')
        texts += [
            t.strip()
            for t in region.find_all(string=True)
            if t.strip()
            and t.parent is not None
            and t.parent.name not in ("script", "style")
            and not within(t, left_out)
        ]
        for element in region.find_all(True):
            if not within(element, left_out):
                texts += [str(element[a]) for a in CHROME_TEXT_ATTRIBUTES if element.get(a)]
    return texts


def chrome_language_problems(texts: list[str], lang: str) -> list[str]:
    if lang == "en":
        return [t for t in texts if CJK.search(t)]
    return [t for t in texts if set(LATIN_WORD.findall(t)) - ZH_CHROME_NAMES and not re.search(r"PyTorch \d", t)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_chrome_speaks_its_language_only(built_site, catalog, lang):
    pages = [
        home_url(lang),
        f"{home_url(lang)}lifecycle/",
        f"{home_url(lang)}compare/",
        f"{home_url(lang)}topics/distributed/",
    ]
    pages += [r.pages[lang].url for r in catalog.releases]
    for url in pages:
        soup = soup_of(built_site, url)
        assert soup.html["lang"] == lang, url
        assert soup.select_one("input.md-search__input")["placeholder"] == {"zh": "搜索", "en": "Search"}[lang], url
        problems = chrome_language_problems(chrome_texts(soup), lang)
        assert problems == [], f"{url}: {problems[:5]}"


# --- scripts: the views' only where used, all deferred ----------------------------------------------------


def test_view_scripts_load_only_where_used_and_deferred(built_site, catalog):
    """Release pages and the home page run none of the views' code (Lighthouse counts it as main-thread work
    at load); every page gets the small every-page.js (language switch), deferred."""
    with_views = {"lifecycle/", "compare/", "compatibility/", "en/lifecycle/", "en/compare/", "en/compatibility/"}
    without = {"", "en/", "topics/distributed/", "en/support/"} | {
        r.pages[lang].url for r in catalog.releases for lang in LANGUAGES
    }
    for url in sorted(with_views | without):
        tags = soup_of(built_site, url).select("script[src]")
        scripts = {Path(s["src"]).name: s for s in tags}
        assert ("views.js" in scripts) == (url in with_views), url
        for name in ("views.js", "every-page.js"):
            if name in scripts:
                assert scripts[name].has_attr("defer"), f"{url}: {name} not deferred"
        assert "every-page.js" in scripts, url
        # Nothing but the stylesheets holds up the first paint: the search layer and Material's bundle are
        # deferred (the layer first: it must see the bundle create the worker), and the iframe-worker shim,
        # which only the offline copy needs, is not loaded at all.
        order = [Path(s["src"]).name for s in tags]
        bundle = next(name for name in order if name.startswith("bundle."))
        assert scripts["box.js"].has_attr("defer") and scripts[bundle].has_attr("defer"), url
        assert order.index("box.js") < order.index(bundle), url
        assert "iframe-worker-shim.js" not in scripts, url
