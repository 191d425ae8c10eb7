"""Search in the real search box, on the served site and on the unpacked offline copy (file://), every
foreign request blocked: every query of the query set has its page in the top 3, per language and per mode,
with 0 foreign requests and 0 console errors, once the full text has arrived; the first answer needs only
the index's first part, within its byte budget, and the full text arriving after it leaves the results on
screen in place; and what a reader sees: short snippets, whole highlights, no false "missing" words,
input-method and pasted text, facts found in their sections, version and install questions answered."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from browser import browser_page, serve_directory
from search_queries import QUERIES
from search_ui import (
    answer_of,
    hit_at_3,
    page_of,
    result_groups,
    run_query,
    wait_for_answer,
    wait_for_full_index,
    warm_up,
)

from scripts.views.search_index import HEAD_BUDGET

pytestmark = pytest.mark.browser

INDEX_FILE = re.compile(r"index\.(zh|en)(\.text)?\.json$")
TEXT_PARTS = "**/search/index.*.text.json"
HOME = {"zh": "", "en": "en/"}
PREFIX = {"zh": "", "en": "en/"}


def run_query_set(playwright_instance, base: str, home_for) -> dict:
    results = {}
    with browser_page(playwright_instance) as (page, log):
        for lang in ("zh", "en"):
            page.goto(home_for(lang))
            warm_up(page, next(query for query_lang, query, _ in QUERIES if query_lang == lang))
            hits, misses = 0, []
            for query_lang, query, expected in QUERIES:
                if query_lang != lang:
                    continue
                links = answer_of(page, query)
                if hit_at_3(links, base, expected):
                    hits += 1
                else:
                    misses.append((query, links[:3]))
            total = sum(1 for q in QUERIES if q[0] == lang)
            results[lang] = {"hit_rate": hits / total, "misses": misses}
        log.assert_clean()
    return results


def assert_quality(results):
    for lang, r in results.items():
        assert r["misses"] == [], f"{lang}: hit@3 {r['hit_rate']:.0%}; misses: {r['misses']}"


def test_query_set_counts_both_languages():
    zh = [q for q in QUERIES if q[0] == "zh"]
    en = [q for q in QUERIES if q[0] == "en"]
    assert len(QUERIES) >= 60 and len(zh) == len(en)


def test_search_on_the_served_site(playwright_instance, served_site):
    results = run_query_set(playwright_instance, served_site, lambda lang: served_site + HOME[lang])
    assert_quality(results)


def test_search_in_the_offline_copy(playwright_instance, offline_copy):
    base = offline_copy.as_uri() + "/"
    results = run_query_set(playwright_instance, base, lambda lang: base + HOME[lang] + "index.html")
    assert_quality(results)


def test_results_of_the_other_language_come_last_and_marked(playwright_instance, served_site):
    with browser_page(playwright_instance) as (page, log):
        page.goto(served_site + "en/")
        # Chinese words find Chinese pages only; on the English site they are listed, marked, after any English hit.
        links, _ = run_query(page, "混合精度")
        page.locator(".md-search-result__item .search-other-language").first.wait_for()
        links = result_groups(page)
        assert links and all("/en/" not in group[0] for group in links)
        assert page.locator(".md-search-result__item .search-other-language").first.inner_text() == "中文"
        links, _ = run_query(page, "torch.jit.fork")
        languages = ["en" if "/en/" in link else "zh" for link in links]
        assert languages == sorted(languages, key=lambda language: language != "en"), languages
        log.assert_clean()


def test_page_views_load_no_index_and_a_search_loads_each_language_once(playwright_instance, served_site, built_site):
    """overrides/hooks/lazy_search_index.py: Material's own index is config only. Opening search loads the
    reader's language's index, first part then text (docs/assets/javascripts/search/box.js tells the
    worker), the first answer loads the other's; each once."""
    assert (built_site / "search" / "search_index.json").stat().st_size < 2_000
    with browser_page(playwright_instance) as (page, log):
        served = []
        # On the context: the worker's own requests are not the page's.
        page.context.on("request", lambda request: served.append(request.url.split("/")[-1]))
        page.goto(served_site + "releases/1.6/", wait_until="networkidle")
        page.goto(served_site + "en/", wait_until="networkidle")
        assert "search_index.json" in served and not [name for name in served if INDEX_FILE.match(name)]
        page.keyboard.press("/")
        page.wait_for_selector('html[data-search-index~="en.text"]', state="attached")
        assert [name for name in served if INDEX_FILE.match(name)] == ["index.en.json", "index.en.text.json"]
        links, _ = run_query(page, "amp")
        wait_for_full_index(page)
        everything = ["index.en.json", "index.en.text.json", "index.zh.json", "index.zh.text.json"]
        assert links and [name for name in served if INDEX_FILE.match(name)] == everything
        run_query(page, "compile")
        assert [name for name in served if INDEX_FILE.match(name)] == everything
        log.assert_clean()


def search_files_received(requests) -> dict[str, int]:
    """{file name: bytes on the wire (gzipped, as served)} of the search index requests that finished."""
    return {r.url.rsplit("/", 1)[-1]: r.sizes()["responseBodySize"] for r in requests if INDEX_FILE.search(r.url)}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_first_answer_needs_only_the_first_part_within_its_byte_budget(playwright_instance, built_site, lang):
    """Served gzipped, as a static host serves it, with the full text never arriving: the first answer still
    comes, from search/index.<lang>.json alone, and that file is within scripts/views/search_index.py's
    HEAD_BUDGET on the wire."""
    with serve_directory(built_site, like_a_web_host=True) as base, browser_page(playwright_instance) as (page, _log):
        finished = []
        page.context.route(TEXT_PARTS, lambda route: route.abort())
        page.context.on("requestfinished", lambda request: finished.append(request))
        page.goto(base + HOME[lang], wait_until="networkidle")
        links, _ = run_query(page, "torch.compile")
        assert links and page_of(links[0], base) == f"{PREFIX[lang]}releases/2.0/", links[:3]
        received = search_files_received(finished)
        assert list(received) == [f"index.{lang}.json"], received
        assert 0 < received[f"index.{lang}.json"] <= HEAD_BUDGET, (
            f"the first answer loads {received} bytes, budget {HEAD_BUDGET}"
        )


def test_the_full_text_arriving_leaves_the_results_on_screen_in_place(playwright_instance, served_site):
    """The reader's results from the first part stay where they are when the full text arrives (new ones
    may follow them, and snippets appear); the next key ranks with the full text."""
    with browser_page(playwright_instance) as (page, log):
        held = []
        page.context.route(TEXT_PARTS, lambda route: held.append(route))
        page.goto(served_site + "en/")
        run_query(page, "python 3.12")  # returns once the list answers it (the first part only: the text is held)
        before = [group[0] for group in result_groups(page)]
        assert (
            before and not page.locator(".md-search-result__article p:not(.md-search-result__terms)").count()
        )  # no text yet
        while held:
            held.pop().continue_()
        page.wait_for_selector('html[data-search-index~="en.text"]', state="attached")
        snippets = ".md-search-result__article p:not(.md-search-result__terms)"
        page.wait_for_function(f"document.querySelectorAll({snippets!r}).length > 0")  # redrawn with the full text
        after = [group[0] for group in result_groups(page)]
        assert after[: len(before)] == before
        page.keyboard.type(" ")
        # The full ranking, once the next key's answer is drawn (a wrong first result runs into the deadline).
        page.wait_for_function(
            "() => { const a = document.querySelector('.md-search-result__item a.md-search-result__link');"
            " return !!a && new URL(a.href).pathname.endsWith('/en/releases/2.4/'); }"
        )
        page.context.unroute(TEXT_PARTS)
        log.assert_clean()


@pytest.mark.parametrize(
    "lang, query", [("zh", "哪个版本支持 Python 3.12"), ("en", "which version supports Python 3.12")]
)
def test_a_version_question_ranks_the_answer_above_a_feature_that_names_the_version(
    playwright_instance, served_site, lang, query
):
    """2.4's "torch.compile supports Python 3.12" used to come first; the end-of-support page's Python
    section and the compatibility matrix know the answer (2.2)."""
    with browser_page(playwright_instance) as (page, log):
        page.goto(served_site + HOME[lang])
        warm_up(page, query)
        run_query(page, query)
        pages = [page_of(group[0], served_site) for group in result_groups(page)]
        answers = [i for i, p in enumerate(pages) if p in (f"{PREFIX[lang]}support/", f"{PREFIX[lang]}compatibility/")]
        feature = pages.index(f"{PREFIX[lang]}releases/2.4/") if f"{PREFIX[lang]}releases/2.4/" in pages else len(pages)
        assert answers and answers[0] < 3 and answers[0] < feature, pages[:5]
        log.assert_clean()


@pytest.mark.parametrize("mode", ["served", "offline"])
def test_an_upgrade_question_opens_the_upgrade_view_with_both_releases_chosen(
    playwright_instance, served_site, offline_copy, mode
):
    base = served_site if mode == "served" else offline_copy.as_uri() + "/"
    home = {"zh": "", "en": "en/"} if mode == "served" else {"zh": "index.html", "en": "en/index.html"}
    with browser_page(playwright_instance) as (page, log):
        for lang, query in (("zh", "从 1.13 升级到 2.0"), ("en", "upgrade from 1.13 to 2.0")):
            page.goto(base + home[lang])
            links, _ = run_query(page, query)
            query_string = parse_qs(urlparse(links[0]).query)
            assert page_of(links[0], base) == PREFIX[lang] + "compare/" and (
                query_string["from"],
                query_string["to"],
            ) == (["1.13"], ["2.0"]), links[:3]
            page.locator(".md-search-result__item a.md-search-result__link").first.click()
            page.wait_for_selector("#compare-result[data-count]")
            assert page.input_value("#compare-from") == "1.13" and page.input_value("#compare-to") == "2.0"
            assert page.locator("#compare-result li").count() > 0
        log.assert_clean()


def test_torch_compile_leads_with_the_release_that_introduced_it(playwright_instance, served_site):
    with browser_page(playwright_instance) as (page, log):
        for lang in ("zh", "en"):
            page.goto(served_site + HOME[lang])
            links, _ = run_query(page, "torch.compile")
            assert page_of(links[0], served_site) == f"{PREFIX[lang]}releases/2.0/", links[:3]
        log.assert_clean()


# Where a fact lives: the install commands of a release page, the compatibility matrix, or the "Breaking
# changes and deprecations" section the build adds to each release page.
INSTALL_OR_MATRIX = {"install", "compatibility"}
FACTS = {
    "Python 3.12": INSTALL_OR_MATRIX,
    "CUDA 12.1": INSTALL_OR_MATRIX,
    "torchvision 0.15": INSTALL_OR_MATRIX,
    "weights_only": {"changes"},
    ("autocast 弃用", "autocast deprecated"): {"changes"},
    "Python 3.7": {"changes"},
}


def place_of(link: str) -> str:
    """ "install" or "changes" for those sections of a release page, "compatibility" for that page."""
    url = urlparse(link)
    return "compatibility" if url.path.rstrip("/").endswith("compatibility") else url.fragment


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_facts_are_found_in_their_sections(playwright_instance, served_site, lang):
    with browser_page(playwright_instance) as (page, log):
        page.goto(served_site + HOME[lang])
        for query, places in FACTS.items():
            query = query if isinstance(query, str) else query[lang == "en"]
            run_query(page, query)
            top = [link for group in result_groups(page)[:3] for link in group]
            assert {place_of(link) for link in top} & places, (query, top)
        log.assert_clean()


def test_results_are_short_on_a_phone(playwright_instance, served_site):
    """A release's top result used to hold its whole fact box and feature table: one result filled the
    screen. Now each result shows a title and a couple of lines."""
    with browser_page(playwright_instance, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True) as (
        page,
        log,
    ):
        for lang, query in (("zh", "2.0"), ("en", "2.0"), ("zh", "分布式训练"), ("en", "distributed training")):
            page.goto(served_site + HOME[lang])
            page.locator("label.md-header__button[for='__search']").click()
            run_query(page, query)
            heights = page.eval_on_selector_all(
                ".md-search-result__article", "as => as.slice(0, 6).map(a => a.getBoundingClientRect().height)"
            )
            assert heights and max(heights) < 844 * 0.3, (lang, query, heights)
            texts = page.eval_on_selector_all(
                ".md-search-result__article p:not(.md-search-result__terms)", "ps => ps.map(p => p.textContent.length)"
            )
            assert texts and max(texts) <= 200, (lang, query, texts)
        log.assert_clean()


def test_highlights_are_whole_and_nothing_found_is_called_missing(playwright_instance, served_site):
    with browser_page(playwright_instance) as (page, log):
        page.goto(served_site)
        run_query(page, "分布式训练")
        marks = page.eval_on_selector_all(".md-search-result mark", "ms => ms.map(m => m.textContent)")
        assert "分布式训练" in marks  # an odd-length query: its last character too
        page.goto(served_site + "en/")
        run_query(page, "channels_last")
        # Under results that mark "Channels last", no "Missing: channels_last".
        articles = page.eval_on_selector_all(
            ".md-search-result__article",
            "as => as.map(a => [a.querySelector('mark') ? a.querySelector('mark').textContent : '', (a.querySelector('.md-search-result__terms') || {}).textContent || ''])",
        )
        marked = [terms for mark, terms in articles if mark.lower().startswith("channel")]
        assert marked and not [terms for terms in marked if "channels_last" in terms], articles[:5]
        log.assert_clean()


def open_search(page):
    page.keyboard.press("/")
    page.locator(".md-search__input").wait_for(state="visible")


def test_text_that_arrives_without_a_key_is_searched(playwright_instance, served_site):
    """Pasting with the mouse, or clicking an input-method candidate, fires `input` and no key."""
    with browser_page(playwright_instance) as (page, log):
        page.goto(served_site)
        open_search(page)
        page.keyboard.insert_text("混合精度")
        page.locator(".md-search-result__item").first.wait_for(timeout=5000)
        assert page_of(result_groups(page)[0][0], served_site) == "releases/1.6/"
        log.assert_clean()


def test_an_input_method_composition_is_not_searched_and_its_enter_opens_nothing(playwright_instance, served_site):
    with browser_page(playwright_instance) as (page, log):
        page.goto(served_site)
        open_search(page)
        client = page.context.new_cdp_session(page)
        page.keyboard.insert_text("分布式")  # results for what was committed before
        wait_for_answer(page, "分布式")
        page.evaluate(  # every query the list answers from now on, in order
            """() => { window.__answered = []; new MutationObserver(() => window.__answered.push(
                document.documentElement.getAttribute('data-search-answered'))).observe(
                document.documentElement, {attributes: true, attributeFilter: ['data-search-answered']}); }"""
        )
        client.send("Input.imeSetComposition", {"text": "xunlian", "selectionStart": 7, "selectionEnd": 7})
        page.wait_for_function("document.querySelector('.md-search__input').value === '分布式xunlian'")
        assert page.input_value(".md-search__input") == "分布式xunlian"
        assert "xunlian" not in page.inner_text(".md-search-result")  # the pinyin is not searched
        # The Enter that picks a candidate (the input method owns it: keyCode 229, isComposing).
        page.evaluate(
            """() => document.querySelector('.md-search__input').dispatchEvent(
                new KeyboardEvent('keydown', {key: 'Enter', code: 'Enter', keyCode: 229, isComposing: true, bubbles: true}))"""
        )
        client.send("Input.insertText", {"text": "训练"})  # the candidate is committed
        wait_for_answer(
            page, "分布式训练"
        )  # searched once committed; an Enter that opened a result would be gone by now
        assert "分布式xunlian" not in page.evaluate("window.__answered")  # answers come in order: none for the pinyin
        assert page.url == served_site  # still here: the Enter did not open the first result
        assert page.input_value(".md-search__input") == "分布式训练"
        marks = page.eval_on_selector_all(".md-search-result mark", "ms => ms.map(m => m.textContent)")
        assert "分布式训练" in marks  # the committed text was searched
        log.assert_clean()


# --- questions about one release: the matrix row, the install section with the reader's platform ----------------


@pytest.mark.parametrize(
    "lang, query, row",
    [
        ("en", "which python does 2.15 support", "compat-2-15"),
        ("zh", "2.15 支持哪些 python", "compat-2-15"),
        ("en", "which python does 1.12 support", "compat-1-12"),
        ("zh", "1.12 支持哪些 python", "compat-1-12"),
    ],
)
def test_a_compatibility_question_opens_the_matrix_at_the_releases_row(
    playwright_instance, served_site, lang, query, row
):
    """The first result is the release's row of the matrix; following it lands on that row, not the matrix's top."""
    with browser_page(playwright_instance, viewport={"width": 1280, "height": 900}) as (page, log):
        page.goto(served_site + HOME[lang])
        warm_up(page, query)
        links, _ = run_query(page, query)
        first = urlparse(links[0])
        assert page_of(links[0], served_site) == f"{PREFIX[lang]}compatibility/" and first.fragment == row, links[:3]
        assert page_of(links[1], served_site) == f"{PREFIX[lang]}releases/{row[7:].replace('-', '.')}/", links[:3]
        with page.expect_navigation():
            page.locator(".md-search-result__item a.md-search-result__link").first.click()
        page.wait_for_load_state("load")
        box = page.locator(f"#{row}").bounding_box()
        assert box is not None and 0 <= box["y"] < 300, box
        log.assert_clean()


@pytest.mark.parametrize(
    "lang, query, compute",
    [
        ("zh", "怎么安装 1.12 的 CPU 版本", "cpu"),
        ("en", "how to install 1.12 CPU version", "cpu"),
        ("en", "install 1.12 cu116", "cuda-11.6"),
    ],
)
def test_an_install_question_naming_a_platform_opens_the_install_section_with_it(
    playwright_instance, served_site, lang, query, compute
):
    """releases/1.12/?compute=cpu#install: the picker's value in the query (the picker reads ?compute=), the
    install section at the top of the screen."""
    with browser_page(playwright_instance, viewport={"width": 390, "height": 844}) as (page, log):
        page.goto(served_site + HOME[lang])
        warm_up(page, query)
        links, _ = run_query(page, query)
        first = urlparse(links[0])
        assert page_of(links[0], served_site) == f"{PREFIX[lang]}releases/1.12/" and first.fragment == "install"
        assert parse_qs(first.query)["compute"] == [compute], links[0]
        with page.expect_navigation():
            page.locator(".md-search-result__item a.md-search-result__link").first.click()
        page.wait_for_load_state("load")
        values = page.eval_on_selector_all("input[name=compute]", "inputs => inputs.map(i => i.value)")
        assert compute in values
        heading = page.locator("#install").bounding_box()
        assert heading is not None and 0 <= heading["y"] < 150, heading
        log.assert_clean()
