"""Gate: axe-core (npm axe-core, pinned in package-lock.json) finds no serious or critical accessibility
violation on any page type, in both languages and both colour schemes, search open with results included."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import browser_page
from search_ui import run_query

AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
SCHEMES = {"light": "default", "dark": "slate"}
PAGE_TYPES = {
    "home": "",
    "release": "releases/1.6/",
    "release-with-changes": "releases/2.6/",  # breaking changes, before/after badges, install box, status today
    "lifecycle": "lifecycle/",
    "topic": "topics/distributed/",
    "compare": "compare/?from=1.13&to=2.6",
    "compatibility": "compatibility/",
    "support": "support/",
    "machine": "machine/?os=linux-x86_64&python=3.10&gpu=6.1&driver=535",  # an answer drawn, as a link opens it
}
SEARCH = {"zh": "分布式训练", "en": "training"}
LANG_PREFIX = {"zh": "", "en": "en/"}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", params=sorted(SCHEMES))
def scheme_page(request, playwright_instance):
    """One browser per colour scheme; the scheme comes from the reader's system setting, as Material reads it."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    with browser_page(playwright_instance, color_scheme=request.param) as (page, log):
        yield request.param, page, log


def blocking_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"{v['impact']} {v['id']}: {v['help']} at {[' '.join(n['target']) + ' (' + n['failureSummary'][:160] + ')' for n in v['nodes'][:3]]}"
        for v in violations
        if v["impact"] in BLOCKING
    ]


def open_in_scheme(page, url: str, scheme: str) -> None:
    page.goto(url)
    assert page.evaluate("document.body.dataset.mdColorScheme") == SCHEMES[scheme]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page_type", sorted(PAGE_TYPES))
def test_page_type_has_no_serious_violation(scheme_page, served_site, lang, page_type):
    scheme, page, log = scheme_page
    open_in_scheme(page, served_site + LANG_PREFIX[lang] + PAGE_TYPES[page_type], scheme)
    assert blocking_violations(page) == []
    log.assert_clean()


def test_404_page_has_no_serious_violation(scheme_page, served_site):
    scheme, page, log = scheme_page
    open_in_scheme(page, served_site + "404.html", scheme)
    assert blocking_violations(page) == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_open_search_with_results_has_no_serious_violation(scheme_page, served_site, lang):
    scheme, page, log = scheme_page
    open_in_scheme(page, served_site + LANG_PREFIX[lang], scheme)
    links, _ = run_query(page, SEARCH[lang])
    assert links, "the search gave no results to check"
    assert page.locator(".md-search-result__item").first.is_visible()
    assert blocking_violations(page) == []


PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page_type", ["compatibility", "release-with-changes", "lifecycle", "support", "machine"])
def test_phone_layout_has_no_serious_violation(playwright_instance, served_site, lang, page_type):
    """The phone layouts differ (the matrix's rows become cards, a row's release link sits beside its tags):
    checked at a phone's width too, in the light scheme."""
    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(served_site + LANG_PREFIX[lang] + PAGE_TYPES[page_type])
        assert blocking_violations(page) == []
        log.assert_clean()


# The views as a reader leaves them: a matrix row's sources open, the upgrade list filtered with its features open.
OPENED = {
    "compatibility-sources": ("compatibility/", "#compat-2-14 .row-sources-toggle"),
    "compare-filtered": ("compare/?from=1.13&to=2.14&area=Export", '[data-group="features"] summary'),
    "release-1-1": ("releases/1.1/#pytorch-hub", None),
}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("state", sorted(OPENED))
def test_opened_views_have_no_serious_violation(scheme_page, served_site, lang, state):
    scheme, page, log = scheme_page
    path, click = OPENED[state]
    open_in_scheme(page, served_site + LANG_PREFIX[lang] + path, scheme)
    if click and page.locator(click).count():
        page.locator(click).first.click()
    assert blocking_violations(page) == []
    log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_machine_pages_environment_check_has_no_serious_violation(scheme_page, served_site, lang):
    """The environment check as a reader leaves it: a real paste read, a problem with the command that fixes it."""
    scheme, page, log = scheme_page
    paste = (Path(__file__).parent / "fixtures/environment/collect_env-2.2-linux-rtx3060ti.txt").read_text()
    open_in_scheme(page, served_site + LANG_PREFIX[lang] + "machine/", scheme)
    page.eval_on_selector(
        "#machine-env-text", "(box, text) => { box.value = text; }", paste.replace("550.67", "470.82")
    )
    page.click("#machine-env button")
    page.wait_for_selector("#machine-env-result .machine-code")
    assert blocking_violations(page) == []
    log.assert_clean()
