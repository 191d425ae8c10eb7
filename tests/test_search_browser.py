"""The query set typed into the real search box, on the served site and on the unpacked offline copy
(file://), every foreign request blocked: ≥ 95 % of queries have their page in the top 3, per language
and per mode, with 0 foreign requests and 0 console errors."""

from __future__ import annotations

import statistics

import pytest

from browser import browser_page
from search_queries import QUERIES
from search_ui import hit_at_3, run_query

pytestmark = pytest.mark.browser

HOME = {"zh": "", "en": "en/"}


def run_query_set(playwright_instance, base: str, home_for) -> dict:
    results = {}
    with browser_page(playwright_instance) as (page, log):
        for lang in ("zh", "en"):
            page.goto(home_for(lang))
            hits, times, misses = 0, [], []
            for query_lang, query, expected in QUERIES:
                if query_lang != lang:
                    continue
                links, elapsed = run_query(page, query)
                if hit_at_3(links, base, expected):
                    hits += 1
                else:
                    misses.append((query, links[:3]))
                times.append(elapsed)
            total = sum(1 for q in QUERIES if q[0] == lang)
            results[lang] = {"hit_rate": hits / total, "misses": misses, "median_ms": statistics.median(times)}
        log.assert_clean()
    return results


def assert_quality(results):
    for lang, r in results.items():
        assert r["hit_rate"] >= 0.95, f"{lang}: hit@3 {r['hit_rate']:.0%}; misses: {r['misses']}"


def test_query_set_counts_both_languages():
    zh = [q for q in QUERIES if q[0] == "zh"]
    en = [q for q in QUERIES if q[0] == "en"]
    assert len(QUERIES) >= 40 and len(zh) == len(en)


def test_search_on_the_served_site(playwright_instance, served_site):
    results = run_query_set(playwright_instance, served_site, lambda lang: served_site + HOME[lang])
    assert_quality(results)


def test_search_in_the_offline_copy(playwright_instance, offline_copy):
    base = offline_copy.as_uri() + "/"
    results = run_query_set(playwright_instance, base, lambda lang: base + HOME[lang] + "index.html")
    assert_quality(results)


def test_results_of_the_other_language_come_last_and_marked(playwright_instance, served_site):
    with browser_page(playwright_instance) as (page, log):
        page.goto(served_site + "en/")
        # Chinese words find Chinese pages only; on the English site they are listed, marked, after any English hit.
        links, _ = run_query(page, "混合精度")
        assert links and all("/en/" not in link for link in links)
        assert page.locator(".md-search-result__item .search-other-language").first.inner_text() == "中文"
        links, _ = run_query(page, "torch.jit.fork")
        languages = ["en" if "/en/" in link else "zh" for link in links]
        assert languages == sorted(languages, key=lambda l: l != "en"), languages
        log.assert_clean()


def test_page_views_do_not_load_the_search_documents_until_a_search(playwright_instance, served_site, built_site):
    """overrides/hooks/lazy_search_index.py: Material's per-page index is config only; the worker fetches the
    documents on the first query, once."""
    assert (built_site / "search" / "search_index.json").stat().st_size < 2_000
    with browser_page(playwright_instance) as (page, log):
        requested = []
        # On the context: the worker's own requests are not the page's.
        page.context.on("request", lambda request: requested.append(request.url.split("/")[-1]))
        page.goto(served_site + "releases/1.6/", wait_until="networkidle")
        page.goto(served_site + "en/", wait_until="networkidle")
        assert "search_index.json" in requested and "search_docs.json" not in requested
        links, _ = run_query(page, "amp")
        assert links and requested.count("search_docs.json") == 1
        run_query(page, "compile")
        assert requested.count("search_docs.json") == 1
        log.assert_clean()
