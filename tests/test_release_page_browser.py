"""A release page in Chromium (tests/browser.py), as a reader with a version question meets it: the install picker
within three screens of the top on every release page (phone 390×844 and desktop 1280×900, both languages) and
each feature's label on a phone's screen, every
control at least 44×44 px on a phone, the picker's choice read from the URL (and written back to it), a link to a
folded feature opening its fold, and the 404 page `make serve` answers a missing release with."""

from __future__ import annotations

import pytest
from conftest import ROOT
from test_serve import serving

from scripts.catalog.model import LANGUAGES, version_key
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.compute import verdicts_of

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PREFIX = {"zh": "", "en": "en/"}
# Where the answer starts: the picker; a release before 1.0 has none (its install section says why, in words).
INSTALL_TOP = """() => {
  const answer = document.getElementById("install-picker") || document.getElementById("install");
  return answer ? answer.getBoundingClientRect().top + window.scrollY : null;
}"""


def test_every_release_page_on_a_phone_and_a_desktop(playwright_instance, served_site, catalog):
    """Every release page, both languages, loaded once and measured at both sizes (a phone's, then the window widened
    to a desktop's: the page lays itself out again, as when a reader turns a tablet). On both, the install picker is
    within three screens of the top; on the phone, each feature's maturity label is on screen with every fold open,
    and the page does not scroll sideways."""
    from browser import browser_page

    far: dict[str, float | None] = {}
    off_screen: list[str] = []
    measured = 0
    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        for release in catalog.releases:
            for lang in LANGUAGES:
                where = f"{lang} {release.version}"
                page.set_viewport_size(PHONE)
                page.goto(f"{served_site}{PREFIX[lang]}releases/{release.version}/")
                if version_key(release.version) >= (1, 0):
                    assert page.locator("#install-picker").count() == 1, release.version
                for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                    page.set_viewport_size(viewport)
                    assert page.evaluate("innerWidth") == viewport["width"]
                    top = page.evaluate(INSTALL_TOP)
                    measured += 1
                    if top is None or top > 3 * viewport["height"]:
                        far[f"{name} {where}"] = top
                page.set_viewport_size(PHONE)
                page.eval_on_selector_all("details.feature-area", "folds => folds.forEach(d => { d.open = true; })")
                labels = page.eval_on_selector_all(
                    ".feature-table tbody tr .feature-label .maturity",
                    "badges => badges.map(b => { const r = b.getBoundingClientRect(); return [r.left, r.right]; })",
                )
                assert len(labels) == len(release.features), where
                if any(left < 0 or right > PHONE["width"] for left, right in labels):
                    off_screen.append(where)
                if page.evaluate("document.documentElement.scrollWidth") > PHONE["width"]:
                    off_screen.append(f"{where} (the page scrolls sideways)")
        log.assert_clean()
    assert measured == 4 * len(catalog.releases)
    assert far == {}, f"install answers further than 3 screens down (phone 844 px, desktop 900 px): {far}"
    assert off_screen == [], "a maturity label off a phone's screen"


def _too_small(page, selector: str) -> list:
    return page.eval_on_selector_all(
        selector,
        """els => els.filter(e => e.getClientRects().length).map(e => {
            const r = e.getBoundingClientRect();
            return [e.className || e.tagName, (e.textContent || "").trim().slice(0, 30), Math.round(r.width), Math.round(r.height)];
        }).filter(([, , w, h]) => w < 44 || h < 44)""",
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_control_of_a_release_page_is_at_least_44_px_square_on_a_phone(playwright_instance, served_site, lang):
    """Picker choices, copy buttons (the picker's and the examples'), the quick facts' links ("Install ↓" first)
    and the feature folds, measured where a phone draws them."""
    from browser import browser_page

    small = {}
    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        for version in ("2.14", "1.6", "1.0", "2.15"):
            page.goto(f"{served_site}{PREFIX[lang]}releases/{version}/")
            page.wait_for_selector(".install-option:not([hidden]) .md-code__button")  # Material adds copy buttons
            controls = [
                ".install-choices label",
                ".install-option:not([hidden]) .md-code__button",
                ".quick-links a",
                "details.feature-area > summary",
            ]
            counts = [page.locator(selector).count() for selector in controls]
            assert counts[0] >= 8 and counts[1] == 1 and counts[2] >= 2, (version, counts)
            found = [box for selector in controls for box in _too_small(page, selector)]
            example = page.locator("article .highlight:not(.install-option .highlight) .md-code__button").first
            if example.count():
                example.scroll_into_view_if_needed()
                box = example.bounding_box()
                assert box is not None
                if box["width"] < 44 or box["height"] < 44:
                    found.append(["example copy button", "", box["width"], box["height"]])
            if found:
                small[version] = found
        log.assert_clean()
    assert small == {}


def _shown(page) -> list[str]:
    return page.eval_on_selector_all(
        ".install-option:not([hidden]) pre code", "els => els.map(e => e.textContent.trim())"
    )


def _checked(page) -> dict[str, str]:
    return page.evaluate(
        """() => Object.fromEntries(["os", "pm", "compute"].map(g =>
            [g, (document.querySelector(`.install-choices input[name="${g}"]:checked`) || {}).value]))"""
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_picker_opens_with_the_choice_the_url_names_and_ignores_what_it_does_not_offer(
    playwright_instance, served_site, catalog, lang
):
    from browser import browser_page

    verdict = verdicts_of(catalog, load_evidence(ROOT / "docs" / EVIDENCE_FILE))["1.12"]
    command = {(o.manager, o.compute, s): o.command for o in verdict.options for s in o.systems}
    plain = verdict.command.text
    url = f"{served_site}{PREFIX[lang]}releases/1.12/"
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(url + "?compute=cpu#install")
        assert _checked(page) == {"os": "linux-x86_64", "pm": "pip", "compute": "cpu"}
        assert _shown(page) == [command[("pip", "cpu", "linux-x86_64")]]

        page.goto(url + "?os=windows&pm=conda&compute=cpu#install")
        assert _shown(page) == [command[("conda", "cpu", "windows")]]

        # Values the page does not offer are ignored: the reader's last choice, else the plain PyPI command.
        page.goto(url + "?os=amiga&pm=npm&compute=cuda-99.9#install")
        assert _checked(page) == {"os": "linux-x86_64", "pm": "pip", "compute": "default"}
        assert _shown(page) == [plain]

        # A choice the reader makes goes into the URL (a link to it opens it) and is remembered; a URL beats it.
        page.check("input[name=compute][value='cuda-11.6']")
        assert "compute=cuda-11.6" in page.url and page.url.endswith("#install")
        page.goto(f"{served_site}{PREFIX[lang]}releases/1.12/#install")
        assert _checked(page)["compute"] == "cuda-11.6"
        page.goto(url + "?compute=default#install")
        assert _shown(page) == [plain]
        log.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_note_several_platforms_share_shows_with_the_line_of_each_of_them(playwright_instance, served_site, lang):
    """1.10's torch 1.10.2 refuses Python 3.6.0 and 3.6.1 on Linux aarch64, macOS (Intel) and Windows: one note
    under the lines, shown with the chosen platform's line where it names that platform, hidden elsewhere."""
    from browser import browser_page

    url = f"{served_site}{PREFIX[lang]}releases/1.10/"
    lines = ".install-option:not([hidden]) .install-system:not([hidden])"
    notes = ".install-option:not([hidden]) .install-system-note:not([hidden])"
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        for os, shown in (("windows", 1), ("macos-x86_64", 1), ("macos-arm64", 0), ("linux-x86_64", 0)):
            page.goto(url + f"?os={os}&pm=pip&compute=default#install")
            systems = page.eval_on_selector_all(lines, "ls => ls.map(l => l.dataset.system)")
            assert systems and set(systems) == {os}, (os, systems)
            assert page.locator(notes).count() == shown, os
            if shown:
                assert "3.6.2" in page.locator(notes).inner_text()
        log.assert_clean()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_link_to_a_folded_feature_opens_its_fold(playwright_instance, served_site, catalog, lang):
    from browser import browser_page, wait_until

    feature = catalog.by_version()["2.14"].features[-1]
    url = f"{served_site}{PREFIX[lang]}releases/2.14/"
    fold = f"details.feature-area:has(#feature-{feature.id})"
    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(url)
        assert page.eval_on_selector_all("details.feature-area", "ds => ds.filter(d => d.open).length") == 0
        page.goto(url + f"#feature-{feature.id}")  # same page: the fragment changes
        wait_until(page, lambda: page.eval_on_selector(fold, "d => d.open"), "the fold to open")
        page.goto(f"{served_site}{PREFIX[lang]}releases/2.13/")
        page.goto(url + f"#feature-{feature.id}")  # a fresh load with the fragment
        wait_until(page, lambda: page.eval_on_selector(fold, "d => d.open"), "the fold to open on load")
        box = page.locator(f"#feature-{feature.id}").bounding_box()
        assert box is not None and 0 <= box["y"] < PHONE["height"], box
        log.assert_clean()


@pytest.mark.parametrize("missing, lang", [("en/releases/2.16/", "en"), ("releases/9.9/", "zh")])
def test_a_missing_release_page_offers_the_newest_release_and_the_timeline(
    playwright_instance, built_site, catalog, missing, lang
):
    from browser import browser_page

    newest = catalog.releases[0].version
    with serving(built_site) as base, browser_page(playwright_instance, viewport=PHONE) as (page, log):
        response = page.goto(base + missing)
        assert response is not None and response.status == 404
        offer = page.locator("[data-not-found-release]")
        assert offer.is_visible()
        first = offer.locator("p[data-lang]").first
        assert first.get_attribute("lang") == lang
        hrefs = first.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert hrefs == [f"/{PREFIX[lang]}releases/{newest}/", f"/{PREFIX[lang]}"]
        with page.expect_navigation():
            first.locator("a").first.click()
        assert page.url == f"{base}{PREFIX[lang]}releases/{newest}/"
        assert f"PyTorch {newest}" in page.locator("h1").inner_text()

        # A missing page that is no release page: the 404 page without the offer.
        assert page.goto(base + PREFIX[lang] + "no/such/page/").status == 404
        assert not page.locator("[data-not-found-release]").is_visible()
        # The only errors: Chromium's note that each missing page answered 404, which is the point.
        assert [e for e in log.console_errors if "status of 404" not in e] == [] and log.page_errors == []
        assert log.foreign_requests == []
