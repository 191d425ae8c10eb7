"""The home page (docs/index.md, index.en.md; scripts/views/timeline.py `timeline`): label counts only where there is
something to count, the cross-release views as a tidy grid of plain cards, a search hint, and the site's
navigation on a desktop screen."""

from __future__ import annotations

import pytest
from test_site import home_url, soup_of

from scripts.catalog.model import LANGUAGES

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_label_counts_only_where_non_zero(built_site, catalog, lang):
    soup = soup_of(built_site, home_url(lang))
    entries = {e["data-version"]: e for e in soup.select(".timeline .timeline-entry")}
    pills = 0
    for page in catalog.pages(lang):
        shown = {b["data-maturity"]: b.get_text() for b in entries[page.version].select(".timeline-counts .maturity")}
        expected = page.maturity_counts()
        assert set(shown) == set(expected), page.version
        for label, text in shown.items():
            count = int(text.split()[0])
            assert count == expected[label] > 0, f"{page.version}: {text}"
        pills += len(shown)
    assert pills > 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_hint_in_the_page_language(built_site, lang):
    hint = soup_of(built_site, home_url(lang)).select_one(".md-content .search-hint")
    assert hint is not None and hint.select_one("kbd").get_text() == "/"
    text = hint.get_text()
    assert (
        ("搜索" in text) if lang == "zh" else ("search" in text and not any("\u4e00" <= ch <= "\u9fff" for ch in text))
    )


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_view_cards_are_a_tidy_grid_with_plain_descriptions(playwright_instance, served_site, lang, viewport):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(served_site + home_url(lang))
        boxes = page.eval_on_selector_all(
            ".views-grid a",
            "cards => cards.map(c => { const r = c.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.width)]; })",
        )
        rows: dict[int, int] = {}
        for top, _ in boxes:
            rows[top] = rows.get(top, 0) + 1
        per_row = list(rows.values())
        assert len(boxes) == 4 and len(set(per_row)) == 1, f"cards per row {per_row}: an orphan"
        assert len({width for _, width in boxes}) == 1, "cards of one size"
        if viewport is DESKTOP:
            assert per_row[0] > 1, "side by side on a desktop"
        decorations = page.eval_on_selector_all(
            ".views-grid a span",
            "spans => spans.map(s => [getComputedStyle(s).textDecorationLine, getComputedStyle(s.closest('a')).textDecorationLine])",
        )
        assert decorations and all(own == "none" and link == "none" for own, link in decorations), decorations
        log.assert_clean()


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_desktop_home_shows_the_navigation_with_the_topics(playwright_instance, served_site, catalog, lang):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(served_site + home_url(lang))
        sidebar = page.locator(".md-sidebar--primary nav.md-nav--primary")
        assert sidebar.is_visible()
        topic = sidebar.locator('a.md-nav__link[href*="topics/"]').first
        assert topic.is_visible() and topic.bounding_box()["y"] + topic.bounding_box()["height"] <= DESKTOP["height"], (
            "a topic in view"
        )
        release = sidebar.locator(f'a.md-nav__link[href*="releases/{catalog.releases[0].version}/"]')
        assert release.count() == 1
        with page.expect_navigation():
            topic.click()
        assert "/topics/" in page.url
        log.assert_clean()
