"""Gate: every page's head in its own language: a unique title and description, canonical URL, absolute
hreflang with x-default, Open Graph; the offline copy points nowhere it cannot reach."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from parsed_pages import parsed_page
from test_site import SITE_URL

HAN = re.compile(r"[\u4e00-\u9fff]")


def head_of(path: Path) -> BeautifulSoup:
    return parsed_page(path)


def meta(soup, **attrs) -> str | None:
    tag = soup.find("meta", attrs=attrs)
    return tag["content"] if tag else None


def public_pages(site: Path) -> dict[str, BeautifulSoup]:
    return {p.relative_to(site).as_posix(): head_of(p) for p in sorted(site.rglob("index.html"))}


def url_of(rel: str) -> str:
    return SITE_URL + rel.removesuffix("index.html")


@pytest.fixture(scope="module")
def pages(built_site):
    return public_pages(built_site)


def test_every_page_has_a_unique_title_and_description_in_its_language(pages):
    assert len(pages) > 80
    titles = Counter(s.title.string.strip() for s in pages.values())
    descriptions = Counter(meta(s, name="description") for s in pages.values())
    for rel, soup in pages.items():
        lang = "en" if rel.startswith("en/") else "zh"
        title, description = soup.title.string.strip(), meta(soup, name="description")
        assert soup.html["lang"] == lang, rel
        assert titles[title] == 1, f"{rel}: title {title!r} is used by {titles[title]} pages"
        assert description and descriptions[description] == 1, f"{rel}: description not unique: {description!r}"
        # In its language: Chinese pages say it in Chinese, English pages hold no Chinese.
        for text in (title, description):
            assert bool(HAN.search(text)) == (lang == "zh"), f"{rel}: {text!r} is not in {lang}"


def test_canonical_hreflang_and_open_graph(pages):
    for rel, soup in pages.items():
        lang = "en" if rel.startswith("en/") else "zh"
        canonical = soup.find("link", rel="canonical")["href"]
        assert canonical == url_of(rel), rel
        hreflang = {link["hreflang"]: link["href"] for link in soup.find_all("link", rel="alternate", hreflang=True)}
        zh_rel = rel.removeprefix("en/")
        assert hreflang == {"zh": url_of(zh_rel), "en": url_of("en/" + zh_rel), "x-default": url_of(zh_rel)}, rel
        # Reciprocal: the other language's page names this one.
        other = pages["en/" + zh_rel if lang == "zh" else zh_rel]
        assert {link["href"] for link in other.find_all("link", rel="alternate", hreflang=True)} >= {canonical}, rel
        assert meta(soup, property="og:title") and meta(soup, property="og:title") in soup.title.string, rel
        assert meta(soup, property="og:description") == meta(soup, name="description"), rel
        assert meta(soup, property="og:url") == canonical, rel
        assert meta(soup, property="og:locale") == {"zh": "zh_CN", "en": "en_US"}[lang], rel
        feed = soup.find("link", type="application/rss+xml")["href"]
        assert (
            posixpath.normpath(posixpath.join(posixpath.dirname(rel), feed))
            == {"zh": "feed.xml", "en": "en/feed.xml"}[lang]
        ), rel


def test_release_pages_are_articles_and_404_is_not_indexed(built_site, pages):
    assert meta(pages["releases/1.6/index.html"], property="og:type") == "article"
    assert meta(pages["index.html"], property="og:type") == "website"
    not_found = head_of(built_site / "404.html")
    assert meta(not_found, name="robots") == "noindex"
    assert not_found.find("link", rel="canonical") is None


def test_offline_copy_has_no_urls_of_the_hosted_site_in_its_head(offline_copy):
    for path in [offline_copy / "index.html", offline_copy / "en" / "releases" / "1.6.html"]:
        soup = head_of(path)
        assert soup.find("link", rel="canonical") is None and soup.find("link", hreflang=True) is None, path
        assert meta(soup, property="og:url") is None and meta(soup, property="og:title"), path


def test_material_does_not_look_up_a_sitemap_per_alternate_link(built_site):
    """overrides/hooks/head_alternates.py: the hreflang links would otherwise cost two 404 fetches per page view."""
    bundle = next((built_site / "assets" / "javascripts").glob("bundle.*.min.js")).read_text(encoding="utf-8")
    assert '"link[rel=alternate]"' not in bundle and bundle.count('"link[rel=alternate][data-md-sitemap]"') == 1
