"""A reader in Chromium switches language on the home page and on a release page: same page, other
language, nothing fetched from the network, no console errors."""

from __future__ import annotations

import pytest
from browser import browser_page

pytestmark = pytest.mark.browser

SWITCH_LABEL = {"zh": "English", "en": "中文"}
OTHER = {"zh": "en", "en": "zh"}


def switch_language(page, to_lang: str) -> None:
    """Open the language menu the way a reader does (hover the globe button), then click the language."""
    page.hover(".md-header .md-select")
    link = page.locator(f'.md-header a.md-select__link[hreflang="{to_lang}"]')
    link.wait_for(state="visible")
    with page.expect_navigation():
        link.click()


@pytest.mark.parametrize("start_lang", ["zh", "en"])
def test_language_switch_keeps_the_page(playwright_instance, served_site, catalog, start_lang):
    release = next(r for r in catalog.releases if r.version == "1.6")
    home = "" if start_lang == "zh" else "en/"
    with browser_page(playwright_instance) as (page, log):
        for start_url, expected in [
            (home, "" if start_lang == "en" else "en/"),
            (release.pages[start_lang].url, release.pages[OTHER[start_lang]].url),
        ]:
            page.goto(served_site + start_url, wait_until="load")
            assert page.evaluate("document.documentElement.lang") == start_lang
            switch_language(page, OTHER[start_lang])
            page.wait_for_load_state("load")
            assert page.url == served_site + expected
            assert page.evaluate("document.documentElement.lang") == OTHER[start_lang]
            if "releases/" in expected:
                other_page = release.pages[OTHER[start_lang]]
                assert page.locator("article h1").first.inner_text().strip().startswith(other_page.title[:10])
            else:
                assert page.locator(".timeline-entry").count() == len(catalog.releases)
        log.assert_clean()
