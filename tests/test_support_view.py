"""The support page (scripts/views/support.py, support_chart.py; scripts/verdicts/support.py): today's summary, support ranges with their dates, a chart with one
bar per row of each table, the LTS line with its source. The ranges follow the verdicts (PyPI's wheels), so a
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
SVG_ELEMENTS = {"svg", "g", "rect", "line", "path", "polyline", "circle", "text", "tspan", "title", "desc"}


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


def test_a_provisional_release_cannot_end_a_cuda_version(catalog, evidence):
    newest = catalog.releases[0]
    assert newest.provisional, "the newest release is the provisional 2.15"
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
        svg = soup.select_one(f"#support-chart-{field}")
        bars = svg.select(".support-chart-row")
        assert rows and len(rows) == len(bars)
        for row, bar in zip(rows, bars, strict=True):
            value = row[f"data-{field}"]
            assert bar["id"] == f"support-bar-{field}-{value.replace('.', '-')}"
            assert bar.select_one("text").get_text() == value
            assert value in bar.select_one("title").get_text()
            state = row["data-state"]
            assert f"support-bar-{state}" in bar.select_one("rect")["class"]
        # A bar starts further right the later its first release: x follows the first release's date.
        starts = sorted(
            (row.select("td")[0].select_one("time")["datetime"], float(bar.select_one("rect")["x"]))
            for row, bar in zip(rows, bars, strict=True)
        )
        assert [x for _, x in starts] == sorted(x for _, x in starts)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chart_is_static_svg_with_a_text_alternative(built_site, lang):
    soup = soup_of(built_site, f"{LANG_PREFIX[lang]}support/")
    for field in ("python", "cuda"):
        svg = soup.select_one(f"#support-chart-{field}")
        assert svg["role"] == "img" and svg["viewbox"].startswith("0 0 ")  # html.parser lowercases attribute names
        labelled = svg["aria-labelledby"].split()
        assert [soup.find(id=i).name for i in labelled] == ["title", "desc"]
        desc = soup.find(id=labelled[1]).get_text()
        for row in soup.select(f"#support-{field} tbody tr"):
            assert row.th.get_text() in desc  # every row is in the text alternative
        assert {e.name for e in svg.find_all(True)} | {"svg"} <= SVG_ELEMENTS
        assert not svg.find_all(attrs={"style": True}) and not svg.find_all("script")
        assert svg.find_parent("figure").select_one("figcaption .support-chart-legend li")


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
    assert "13.2" in today.select_one(".support-today-cuda dd").get_text()
    assert "Python 3.10" in today.select_one(".support-today-dropped dd").get_text()
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
    not a release date, a plan date or the evidence's date."""

    def href(page, anchor=None):
        return page.url

    href.view = lambda name, anchor=None: name
    html = support_timeline(catalog, "en", href, verdicts)
    assert html == support_timeline(catalog, "en", href, verdicts)
    days = set(re.findall(r"\b20\d\d-\d\d-\d\d\b", html))
    plan = catalog.releases[0].next_release
    known = {r.date_iso for r in catalog.releases} | ({plan.date_iso} if plan else set())
    assert days <= known, days - known


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}], ids=["phone", "desktop"]
)
def test_the_chart_is_legible_on_a_phone_and_a_desktop(playwright_instance, served_site, lang, viewport):
    """Scaled by its viewBox, the chart fits the screen and its labels stay at least 10 CSS px tall; the page does
    not scroll sideways because of it."""
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}support/")
        for field in ("python", "cuda"):
            svg = page.locator(f"#support-chart-{field}")
            box = svg.bounding_box()
            assert box["width"] <= viewport["width"] and box["width"] >= 0.8 * min(viewport["width"] - 32, 560), box
            heights = page.eval_on_selector_all(
                f"#support-chart-{field} .support-chart-label",
                "labels => labels.map(l => l.getBoundingClientRect().height)",
            )
            assert heights and min(heights) >= 10, heights
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert log.foreign_requests == []
