"""The offline zip: built by the main build command, holds both languages, opens and switches language
from file:// with every network request blocked."""

from __future__ import annotations

import json
import re

import pytest
from browser import browser_page, wait_until
from search_ui import run_query

from scripts.tools.offline import ZIP_PATH, search_entries

INDEX_SCRIPT = re.compile(r"index\.(zh|en)\.js$")


def test_makefile_build_makes_the_zip():
    makefile = open("Makefile", encoding="utf-8").read()
    build_recipe = makefile.split("\nbuild:")[1].split("\n\n")[0]
    assert "mkdocs build --strict" in build_recipe and "scripts.tools.offline" in build_recipe


def test_zip_is_linked_from_every_page(built_site, offline_copy):
    assert (built_site / ZIP_PATH).is_file()
    for page in list(built_site.glob("**/index.html"))[:50]:
        assert 'class="offline-download"' in page.read_text(encoding="utf-8"), page
    # The offline copy does not link to itself.
    assert 'class="offline-download"' not in (offline_copy / "index.html").read_text(encoding="utf-8")


def test_offline_search_index_holds_both_languages(built_site, offline_copy):
    """One index script per language (file:// cannot fetch JSON), holding what the hosted site's JSON holds."""
    entries = search_entries(offline_copy)
    for lang in ("zh", "en"):
        hosted = json.loads((built_site / "search" / f"index.{lang}.json").read_text(encoding="utf-8"))
        assert len(entries[lang]) == len(hosted["docs"]) > 300
        assert all(loc.startswith("en/") == (lang == "en") for loc in entries[lang])
    assert any(loc.startswith("releases/") and loc.endswith(".html") for loc in entries["zh"])
    # Material's own index script, which every page view loads, holds no documents.
    assert (offline_copy / "search" / "search_index.js").stat().st_size < 2_000


@pytest.mark.browser
def test_offline_page_views_load_the_index_only_when_the_reader_searches(playwright_instance, offline_copy):
    with browser_page(playwright_instance) as (page, log):
        loaded = []
        page.context.on("request", lambda request: loaded.append(request.url.rsplit("/", 1)[-1]))
        page.goto((offline_copy / "releases" / "1.6.html").as_uri(), wait_until="load")
        page.goto((offline_copy / "index.html").as_uri(), wait_until="load")
        wait_until(page, lambda: "search_index.js" in loaded, "the offline search shim")
        page.wait_for_load_state("networkidle")  # anything a page view loads has been asked for by now
        assert "search_index.js" in loaded and not [name for name in loaded if INDEX_SCRIPT.match(name)]
        links, _ = run_query(page, "混合精度")
        assert links and "index.zh.js" in loaded
        log.assert_clean()


@pytest.mark.browser
def test_offline_copy_opens_and_switches_language_from_disk(playwright_instance, offline_copy, catalog):
    release = catalog.by_version()["1.6"]
    with browser_page(playwright_instance) as (page, log):
        page.goto((offline_copy / "index.html").as_uri())
        assert page.evaluate("document.documentElement.lang") == "zh"
        assert page.locator(".timeline-entry").count() == len(catalog.releases)
        page.locator('.timeline-entry[data-version="1.6"] h2 a').first.click()
        page.wait_for_load_state("load")
        assert page.url == (offline_copy / "releases" / "1.6.html").as_uri()
        page.hover(".md-header .md-select")
        with page.expect_navigation():
            page.locator('.md-header a.md-select__link[hreflang="en"]').click()
        assert page.url == (offline_copy / "en" / "releases" / "1.6.html").as_uri()
        assert page.locator("article h1").first.inner_text().startswith(release.pages["en"].title[:10])
        log.assert_clean()
