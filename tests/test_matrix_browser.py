"""The compatibility matrix in Chromium, phone and desktop, both languages: a row's sources open full width under
the row without reflowing it, column heads never run into each other, and Material's "Back to top" never covers
the sticky header row."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
LANG_PREFIX = {"zh": "", "en": "en/"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _box(page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_rows_sources_open_full_width_under_it_without_reflowing_it(playwright_instance, served_site, lang, viewport):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compatibility/")
        toggle = page.locator("#compat-2-14 .row-sources-toggle")
        sources = page.locator("#compat-2-14-sources")
        assert toggle.get_attribute("aria-expanded") == "false" and not sources.is_visible()
        before = _box(page, "#compat-2-14")
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "true" and sources.is_visible()
        after, opened, table = (
            _box(page, "#compat-2-14"),
            _box(page, "#compat-2-14-sources"),
            _box(page, "#compat-table"),
        )
        assert after["height"] == pytest.approx(before["height"], abs=1), "the row keeps its height"
        assert opened["y"] == pytest.approx(after["y"] + after["height"], abs=2), "the sources sit right under it"
        assert opened["width"] >= 0.95 * table["width"], (opened, table)
        # Every claim of the row is there in words, the notes included.
        assert sources.locator("ul.claims li").count() >= 8
        assert sources.locator("details.claim-note").count() >= 5
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "false" and not sources.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        log.assert_clean()


def test_filtering_hides_an_open_rows_sources_with_it(playwright_instance, served_site):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}en/compatibility/")
        page.click("#compat-2-14 .row-sources-toggle")
        page.select_option("#compat-release", "2.13")
        assert not page.locator("#compat-2-14-sources").is_visible()
        page.select_option("#compat-release", "2.14")
        assert page.locator("#compat-2-14-sources").is_visible(), "still open when its row comes back"
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_column_heads_never_run_into_each_other(playwright_instance, served_site, lang):
    from browser import browser_page

    collisions = []
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        for width in range(720, 1321, 60):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{served_site}{LANG_PREFIX[lang]}compatibility/")
            page.click("#compat-2-14 .row-sources-toggle")  # an open row must not squeeze the columns either
            found = page.eval_on_selector_all(
                "#compat-table thead th",
                """ths => ths.flatMap((th, i) => {
                    const range = document.createRange(); range.selectNodeContents(th);
                    const text = range.getBoundingClientRect(), cell = th.getBoundingClientRect();
                    const out = [];
                    if (text.left < cell.left - 0.5 || text.right > cell.right + 0.5) out.push(th.textContent + ' leaves its cell');
                    if (i && cell.left < ths[i - 1].getBoundingClientRect().right - 0.5) out.push(th.textContent + ' overlaps');
                    return out;
                })""",
            )
            collisions += [f"{width}px: {f}" for f in found]
        log.assert_clean()
    assert collisions == []


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("viewport", [DESKTOP, {"width": 800, "height": 900}], ids=["desktop", "tablet"])
def test_back_to_top_never_covers_the_sticky_header_row(playwright_instance, served_site, lang, viewport):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compatibility/")
        page.locator("#compat-2-0").scroll_into_view_if_needed()
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        page.mouse.wheel(0, -300)  # scrolling back up is what shows Material's button
        page.wait_for_function("!document.querySelector('.md-top').hidden")
        button, header = _box(page, ".md-top"), _box(page, "#compat-table thead th:first-child")
        assert 0 <= header["y"] < 120, "the header row is stuck under the site header"
        apart = button["y"] >= header["y"] + header["height"] or header["y"] >= button["y"] + button["height"]
        assert apart, (button, header)
        log.assert_clean()
