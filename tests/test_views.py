"""The views generated from front matter: lifecycle, topics, compare, feeds, releases.json; and that a new
release page is all it takes to appear in every one of them."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from conftest import copy_project, mkdocs_build
from reference_data import FOUNDING, MONTH_ONLY, OFFICIAL, PROVISIONAL
from test_site import SITE_URL, resolve, soup_of

from scripts.catalog.history import release_changes
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import AREAS, CHANGE_CATEGORIES, LANGUAGES, area_slug, version_key

LANG_PREFIX = {"zh": "", "en": "en/"}


# --- content coverage -----------------------------------------------------------------------------------


def test_every_release_with_an_official_source_is_covered(catalog):
    # A provisional release (on PyPI, its post not in the references yet) is not an official-source release.
    assert [r.version for r in reversed(catalog.releases) if not r.provisional] == list(OFFICIAL)
    assert [r.version for r in catalog.releases if r.provisional] == list(PROVISIONAL)


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


# --- lifecycle: tests/test_lifecycle.py ------------------------------------------------------------------


# --- end of support -------------------------------------------------------------------------------------

# Last release per the tables (RELEASE.md and the library tables), and where a disagreeing source (PyPI's
# wheels, a library's table) counts one more release: it is shown beside the range, never silently dropped.
# Since the verdicts: a release counts where PyPI's Linux x86_64 wheels say so (1.5's only cp27 wheel is a macOS
# one; neither torch 2.5.0 nor torchaudio 2.5.0 has a cp38 wheel; 3.13t has Linux wheels through 2.12); another
# source's count is shown only where PyPI has no wheels of that release to contradict it (CUDA 10.2).
SUPPORT_ENDS_BY_TABLES = {
    ("python", "2.7"): ("1.4", None),
    ("python", "3.7"): ("1.13", None),
    ("python", "3.8"): ("2.4", None),
    ("python", "3.13t"): ("2.12", None),
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


# --- topics ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_topic_pages_list_exactly_the_releases_of_their_area(built_site, catalog, lang):
    for area in AREAS:
        url = f"{LANG_PREFIX[lang]}topics/{area_slug(area)}/"
        soup = soup_of(built_site, url)
        listed = [e["data-version"] for e in soup.select(".topic-timeline .timeline-entry")]
        expected = [r.version for r in catalog.releases if any(f.area == area for f in r.features)]
        assert listed == expected, f"{url}"
        assert listed == sorted(listed, key=version_key, reverse=True), (
            f"{url}: newest first, like every list on the site"
        )
        for entry in soup.select(".topic-timeline .timeline-entry"):
            release = catalog.by_version()[entry["data-version"]]
            ids = [li["data-feature"] for li in entry.select("li")]
            assert ids == [f.id for f in release.pages[lang].features if f.area == area]


# --- change badges: one vocabulary, one item per fact ------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_change_badge_is_a_category_of_the_vocabulary(built_site, catalog, lang):
    """Each breaking change on a release page wears exactly one badge: a category of CHANGE_CATEGORIES, in
    that category's words for the page's language."""
    for release in catalog.releases:
        page = release.pages[lang]
        soup = soup_of(built_site, page.url)
        changes = soup.select(".changes .change[data-category]")
        assert len(changes) == len(page.changes), page.url
        for item in changes:
            badges = item.select(".change-head .change-category")
            assert len(badges) == 1, f"{page.url}#{item['id']}: {len(badges)} badges"
            category = item["data-category"]
            assert category in CHANGE_CATEGORIES
            assert badges[0]["class"] == ["change-category", f"category-{category}"]
            assert badges[0].get_text() == CHANGE_CATEGORIES[category][lang]


def test_a_drop_is_filed_once_the_announcement_before_it_is_a_deprecation(catalog):
    """ "2.2.x is the last series with macOS x86" announces; "no macOS x86 binaries" (2.3) drops. The
    announcement is a deprecation that the drop follows: two linked steps, not the same dropped platform
    twice (the Conda channel was once filed as dropped in 2.5 and in 2.6)."""
    changes = {(r.version, c.id): c for r in catalog.releases for c in r.changes}
    twice = [
        f"{version}#{change.id} follows {change.follows[0]}#{change.follows[1]}"
        for (version, _), change in changes.items()
        if change.follows
        and change.category == "dropped-platform"
        and changes[change.follows].category == "dropped-platform"
    ]
    assert twice == []
    for key in (
        ("2.2", "macos-x86-deprecated"),
        ("2.5", "conda-last-release"),
        ("1.10", "python-3-6-last"),
        ("1.4", "python-2-last"),
    ):
        assert changes[key].category == "deprecation", key


# --- feeds and JSON -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rss_feed_parses_and_lists_every_release(built_site, catalog, lang):
    root = ET.parse(built_site / LANG_PREFIX[lang] / "feed.xml").getroot()
    assert root.tag == "rss" and root.get("version") == "2.0"
    items = root.findall("./channel/item")
    assert len(items) == len(catalog.releases) == len(OFFICIAL) + len(PROVISIONAL)
    for item, release in zip(items, catalog.releases, strict=True):
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
    assert len(document["releases"]) == len(OFFICIAL) + len(PROVISIONAL)
    assert [r["version"] for r in document["releases"] if r["provisional"]] == list(PROVISIONAL)
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


def test_every_change_has_one_area_for_the_upgrade_filter(catalog):
    from scripts.catalog.model import AREAS
    from scripts.views.upgrade import change_area, feature_areas

    areas = feature_areas(catalog)
    found = {(r.version, c.id): change_area(r, c, areas) for r in catalog.releases for c in r.changes}
    assert set(found.values()) <= set(AREAS) and len(set(found.values())) >= 8
    assert found[("2.6", "weights-only-default")] == "Frontend"
    assert found[("2.11", "onnx-fallback-removed")] == "Export"
    assert found[("2.12", "torchrun-free-port")] == "Distributed"
    assert found[("2.14", "profiler-use-cuda-removed")] == "Profiler"
    assert found[("2.13", "cpp-cxx20-headers")] == "C++"
    assert found[("2.10", "torchscript-deprecated")] == "JIT"
    assert all(found[(r.version, c.id)] == "Platform" for r in catalog.releases for c in r.changes
               if c.category == "dropped-platform")  # fmt: skip


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
        # The links lead to the feature's section on its release page (the features are folded: one click).
        page.click('#compare-result [data-group="features"] summary')
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
    (project / "docs/releases/9.1.md").write_text(
        SYNTHETIC["zh"].replace("{{", "{").replace("}}", "}"), encoding="utf-8"
    )
    (project / "docs/releases/9.1.en.md").write_text(
        SYNTHETIC["en"].replace("{{", "{").replace("}}", "}"), encoding="utf-8"
    )
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
        nav = [
            resolve(release_url, a["href"])
            for a in soup_of(site, release_url).select("nav.md-nav--primary a.md-nav__link[href]")
        ]
        assert release_url in nav
        lifecycle = soup_of(site, f"{prefix}lifecycle/")
        widget = lifecycle.select_one('li[data-feature="synthetic-widget"] rect[data-version="9.1"]')
        assert widget["data-maturity"] == "Prototype"
        compile_row = lifecycle.select_one('li[data-feature="torch-compile"] rect[data-version="9.1"]')
        assert compile_row["data-maturity"] == "Stable"
        assert lifecycle.select(".lifecycle-axis .lifecycle-tick")[-1].get_text() == "9.1", "the axis grows by itself"
        topic = soup_of(site, f"{prefix}topics/bindings/")
        assert topic.select(".topic-timeline .timeline-entry")[0]["data-version"] == "9.1"
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
def test_what_changed_link_works_from_disk_and_old_fragment_links_still_work(
    playwright_instance, offline_copy, served_site, catalog
):
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
        assert (
            page.eval_on_selector_all(features, "rows => rows.map(r => [r.dataset.id, r.dataset.version])") == expected
        )
        log.assert_clean()
