"""The feature lifecycle (docs/lifecycle.md, scripts/views/lifecycle.py `lifecycle`): one strip per feature on a release
axis shared by all, newest feature first, the label journey in words beside it.

It must say what the release pages say (every mention drawn at its release, in its label), draw nothing but
mentions (the old grid was 90 % empty cells), fit 1280 px without sideways scrolling, show several features
on a phone screen, keep the area filter, and read as text for screen readers and on paper."""

from __future__ import annotations

import pytest
from reference_data import LIFECYCLE_SAMPLES
from test_site import resolve, soup_of

from scripts.catalog.history import feature_history
from scripts.catalog.model import AREAS, LANGUAGES, version_key

LANG_PREFIX = {"zh": "", "en": "en/"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _features(soup):
    return soup.select("#lifecycle-list li.lifecycle-feature")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_mention_is_drawn_at_its_release_in_its_label(built_site, catalog, lang):
    url = f"{LANG_PREFIX[lang]}lifecycle/"
    soup = soup_of(built_site, url)
    oldest_first = [r.version for r in reversed(catalog.releases)]
    ticks = soup.select("#lifecycle-list .lifecycle-axis .lifecycle-tick")
    assert len(ticks) == len(oldest_first), "one tick per release on the shared axis"
    assert ticks[0].get_text() == oldest_first[0] and ticks[-1].get_text() == oldest_first[-1]
    rows = {li["data-feature"]: li for li in _features(soup)}
    assert set(rows) == {f.id for r in catalog.releases for f in r.features}
    for release in catalog.releases:
        for feature in release.pages[lang].features:
            strip = rows[feature.id].select_one("svg.lifecycle-strip")
            assert strip["viewbox" if "viewbox" in strip.attrs else "viewBox"].split()[2] == str(len(oldest_first))
            mark = strip.select_one(f'rect[data-version="{release.version}"]')
            assert mark is not None, (feature.id, release.version)
            assert mark["data-maturity"] == feature.maturity
            # Drawn in the release's column of the axis.
            assert int(float(mark["x"])) == oldest_first.index(release.version), (feature.id, release.version)
    for feature_id, expected in LIFECYCLE_SAMPLES.items():
        drawn = {r["data-version"]: r["data-maturity"] for r in rows[feature_id].select("rect[data-version]")}
        for version, label in expected.items():
            assert drawn.get(version) == label, (
                f"{feature_id} in {version}: drawn {drawn.get(version)}, reference {label}"
            )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_journey_reads_as_text_and_links_each_step(built_site, catalog, lang):
    url = f"{LANG_PREFIX[lang]}lifecycle/"
    soup = soup_of(built_site, url)
    rows = {li["data-feature"]: li for li in _features(soup)}
    for row in feature_history(catalog, lang):
        item = rows[row["id"]]
        assert item.select_one("svg")["aria-hidden"] == "true", (
            "the drawing repeats the text; screen readers get the text"
        )
        steps = item.select(".lifecycle-journey a.journey-step")
        shown = [
            (s.select_one(".journey-version").get_text(), s.select_one(".maturity")["data-maturity"]) for s in steps
        ]
        assert shown == row["steps"] and shown[0][0] == min(row["cells"], key=version_key)
        for step, (version, _) in zip(steps, row["steps"], strict=True):
            path, fragment = step["href"].split("#")
            assert resolve(url, path) == catalog.page(version, lang).url and fragment == row["id"]
        assert item.select_one(".lifecycle-journey .maturity").get_text().strip(), (
            "each label is words, not only a colour"
        )


def test_the_view_opens_on_journeys_then_features_with_one_label_each_newest_first(built_site, catalog):
    """Features whose label changed across releases come first (not one release's new features), then the rest;
    within each group, newest mention first, then newest first mention."""
    soup = soup_of(built_site, "lifecycle/")
    newest, first, labels = {}, {}, {}
    for release in reversed(catalog.releases):  # oldest first, so the newest release is kept last
        for feature in release.features:
            newest[feature.id] = version_key(release.version)
            first.setdefault(feature.id, version_key(release.version))
            labels.setdefault(feature.id, []).append(feature.maturity)
    changed = {fid for fid, seen in labels.items() if any(a != b for a, b in zip(seen, seen[1:], strict=False))}
    order = [li["data-feature"] for li in _features(soup)]
    assert order[: len(changed)] and set(order[: len(changed)]) == changed, "the journeys open the view"
    assert [li["data-feature"] for li in soup.select('ol[data-group="journeys"] > li')] == order[: len(changed)]
    for part in (order[: len(changed)], order[len(changed) :]):
        keys = [(newest[fid], first[fid]) for fid in part]
        assert keys == sorted(keys, reverse=True), "newest mention first, then newest first mention"
    assert str(len(changed)) in soup.select_one("h2#journeys").get_text()


def test_nothing_drawn_is_empty(built_site, catalog):
    """The old view was a grid of 33 release columns × 261 features, 90 % of its cells empty. Whatever the
    view is made of, at most half of its per-release cells may be empty; the strips draw mentions only."""
    soup = soup_of(built_site, "lifecycle/")
    view = soup.select_one("#lifecycle-list")
    cells = view.select("td")
    empty = [td for td in cells if not td.get_text(strip=True) and not td.find(True)]
    assert len(empty) <= len(cells) / 2, f"{len(empty)} of {len(cells)} cells empty"
    marks = view.select("rect[data-version]")
    assert len(marks) == sum(len(r.features) for r in catalog.releases), "one mark per mention, no blank marks"


def test_filter_offers_every_area_in_use(built_site, catalog):
    soup = soup_of(built_site, "lifecycle/")
    options = [o["value"] for o in soup.select("#lifecycle-area option") if o["value"]]
    assert options == [a for a in AREAS if any(f.area == a for r in catalog.releases for f in r.features)]
    assert soup.select_one("#lifecycle-area")["data-filter-target"] == "lifecycle-list"


# --- in Chromium ----------------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sideways_scrolling_at_1280_and_marks_sit_on_their_tick(playwright_instance, served_site, catalog, lang):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}lifecycle/")
        assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
        overflowing = page.eval_on_selector_all(
            "#lifecycle-list, #lifecycle-list *",
            "els => els.filter(e => !e.classList.contains('visually-hidden') && getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1).length",
        )
        assert overflowing == 0, "no scrolling box inside the view either"
        right = page.eval_on_selector("#lifecycle-list", "e => e.getBoundingClientRect().right")
        assert right <= DESKTOP["width"]
        # A mark of the newest release sits under the newest tick, one of 1.0 under the 1.0 tick.
        newest = next(r.version for r in catalog.releases if r.features)  # a provisional release has none
        for version in (newest, "1.0"):
            mark = page.locator(f'#lifecycle-list rect[data-version="{version}"]').first.bounding_box()
            index = [r.version for r in reversed(catalog.releases)].index(version)
            tick = page.locator("#lifecycle-list .lifecycle-tick").nth(index).bounding_box()
            assert tick["x"] - 1 <= mark["x"] and mark["x"] + mark["width"] <= tick["x"] + tick["width"] + 1, version
        log.assert_clean()


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phone_screen_shows_several_features(playwright_instance, served_site, lang):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}lifecycle/")
        page.eval_on_selector("#lifecycle-list li.lifecycle-feature", "li => li.scrollIntoView()")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")  # drawn
        whole = page.eval_on_selector_all(
            "#lifecycle-list li.lifecycle-feature",
            "lis => lis.filter(li => { const r = li.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }).length",
        )
        assert whole >= 6, f"only {whole} features on one phone screen"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.goto(f"{served_site}{LANG_PREFIX[lang]}lifecycle/#feature-torch-compile")
        row = page.locator("#feature-torch-compile")
        assert row.locator(".lifecycle-journey .journey-step").first.is_visible()
        assert row.locator("svg.lifecycle-strip").is_visible()
        log.assert_clean()


@pytest.mark.browser
def test_area_filter_hides_other_areas_and_survives_a_reload(playwright_instance, served_site, catalog):
    from browser import browser_page

    compiler = {f.id for r in catalog.releases for f in r.features if f.area == "Compiler"}
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}en/lifecycle/")
        page.select_option("#lifecycle-area", "Compiler")
        assert page.url.endswith("?area=Compiler")
        page.reload()
        shown = page.eval_on_selector_all(
            "#lifecycle-list [data-feature]",
            "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.feature)",
        )
        assert set(shown) == compiler
        assert str(len(compiler)) in page.inner_text("#lifecycle-shown")
        log.assert_clean()


@pytest.mark.browser
def test_on_paper_each_feature_keeps_its_journey_in_words(playwright_instance, served_site):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}en/lifecycle/")
        page.emulate_media(media="print")
        assert not page.locator("#lifecycle-area").is_visible(), "no filter on paper"
        row = page.locator("#feature-torch-compile")
        text = row.locator(".lifecycle-journey").inner_text()
        assert "Beta" in text and "2.0" in text
        log.assert_clean()
