"""The support page (scripts/views/support.py, support_chart.py; scripts/verdicts/support.py): today's summary,
support ranges with their dates, a chart with one bar per row of each table and every fact of it in words, the LTS
line with its source. The ranges follow the verdicts (PyPI's wheels), so a
table's claim that PyPI contradicts is not shown as "another source"."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT
from reference_data import LTS, PROVISIONAL
from test_site import resolve, soup_of

from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.compute import verdicts_of
from scripts.verdicts.support import support_ranges
from scripts.views.support import support_timeline

LANG_PREFIX = {"zh": "", "en": "en/"}
SVG_ELEMENTS = {"svg", "g", "rect", "line", "path", "polyline", "circle"}


@pytest.fixture(scope="module")
def evidence():
    return load_evidence(ROOT / "docs" / EVIDENCE_FILE)


@pytest.fixture(scope="module")
def verdicts(catalog, evidence):
    return verdicts_of(catalog, evidence)


def _ranges(catalog, evidence, field):
    return {r.value: r for r in support_ranges(catalog, field, verdicts_of(catalog, evidence))}


# --- the ranges -------------------------------------------------------------------------------------------------


def test_python_ranges_follow_pypi(catalog, evidence):
    python = _ranges(catalog, evidence, "python")
    # 2.15's wheels start at 3.11: 3.10 ended with 2.14. 3.8's last cp38 wheels are 2.4's.
    assert (python["3.10"].last.version, python["3.10"].current) == ("2.14", False)
    assert (python["3.8"].last.version, python["3.8"].disputed_after) == ("2.4", None)
    # 3.14t has wheels on PyPI through 2.15: one range, still supported, no "⚠ 2.14" beside an older end.
    assert python["3.14t"].current and python["3.14t"].last.version == "2.15" and python["3.14t"].disputed_after is None
    assert python["3.15"].first.version == "2.15" and python["3.15"].current
    # 1.10's lone aarch64 cp310 wheel does not make 1.10 a Python 3.10 release.
    assert python["3.10"].first.version == "1.11" and python["3.10"].disputed_before is None


def test_a_source_pypi_contradicts_is_not_shown_as_disputed(catalog, evidence):
    from scripts.verdicts.model import PYPI
    from scripts.verdicts.rules import python_verdict

    for row in support_ranges(catalog, "python", verdicts_of(catalog, evidence)):
        for disputed in (row.disputed_before, row.disputed_after):
            if disputed:
                release, _ = disputed
                assert python_verdict(release, evidence).source != PYPI, (row.value, release.version)


def test_the_provisional_release_ships_the_cuda_builds_its_announcement_names(catalog, evidence):
    """2.15 is provisional: PyPI gives its default build (13.2), the release team's announcement on GitHub (a claim
    of the catalog, source I) the download.pytorch.org builds (13.0, 13.2; 12.6 removed). CUDA 13.0 is still
    supported, not drawn as ended; 12.6 ended with 2.14."""
    newest = catalog.releases[0]
    assert newest.provisional, "the newest release is the provisional 2.15"
    assert newest.compat.versions("cuda") == ["13.0", "13.2"]
    assert [c.sources for c in newest.compat.claims("cuda")] == [("I",)]
    cuda = _ranges(catalog, evidence, "cuda")
    assert cuda["13.0"].current and cuda["13.2"].current and not cuda["13.0"].unknown
    assert (cuda["12.6"].last.version, cuda["12.6"].current, cuda["12.6"].unknown) == ("2.14", False, False)


def test_a_provisional_release_without_cuda_claims_cannot_end_a_cuda_version(catalog, evidence):
    """Without the announcement, 2.15 knows only its PyPI wheel's CUDA: the others are "not known yet", not ended."""
    import copy
    from dataclasses import replace

    catalog = copy.deepcopy(catalog)
    newest = catalog.releases[0]
    for page in newest.pages.values():
        page.compat = replace(page.compat, cuda=())
    cuda = _ranges(catalog, evidence, "cuda")
    pypi_cuda = newest.compat.versions("pypi_cuda", patch=newest.patches[-1])[0]
    assert cuda[pypi_cuda].current
    last_full = catalog.releases[1]
    for value, row in cuda.items():
        if row.last is last_full and value != pypi_cuda:
            assert row.unknown and not row.current, value  # not "ended at 2.14": 2.15's CUDA builds are not known


def test_ranges_carry_the_catalog_dates(catalog, evidence):
    python = _ranges(catalog, evidence, "python")
    assert python["3.10"].last.date_iso == catalog.by_version()["2.14"].date_iso == "2026-09-02"
    assert python["3.14t"].last.date_iso == PROVISIONAL["2.15"][0]


# --- the built page ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_row_has_its_bar_in_order_of_time(built_site, catalog, lang):
    soup = soup_of(built_site, f"{LANG_PREFIX[lang]}support/")
    for field in ("python", "cuda"):
        rows = soup.select(f"#support-{field} tbody tr")
        bars = soup.select(f"#support-chart-{field} > li.support-chart-row")
        assert rows and len(rows) == len(bars)
        for row, bar in zip(rows, bars, strict=True):
            value = row[f"data-{field}"]
            assert bar["id"] == f"support-bar-{field}-{value.replace('.', '-')}"
            assert bar.select_one(".support-chart-label").get_text() == row.th.get_text()
            state = row["data-state"]
            assert bar["data-state"] == state and f"support-bar-{state}" in bar.select_one("rect")["class"]
        # A bar starts further right the later its first release: x follows the first release's date.
        starts = sorted(
            (row.select("td")[0].select_one("time")["datetime"], float(bar.select_one("rect")["x"]))
            for row, bar in zip(rows, bars, strict=True)
        )
        assert [x for _, x in starts] == sorted(x for _, x in starts)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_fact_of_the_chart_is_in_its_words(built_site, catalog, verdicts, lang):
    """No fact only in a tooltip: beside each bar, in text, the first and the last release with their dates and
    where support stands; the drawing itself is decoration (no text, no script, no style attribute)."""
    soup = soup_of(built_site, f"{LANG_PREFIX[lang]}support/")
    by_version = catalog.by_version()
    state_words = {
        "zh": {"ended": "已停止支持", "current": "至今仍支持", "unknown": "尚不清楚"},
        "en": {"ended": "ended", "current": "still supported", "unknown": "not known yet"},
    }[lang]
    for field in ("python", "cuda"):
        for row in soup.select(f"#support-{field} tbody tr"):
            bar = soup.select_one(f"#support-bar-{field}-{row[f'data-{field}'].replace('.', '-')}")
            words = bar.select_one(".support-chart-span").get_text()
            first = by_version[row["data-first"]]
            last = catalog.releases[0] if row["data-state"] == "current" else by_version[row["data-last"]]
            for release in (first, last):
                assert f"{release.version} (" in words.replace("（", " (") and release.date_iso in words, words
            assert state_words[row["data-state"]] in bar.select_one(".support-chart-state").get_text()
            svg = bar.select_one("svg")
            assert svg["aria-hidden"] == "true" and not svg.find_all(["text", "title", "script"])
            assert not bar.find_all(attrs={"style": True}) and {e.name for e in svg.find_all(True)} <= SVG_ELEMENTS
        figure = soup.select_one(f"#chart-{field}")
        legend = figure.select_one("figcaption .support-chart-legend").get_text()
        assert verdicts.checked in legend, "the marker's day is named, as the day PyPI was checked"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_row_marks_the_day_pypi_was_checked_on_the_shared_axis(built_site, catalog, verdicts, lang):
    soup = soup_of(built_site, f"{LANG_PREFIX[lang]}support/")
    for field in ("python", "cuda"):
        marks = {float(line["x1"]) for line in soup.select(f"#support-chart-{field} line.support-chart-checked")}
        assert len(marks) == 1, "one day, at the same place on every row"
        newest_end = max(
            float(r["x"]) + float(r["width"]) for r in soup.select(f"#support-chart-{field} rect.support-bar-current")
        )
        assert newest_end <= marks.pop() <= 1000, "PyPI was checked after the newest release"
        years = [int(y.get_text()) for y in soup.select(f"#chart-{field} .support-chart-year")]
        assert years == list(range(years[0], int(verdicts.checked[:4]) + 1))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tables_show_dates_and_what_is_still_supported(built_site, catalog, evidence, lang):
    page = f"{LANG_PREFIX[lang]}support/"
    soup = soup_of(built_site, page)
    row = soup.select_one('#support-python tr[data-python="3.10"]')
    assert (row["data-last"], row["data-state"]) == ("2.14", "ended")
    first, last = row.select("td")
    assert first.time["datetime"] == catalog.by_version()["1.11"].date_iso
    assert last.time["datetime"] == catalog.by_version()["2.14"].date_iso
    assert resolve(page, last.a["href"].split("#")[0]) == f"{LANG_PREFIX[lang]}releases/2.14/"
    row = soup.select_one('#support-python tr[data-python="3.14t"]')
    assert (row["data-last"], row["data-state"]) == ("2.15", "current")
    assert row.select_one(".support-current") and row.select_one(".provisional-mark"), "2.15 is marked provisional"
    row = soup.select_one('#support-python tr[data-python="3.8"]')
    assert row["data-last"] == "2.4" and row.select_one(".support-disputed") is None
    for row in soup.select("#support-python tbody tr, #support-cuda tbody tr"):
        assert len(row.select("time")) >= 2, row.th.get_text()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_today_summary(built_site, catalog, evidence, lang):
    soup = soup_of(built_site, f"{LANG_PREFIX[lang]}support/")
    article = soup.select_one("article")
    today = article.select_one(".support-today")
    assert article.find("h2")["id"] == "today-title", "the summary is the first thing the view shows"
    newest = catalog.releases[0]
    assert today["data-newest"] == newest.version
    assert today.select_one(".support-today-newest time")["datetime"] == newest.date_iso
    assert today.select_one(".support-today-newest .provisional-mark") is not None
    python = today.select_one(".support-today-python dd").get_text()
    assert "3.11–3.15" in python and "3.14t" in python and "3.10" not in python
    assert today.select_one(".support-today-cuda dd").get_text() == "13.0, 13.2"
    dropped = today.select_one(".support-today-dropped dd").get_text()
    assert "Python 3.10" in dropped and "CUDA 12.6" in dropped
    plan = today.select_one(".support-today-next .release-plan")
    planned = catalog.releases[0].next_release
    assert plan["data-version"] == planned.version == "2.16"
    assert plan.select_one("a")["href"] == planned.source  # the schedule's source, one click away
    assert ("计划（不是事实）" if lang == "zh" else "Plan, not fact") in plan.get_text()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_lts_line_is_on_the_support_page_with_its_source(built_site, lang):
    soup = soup_of(built_site, f"{LANG_PREFIX[lang]}support/")
    for version, (patches, source) in LTS.items():
        row = soup.select_one(f'#support-lts tr[data-lts="{version}"]')
        assert row is not None
        assert all(p in row.get_text() for p in patches)
        assert any(a["href"] == source for a in row.select("a"))


def test_the_view_reads_no_clock(catalog, verdicts):
    """Dates come from the catalog: the view is the same whatever day it is built, and names no day that is
    not a release date, a plan date or the evidence's date (the chart's marker)."""

    def href(page, anchor=None):
        return page.url

    href.view = lambda name, anchor=None: name
    html = support_timeline(catalog, "en", href, verdicts)
    assert html == support_timeline(catalog, "en", href, verdicts)
    days = set(re.findall(r"\b20\d\d-\d\d-\d\d\b", html))
    plan = catalog.releases[0].next_release
    known = {r.date_iso for r in catalog.releases} | ({plan.date_iso} if plan else set()) | {verdicts.checked}
    assert verdicts.checked in days
    assert days <= known, days - known


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}], ids=["phone", "desktop"]
)
def test_the_chart_is_legible_on_a_phone_and_a_desktop(playwright_instance, served_site, lang, viewport):
    """Every word of the chart (versions, years, releases and dates, the legend) is drawn at 12 CSS px or more, its
    bars are as wide as the column allows, and the page does not scroll sideways because of it."""
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}support/")
        for field in ("python", "cuda"):
            sizes = page.eval_on_selector_all(
                f"#chart-{field} :is(.support-chart-label, .support-chart-span, .support-chart-year, figcaption li)",
                "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))",
            )
            assert len(sizes) > 20 and min(sizes) >= 12, sorted(sizes)[:3]
            track = page.locator(f"#chart-{field} svg.support-chart-track").first.bounding_box()
            column = page.locator(f"#chart-{field}").bounding_box()
            assert track["height"] >= 12 and track["width"] >= 0.6 * column["width"], (track, column)
            # The words of a row stay inside the chart's column.
            right = page.eval_on_selector_all(
                f"#chart-{field} .support-chart-span",
                "els => Math.max(...els.map(e => e.getBoundingClientRect().right))",
            )
            assert right <= column["x"] + column["width"] + 1
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        log.assert_clean()
