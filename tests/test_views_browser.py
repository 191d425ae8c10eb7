"""The views in Chromium, as readers use them: phone and desktop, both languages.

Compatibility filters and the upgrade picker must return what the catalog says (their Python twins) and link
the full release notes of every release in range, every release page must show each feature's label on a
phone (the lifecycle has its own tests/test_lifecycle.py), the home page must link the cross-release views on every screen, and the
language switch must keep the view's state and the section being read.
"""

from __future__ import annotations

import re

import pytest
from conftest import ROOT
from reference_data import OFFICIAL, PROVISIONAL

from scripts.catalog.model import CHANGE_CATEGORIES, version_key
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.compute import verdicts_of
from scripts.views.matrix import _filter_values
from scripts.views.upgrade import upgrade_items

pytestmark = pytest.mark.browser
LANG_PREFIX = {"zh": "", "en": "en/"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _rows_matching(catalog, key: str, value: str) -> list[str]:
    # The same PyPI evidence the build gives the matrix (overrides/hooks/generated_views.py).
    path = ROOT / "docs" / EVIDENCE_FILE
    verdicts = verdicts_of(catalog, load_evidence(path) if path.is_file() else None)
    return [r.version for r in catalog.releases if value in _filter_values(r, verdicts[r.version])[key]]


@pytest.mark.parametrize(
    "lang, key, value",
    [("zh", "python", "3.12"), ("en", "cuda", "12.1"), ("en", "torchvision", "0.15.1"), ("zh", "python", "2.7")],
)
def test_compatibility_filter_returns_the_right_rows_and_keeps_them_on_reload(
    playwright_instance, served_site, catalog, lang, key, value
):
    from browser import browser_page

    expected = _rows_matching(catalog, key, value)
    assert expected, "the filter value must match some release"
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compatibility/")
        page.select_option(f"#compat-{key}", value)
        shown = page.eval_on_selector_all(
            "#compat-table tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.version)"
        )
        assert shown == expected
        assert page.url.endswith(f"?{key}={value}")
        page.reload()
        assert page.eval_on_selector(f"#compat-{key}", "s => s.value") == value
        assert (
            page.eval_on_selector_all(
                "#compat-table tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.version)"
            )
            == expected
        )
        log.assert_clean()


def test_compatibility_matrix_fits_a_phone_and_a_combined_filter_can_be_empty(playwright_instance, served_site):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(f"{served_site}en/compatibility/?python=2.7&cuda=13.0")
        assert page.eval_on_selector("#compat-none", "e => !e.hidden")
        page.goto(f"{served_site}compatibility/")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        cell = page.locator("#compat-table tbody tr").first.locator("td").first
        assert cell.bounding_box()["x"] + cell.bounding_box()["width"] <= PHONE["width"]
        log.assert_clean()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_compatibility_notes_stay_inside_their_cell(playwright_instance, served_site, viewport):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(served_site + "en/compatibility/")
        # Every row's sources open (the notes live there), as a reader opens them one by one.
        for toggle in page.locator("#compat-table .row-sources-toggle").all():
            toggle.click()
        outside = page.eval_on_selector_all(
            "#compat-table details.claim-note > summary",
            """summaries => summaries.filter(s => {
                const cell = s.closest('td').getBoundingClientRect(), own = s.getBoundingClientRect();
                const padding = parseFloat(getComputedStyle(s.closest('td')).paddingLeft);
                return own.left < cell.left + padding - 0.5;
            }).map(s => s.closest('tr').dataset.sourcesFor)""",
        )
        assert page.locator("#compat-table details.claim-note").count() > 20
        assert outside == [], f"notes pulled out of their cell in rows {outside[:5]}"
        log.assert_clean()


@pytest.mark.parametrize("path", ["en/compatibility/", "compatibility/", "en/compare/", "compare/"])
def test_on_a_phone_each_filter_label_stays_beside_its_select(playwright_instance, served_site, path):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(served_site + path)
        pairs = page.eval_on_selector_all(
            ".md-content form label[for]",
            """labels => labels.map(l => {
                const a = l.getBoundingClientRect(), b = document.getElementById(l.htmlFor).getBoundingClientRect();
                return [l.htmlFor, a.top < b.bottom && b.top < a.bottom, a.right <= b.left];
            })""",
        )
        assert len(pairs) >= 2 and all(same_line and before for _, same_line, before in pairs), pairs
        log.assert_clean()


@pytest.mark.parametrize("path", ["releases/2.6/", "en/releases/1.5/"])
def test_on_a_phone_every_install_command_is_whole_on_screen(playwright_instance, served_site, path):
    """Every command of the install picker, chosen as a reader would, wraps on screen and copies as one line."""
    from browser import browser_page

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(served_site + path)
        options = page.eval_on_selector_all(
            ".install-option", "els => els.map(e => [e.dataset.systems.split(' ')[0], e.dataset.pm, e.dataset.compute])"
        )
        assert len(options) >= 3
        for system, manager, compute in options:
            for group, value in (("os", system), ("pm", manager), ("compute", compute)):
                page.check(f"input[name={group}][value='{value}']")
            code = page.locator(".install-option:not([hidden]) pre > code")
            assert code.count() == 1, (system, manager, compute)
            fits = code.evaluate("c => c.scrollWidth <= c.clientWidth && c.getBoundingClientRect().right <= innerWidth")
            assert fits, f"{path} {manager} {compute}: {code.inner_text()}"
            assert "\n" not in code.inner_text().strip(), "the copied command stays one line"
        log.assert_clean()


@pytest.mark.parametrize("lang, pair", [("zh", ("1.13", "2.6")), ("en", ("2.0", "2.14")), ("en", ("2.9", "1.0"))])
def test_upgrade_picker_lists_what_the_catalog_says(playwright_instance, served_site, catalog, lang, pair):
    from browser import browser_page

    expected = upgrade_items(catalog, pair[0], pair[1], lang)
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from={pair[0]}&to={pair[1]}")
        page.wait_for_selector("#compare-result[data-count]")
        for group, items in expected.items():
            shown = page.eval_on_selector_all(
                f'#compare-result [data-group="{group}"] li', "rows => rows.map(r => [r.dataset.version, r.dataset.id])"
            )
            assert shown == [[i["version"], i["id"]] for i in items], group
        # Picking another pair updates the result and the shareable URL.
        page.select_option("#compare-from", "1.13" if pair[0] != "1.13" else "1.12")
        assert "?from=" in page.url and page.url.endswith(f"&to={pair[1]}")
        log.assert_clean()


@pytest.mark.parametrize("lang, pair", [("zh", ("1.13", "2.6")), ("en", ("2.9", "0.3")), ("en", ("2.4", "2.6"))])
def test_upgrade_view_says_it_is_a_selection_and_links_the_release_notes_of_the_range(
    playwright_instance, served_site, catalog, lang, pair
):
    """Each release page carries a selection of its changes; the complete lists are in its GitHub release
    notes, linked for every release in the range from 1.0 on."""
    from browser import browser_page

    lo, hi = sorted(pair, key=version_key)
    in_range = [
        r.version for r in reversed(catalog.releases) if version_key(lo) < version_key(r.version) <= version_key(hi)
    ]
    expected = [
        f"https://github.com/pytorch/pytorch/releases/tag/v{v}.0"
        for v in in_range
        if version_key(v) >= version_key("1.0")
    ]
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from={pair[0]}&to={pair[1]}")
        page.wait_for_selector("#compare-result[data-count]")
        links = page.eval_on_selector_all("#compare-result .compare-notes a", "links => links.map(a => a.href)")
        assert links == expected and links
        summary = page.inner_text("#compare-result .compare-summary")
        assert ("值得注意" in summary) if lang == "zh" else ("notable" in summary)
        intro = page.inner_text(".md-content article")
        assert ("累计发生的变化" not in intro) if lang == "zh" else ("everything that changed" not in intro)
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_upgrade_item_wears_a_badge_of_the_vocabulary(playwright_instance, served_site, lang):
    """A Python/CUDA version the next release stops shipping is a dropped platform like a filed one (it once
    showed "no longer ship CUDA 11.8" with no badge)."""
    from browser import browser_page

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from=0.1&to={list(OFFICIAL)[-1]}")
        page.wait_for_selector("#compare-result[data-count]")
        items = page.eval_on_selector_all(
            '#compare-result .upgrade-group:not([data-group="features"]) li',
            "lis => lis.map(li => [li.dataset.id, Array.from(li.querySelectorAll('.change-category')).map(b => [b.className, b.textContent])])",
        )
        assert len(items) > 20
        for item_id, badges in items:
            assert len(badges) == 1, item_id
            css, text = badges[0]
            category = css.split("category-")[-1]
            assert css == f"change-category category-{category}" and CHANGE_CATEGORIES[category][lang] == text, (
                item_id,
                css,
                text,
            )
        # Computed drops are named "<field>-<version>" (cuda-11.8); filed change ids have no dots.
        drops = [badges for item_id, badges in items if re.fullmatch(r"(python|cuda)-\d+\.\d+t?", item_id)]
        assert drops and all(b[0][0].endswith("category-dropped-platform") for b in drops)
        log.assert_clean()


def test_upgrade_view_says_a_version_is_unknown_and_keeps_the_url(playwright_instance, served_site):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        url = f"{served_site}compare/?from=9.9&to=2.0"
        page.goto(url)
        message = page.locator("#compare-message")
        assert message.is_visible() and "9.9" in message.inner_text()
        assert page.url == url and page.eval_on_selector("#compare-result", "e => e.children.length") == 0
        page.goto(f"{served_site}en/compare/?from=1.13&to=2.6")
        page.wait_for_selector("#compare-result[data-count]")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "readable on a phone"
        log.assert_clean()


def _switch_language(page, lang: str) -> None:
    with page.expect_navigation():
        page.eval_on_selector(f'a.md-select__link[hreflang="{lang}"]', "link => link.click()")


@pytest.mark.parametrize(
    "start, lang, expected_path",
    [
        ("en/compare/?from=1.13&to=2.6", "zh", "compare/?from=1.13&to=2.6"),
        ("lifecycle/?area=Compiler", "en", "en/lifecycle/?area=Compiler"),
        ("en/releases/2.0/#torch-compile", "zh", "releases/2.0/#torch-compile"),
        ("compatibility/?python=3.12", "en", "en/compatibility/?python=3.12"),
    ],
    ids=["upgrade-pair", "lifecycle-filter", "section", "compat-filter"],
)
def test_language_switch_keeps_view_state_and_section(playwright_instance, served_site, start, lang, expected_path):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(served_site + start)
        _switch_language(page, lang)
        assert page.url == served_site + expected_path
        if "lifecycle" in expected_path:
            assert page.eval_on_selector("#lifecycle-area", "s => s.value") == "Compiler"
            hidden = page.eval_on_selector_all(
                "#lifecycle-list [data-feature]", "rows => rows.filter(r => r.hidden).length"
            )
            assert hidden > 0
        log.assert_clean()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_home_links_every_cross_release_view(playwright_instance, served_site, lang, viewport):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}")
        links = page.locator(".views-grid a")
        targets = [links.nth(i).get_attribute("href") for i in range(links.count())]
        assert [t.rstrip("/").split("/")[-1] for t in targets] == ["compatibility", "compare", "support", "lifecycle"]
        for i in range(links.count()):
            assert links.nth(i).is_visible()
        latest = page.locator(".latest-release a").first
        assert latest.inner_text().endswith(list(PROVISIONAL or OFFICIAL)[-1]), "the newest release, provisional or not"
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_upgrade_list_drawn_after_load_does_not_push_the_footer_in_view(playwright_instance, served_site, lang):
    """The upgrade list is drawn by views.js after the page is shown. Held back here (its request is answered
    only when the test says so, however slow the machine), the page as first drawn must already keep the list's
    room: the footer starts below the first screen on a phone, so drawing the list moves nothing the reader sees
    (Lighthouse's layout shift)."""
    from browser import browser_page, wait_until

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        held = []
        page.route("**/views.js", lambda route: held.append(route))
        with page.expect_request("**/views.js"):
            page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/", wait_until="commit")
        page.wait_for_selector("footer.md-footer", state="attached")
        assert page.locator("#compare-result").evaluate("el => el.childElementCount") == 0  # not drawn yet
        footer_top = page.evaluate("document.querySelector('footer.md-footer').getBoundingClientRect().top")
        assert footer_top >= PHONE["height"], footer_top
        wait_until(page, lambda: held, "views.js to reach its route")
        for route in held:
            route.continue_()
        page.wait_for_function("document.querySelector('#compare-result').childElementCount > 0")
        log.assert_clean()


# --- the upgrade view: breaking first, an area filter and a search box -----------------------------------------

UPGRADE_ORDER = ["defaults", "errors", "breaking", "platforms", "deprecations", "features"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_upgrade_view_leads_with_what_breaks(playwright_instance, served_site, lang):
    """1.13 → 2.14: changed defaults, removals and other breaking changes come before the deprecations, and the
    features added or relabeled are folded at the end; torch.load's weights_only default change is on the first
    phone screen of the result."""
    from browser import browser_page

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from=1.13&to=2.14")
        page.wait_for_selector("#compare-result[data-count]")
        groups = page.eval_on_selector_all("#compare-result [data-group]", "s => s.map(e => e.dataset.group)")
        assert groups == UPGRADE_ORDER
        assert page.eval_on_selector('[data-group="features"] details', "d => !d.open"), "features are folded"
        page.eval_on_selector("#compare-result", "e => e.scrollIntoView()")
        item = page.locator('#compare-result li[data-id="weights-only-default"]').bounding_box()
        assert item is not None and 0 <= item["y"] and item["y"] + item["height"] <= PHONE["height"], item
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_area_filter_counts_each_area_and_keeps_its_choice_in_the_address(
    playwright_instance, served_site, catalog, lang
):
    from browser import browser_page

    expected = upgrade_items(catalog, "1.13", "2.14", lang)
    per_area: dict[str, int] = {}
    for items in expected.values():
        for item in items:
            per_area[item["area"]] = per_area.get(item["area"], 0) + 1
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from=1.13&to=2.14")
        page.wait_for_selector("#compare-result[data-count]")
        page.evaluate("window.__samePage = true")
        options = page.eval_on_selector_all("#compare-area option", "os => os.map(o => [o.value, o.textContent])")
        for value, text in options:
            count = sum(per_area.values()) if not value else per_area.get(value, 0)
            assert re.search(rf"[（(]{count}[)）]$", text), (value, text)
        page.select_option("#compare-area", "Export")
        shown = page.eval_on_selector_all(
            "#compare-result li.upgrade-item:not([hidden])", "lis => lis.map(li => [li.dataset.version, li.dataset.id])"
        )
        want = [[i["version"], i["id"]] for g in UPGRADE_ORDER for i in expected[g] if i["area"] == "Export"]
        assert shown == want and len(shown) == per_area["Export"]
        assert page.url.endswith("?from=1.13&to=2.14&area=Export")
        assert page.evaluate("window.__samePage === true"), "filtered without reloading"
        page.reload()
        page.wait_for_selector("#compare-result[data-count]")
        assert page.eval_on_selector("#compare-area", "s => s.value") == "Export"
        assert page.locator("#compare-result li.upgrade-item:not([hidden])").count() == per_area["Export"]
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_search_box_narrows_the_list_and_the_address_keeps_it(playwright_instance, served_site, lang):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from=1.13&to=2.14")
        page.wait_for_selector("#compare-result[data-count]")
        page.evaluate("window.__samePage = true")
        page.fill("#compare-q", "torch.load")
        texts = page.eval_on_selector_all(
            "#compare-result li.upgrade-item:not([hidden])", "lis => lis.map(li => [li.dataset.id, li.textContent])"
        )
        assert texts and all("torch.load" in text for _, text in texts), texts
        assert "weights-only-default" in [item_id for item_id, _ in texts]
        assert page.url.endswith("?from=1.13&to=2.14&q=torch.load")
        assert page.evaluate("window.__samePage === true")
        page.fill("#compare-q", "no-such-word-anywhere")
        assert page.locator("#compare-none").is_visible()
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from=1.13&to=2.14&q=onnx")
        page.wait_for_selector("#compare-result[data-count]")
        assert page.eval_on_selector("#compare-q", "i => i.value") == "onnx"
        shown = page.locator("#compare-result li.upgrade-item:not([hidden])")
        assert shown.count() > 3 and all("onnx" in t.lower() for t in shown.all_text_contents())
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_upgrade_view_says_its_provenance_once(playwright_instance, served_site, catalog, lang):
    """The meaning of ◆ is said once above the list, not after each of the items it marks."""
    from browser import browser_page

    from scripts.catalog.model import EVIDENCE

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from=1.13&to=2.14")
        page.wait_for_selector("#compare-result[data-count]")
        text = page.inner_text(".md-content article")
        marked = page.locator("#compare-result .evidence").count()
        assert marked > 10
        for kind in ("copy", "derived"):
            assert text.count(EVIDENCE[kind][lang]) == 1, kind
        log.assert_clean()
