"""The views generated from front matter: lifecycle, topics, compare, feeds, releases.json; and that a new
release page is all it takes to appear in every one of them."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from bs4 import BeautifulSoup

from conftest import copy_project, mkdocs_build
from reference_data import FOUNDING, LIFECYCLE_SAMPLES, MONTH_ONLY, OFFICIAL
from scripts.history import feature_history, release_changes
from scripts.releases import AREAS, LANGUAGES, area_slug, load_catalog, version_key
from test_site import SITE_URL, resolve, soup_of

LANG_PREFIX = {"zh": "", "en": "en/"}


# --- content coverage -----------------------------------------------------------------------------------


def test_every_release_with_an_official_source_is_covered(catalog):
    assert [r.version for r in reversed(catalog.releases)] == list(OFFICIAL)


@pytest.mark.parametrize("version", list(OFFICIAL))
def test_dates_and_sources_match_the_reference(catalog, version):
    release = catalog.by_version()[version]
    date, source = OFFICIAL[version]
    for lang in LANGUAGES:
        assert release.pages[lang].date_iso == date
        assert release.pages[lang].source == source
    assert (release.facts.date_precision == "month") == (version in MONTH_ONLY)


def test_founding_releases_are_present(catalog):
    assert set(FOUNDING) <= {r.version for r in catalog.releases}


def test_features_and_labels_equal_across_languages(catalog):
    for release in catalog.releases:
        zh, en = release.pages["zh"], release.pages["en"]
        assert [(f.id, f.area, f.maturity) for f in zh.features] == [(f.id, f.area, f.maturity) for f in en.features]


def test_labels_before_1_6_are_informal_and_after_2_8_api_labels(catalog):
    for release in catalog.releases:
        labels = {f.maturity for f in release.features}
        if release.version in ("1.0", "1.1", "1.2"):
            assert labels <= {"unlabeled"}, release.version
        if release.version in ("1.3", "1.4", "1.5"):
            assert labels <= {"unlabeled", "Experimental", "Stable"}, release.version
        if release.version in ("2.8", "2.9"):
            assert labels <= {"unlabeled", "API-Stable", "API-Unstable"}, release.version


# --- lifecycle ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lifecycle_cells_equal_release_pages(built_site, catalog, lang):
    url = f"{LANG_PREFIX[lang]}lifecycle/"
    soup = soup_of(built_site, url)
    table = soup.select_one("table#lifecycle-table")
    versions = [th.get_text(strip=True) for th in table.select("thead th.lifecycle-release")]
    assert versions == [r.version for r in catalog.releases], "newest release first"
    rows = {tr["data-feature"]: tr for tr in table.select("tbody tr")}
    all_ids = {f.id for r in catalog.releases for f in r.features}
    assert set(rows) == all_ids
    for release in catalog.releases:
        page = release.pages[lang]
        for feature in page.features:
            cell = rows[feature.id].select_one(f'td[data-version="{release.version}"]')
            assert cell.select_one(".maturity")["data-maturity"] == feature.maturity
            target = resolve(url, cell.a["href"].split("#")[0])
            assert target == page.url and cell.a["href"].endswith(f"#{feature.id}")
    for feature_id, expected in LIFECYCLE_SAMPLES.items():
        cells = {td["data-version"]: td.select_one(".maturity")["data-maturity"] for td in rows[feature_id].select("td[data-version]")}
        for version, label in expected.items():
            assert cells.get(version) == label, f"{feature_id} in {version}: page says {cells.get(version)}, reference {label}"
    # The journey column: one step per change of label, oldest first (e.g. Prototype 2.5 → Beta 2.6).
    for row in feature_history(catalog, lang):
        steps = rows[row["id"]].select(".lifecycle-journey .journey-step")
        shown = [(s.select_one(".journey-version").get_text(), s.select_one(".maturity")["data-maturity"]) for s in steps]
        assert shown == row["steps"] and shown[0][0] == min(row["cells"], key=version_key)


def test_lifecycle_rows_run_newest_first_within_each_area(built_site, catalog):
    # Like the release columns: a feature the newest posts still mention comes before one last seen in 0.2.
    soup = soup_of(built_site, "lifecycle/")
    newest_mention = {}
    for release in reversed(catalog.releases):  # oldest first, so the newest release is kept
        for feature in release.features:
            newest_mention[feature.id] = version_key(release.version)
    area_rank = {area: i for i, area in enumerate(AREAS)}
    rows = soup.select("#lifecycle-table tbody tr")
    keys = [(area_rank[tr["data-area"]], tuple(-p for p in newest_mention[tr["data-feature"]])) for tr in rows]
    assert keys == sorted(keys)
    assert rows[0]["data-area"] == next(iter(AREAS)) and newest_mention[rows[0]["data-feature"]] == version_key(catalog.releases[0].version)


def test_lifecycle_filter_offers_every_area_in_use(built_site, catalog):
    soup = soup_of(built_site, "lifecycle/")
    options = [o["value"] for o in soup.select("#lifecycle-area option") if o["value"]]
    assert options == [a for a in AREAS if any(f.area == a for r in catalog.releases for f in r.features)]


# --- end of support -------------------------------------------------------------------------------------

# Last release per the tables (RELEASE.md and the library tables), and where a disagreeing source (PyPI's
# wheels, a library's table) counts one more release: it is shown beside the range, never silently dropped.
SUPPORT_ENDS_BY_TABLES = {
    ("python", "2.7"): ("1.4", "1.5"),
    ("python", "3.7"): ("1.13", None),
    ("python", "3.8"): ("2.4", "2.5"),
    ("python", "3.13t"): ("2.8", "2.12"),
    ("cuda", "10.2"): ("1.11", "1.12"),
}
PLATFORM_ENDS = {"macos-x86": "2.2", "conda": "2.5"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_support_timeline_gives_last_releases_and_shows_what_other_sources_say(built_site, lang):
    page = f"{LANG_PREFIX[lang]}support/"
    soup = soup_of(built_site, page)
    for (field, value), (last, disputed) in SUPPORT_ENDS_BY_TABLES.items():
        row = soup.select_one(f'#support-{field} tr[data-{field}="{value}"]')
        assert row["data-last"] == last, (field, value)
        shown = row.select_one(".support-disputed")
        assert (shown["data-disputed"] if shown else None) == disputed, (field, value)
        if shown:
            path, fragment = shown.a["href"].split("#")
            assert resolve(page, path) == f"{LANG_PREFIX[lang]}compatibility/"
            assert soup_of(built_site, resolve(page, path)).find(id=fragment) is not None
    for ends, last in PLATFORM_ENDS.items():
        assert soup.select_one(f'#support-platforms tr[data-ends="{ends}"]')["data-last"] == last


def test_a_disagreeing_claim_alone_never_moves_the_range(catalog):
    from scripts.compat_views import disputed_support, support_ranges

    ranges = {value: (first.version, last.version) for value, first, last in support_ranges(catalog, "python")}
    disputed = disputed_support(catalog, "python")
    assert ranges["3.13t"] == ("2.6", "2.8") and [r.version for r, _ in disputed["3.13t"]] == ["2.9", "2.10", "2.11", "2.12"]
    assert all("PyPI" in sources for _, sources in disputed["3.13t"])
    assert ranges["3.10"][0] == "1.11" and disputed["3.10"][0][0].version == "1.10"


# --- topics ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_topic_pages_list_exactly_the_releases_of_their_area(built_site, catalog, lang):
    for area in AREAS:
        url = f"{LANG_PREFIX[lang]}topics/{area_slug(area)}/"
        soup = soup_of(built_site, url)
        listed = [e["data-version"] for e in soup.select(".topic-timeline .timeline-entry")]
        expected = [r.version for r in reversed(catalog.releases) if any(f.area == area for f in r.features)]
        assert listed == expected, f"{url}"
        for entry in soup.select(".topic-timeline .timeline-entry"):
            release = catalog.by_version()[entry["data-version"]]
            ids = [li["data-feature"] for li in entry.select("li")]
            assert ids == [f.id for f in release.pages[lang].features if f.area == area]


# --- feeds and JSON -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rss_feed_parses_and_lists_every_release(built_site, catalog, lang):
    root = ET.parse(built_site / LANG_PREFIX[lang] / "feed.xml").getroot()
    assert root.tag == "rss" and root.get("version") == "2.0"
    items = root.findall("./channel/item")
    assert len(items) == len(catalog.releases) == len(OFFICIAL)
    for item, release in zip(items, catalog.releases):
        assert item.findtext("link") == SITE_URL + release.pages[lang].url
        assert item.findtext("title") == release.pages[lang].title
        # An RSS date is a day: a release known only to the month gets none rather than a made-up one.
        assert bool(item.findtext("pubDate")) == (release.facts.date_precision == "day")


def test_releases_json_validates_against_its_schema(built_site, catalog):
    import jsonschema

    document = json.loads((built_site / "releases.json").read_text(encoding="utf-8"))
    schema = json.loads((built_site / "releases.schema.json").read_text(encoding="utf-8"))  # published beside it
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(document, schema, format_checker=jsonschema.FormatChecker())
    assert [r["version"] for r in document["releases"]] == [r.version for r in catalog.releases]
    assert len(document["releases"]) == len(OFFICIAL)
    for entry in document["releases"]:
        for lang in LANGUAGES:
            assert entry["url"][lang] == SITE_URL + catalog.page(entry["version"], lang).url
            assert (built_site / entry["url"][lang].removeprefix(SITE_URL) / "index.html").is_file()


# --- compare --------------------------------------------------------------------------------------------


def test_release_changes_reference_logic(catalog):
    changes = release_changes(catalog, "1.4", "1.5", "zh")
    assert {"id": "distributed-rpc", "version": "1.5", "from": "Experimental", "to": "Stable"} in changes
    # Order of the two versions does not matter.
    assert release_changes(catalog, "1.5", "1.4", "zh") == changes
    assert release_changes(catalog, "1.6", "1.6", "en") == []


@pytest.mark.browser
@pytest.mark.parametrize("lang, pair", [("zh", ("1.4", "1.9")), ("en", ("1.8", "2.0"))])
def test_upgrade_page_lists_the_same_feature_changes(playwright_instance, served_site, catalog, lang, pair):
    from browser import browser_page

    with browser_page(playwright_instance) as (page, log):
        page.goto(f"{served_site}{LANG_PREFIX[lang]}compare/?from={pair[0]}&to={pair[1]}")
        page.wait_for_selector("#compare-result[data-count]")
        rows = page.eval_on_selector_all(
            '#compare-result [data-group="features"] li', "rows => rows.map(r => [r.dataset.id, r.dataset.version])"
        )
        expected = [[c["id"], c["version"]] for c in release_changes(catalog, pair[0], pair[1], lang)]
        assert rows == expected and rows
        # The links lead to the feature's section on its release page.
        first = page.locator('#compare-result [data-group="features"] li a').first
        with page.expect_navigation():
            first.click()
        assert page.url.split("#")[1] == expected[0][0]
        log.assert_clean()


# --- a new release needs nothing but its pages ------------------------------------------------------------

SYNTHETIC = {
    "zh": """---
version: "9.1"
date: 2026-11-01
title: "PyTorch 9.1：合成测试版本"
summary: "仅用于测试的合成版本"
source: https://pytorch.org/blog/pytorch-9-1/
features:
  - id: torch-compile
    name: torch.compile
    area: Compiler
    maturity: Stable
  - id: synthetic-widget
    name: 合成特性
    area: Bindings
    maturity: Prototype
---

## 编译器 {{ #area-compiler }}

### torch.compile {{ #torch-compile }}

文字。

## 语言绑定 {{ #area-bindings }}

### 合成特性 {{ #synthetic-widget }}

文字。
""",
    "en": """---
title: "PyTorch 9.1: a synthetic release"
summary: "A synthetic release for tests"
features:
  torch-compile: torch.compile
  synthetic-widget: Synthetic widget
---

## Compiler {{ #area-compiler }}

### torch.compile {{ #torch-compile }}

Text.

## Bindings {{ #area-bindings }}

### Synthetic widget {{ #synthetic-widget }}

Text.
""",
}


@pytest.mark.slow
def test_new_release_page_appears_in_every_view(tmp_path):
    """Adding a release is one page pair and nothing else: no other file is edited, every view shows it."""
    project = copy_project(tmp_path / "project")
    (project / "docs/releases/9.1.md").write_text(SYNTHETIC["zh"].replace("{{", "{").replace("}}", "}"), encoding="utf-8")
    (project / "docs/releases/9.1.en.md").write_text(SYNTHETIC["en"].replace("{{", "{").replace("}}", "}"), encoding="utf-8")
    site = tmp_path / "site"
    result = mkdocs_build(project, site)
    assert result.returncode == 0, result.stdout + result.stderr
    catalog = load_catalog(project / "docs")
    assert catalog.releases[0].version == "9.1"
    for lang in LANGUAGES:
        prefix = LANG_PREFIX[lang]
        home = soup_of(site, prefix)
        assert home.select(".timeline-entry")[0]["data-version"] == "9.1"
        release_url = f"{prefix}releases/9.1/"
        nav = [resolve(release_url, a["href"]) for a in soup_of(site, release_url).select("nav.md-nav--primary a.md-nav__link[href]")]
        assert release_url in nav
        lifecycle = soup_of(site, f"{prefix}lifecycle/")
        widget = lifecycle.select_one('tr[data-feature="synthetic-widget"] td[data-version="9.1"] .maturity')
        assert widget["data-maturity"] == "Prototype"
        compile_row = lifecycle.select_one('tr[data-feature="torch-compile"] td[data-version="9.1"] .maturity')
        assert compile_row["data-maturity"] == "Stable"
        topic = soup_of(site, f"{prefix}topics/bindings/")
        assert topic.select(".topic-timeline .timeline-entry")[-1]["data-version"] == "9.1"
        feed = ET.parse(site / prefix / "feed.xml").getroot()
        assert feed.find("./channel/item/link").text == SITE_URL + release_url
        compare = soup_of(site, f"{prefix}compare/")
        data = json.loads(compare.select_one("#compare-data").get_text())
        assert data[-1]["version"] == "9.1"
        matrix = soup_of(site, f"{prefix}compatibility/")
        assert matrix.select("#compat-table tbody tr")[0]["data-version"] == "9.1"
        latest = home.select_one(".latest-release a")
        assert resolve(prefix, latest["href"]) == release_url
    document = json.loads((site / "releases.json").read_text(encoding="utf-8"))
    assert document["releases"][0]["version"] == "9.1"
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"{SITE_URL}en/releases/9.1/" in sitemap


@pytest.mark.browser
def test_what_changed_link_works_from_disk_and_old_fragment_links_still_work(playwright_instance, offline_copy, served_site, catalog):
    from browser import browser_page

    expected = [[c["id"], c["version"]] for c in release_changes(catalog, "1.5", "1.6", "en")]
    with browser_page(playwright_instance) as (page, log):
        page.goto((offline_copy / "en" / "releases" / "1.6.html").as_uri())
        with page.expect_navigation():
            page.locator("a.release-changes").click()
        page.wait_for_selector("#compare-result[data-count]")
        assert page.url.endswith("compare.html?from=1.5&to=1.6")
        features = '#compare-result [data-group="features"] li'
        rows = page.eval_on_selector_all(features, "rows => rows.map(r => [r.dataset.id, r.dataset.version])")
        assert rows == expected and rows
        # A link shared before the pair moved from the fragment to the query.
        page.goto(f"{served_site}en/compare/#from=1.5&to=1.6")
        page.wait_for_selector("#compare-result[data-count]")
        assert page.eval_on_selector_all(features, "rows => rows.map(r => [r.dataset.id, r.dataset.version])") == expected
        log.assert_clean()
