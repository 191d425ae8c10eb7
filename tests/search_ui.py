"""Typing queries into the real search box, as a reader does, and reading the result list.

Shared by the search tests and scripts/bench/search.py.
"""

from __future__ import annotations

from urllib.parse import urlparse


def page_of(href: str, base: str) -> str:
    """A result link as a site-relative page URL in directory form (offline `.html` URLs included)."""
    path = href.split("?")[0].split("#")[0]
    path = path[len(base) :] if path.startswith(base) else urlparse(path).path.lstrip("/")
    if path.endswith("index.html"):
        path = path[: -len("index.html")]
    elif path.endswith(".html"):
        path = path[: -len(".html")] + "/"
    return path


def type_like_a_reader(page, text: str, commit_key: bool = False) -> None:
    """Latin characters as key presses; CJK as an input method commits them: the text arrives in the box
    with no key of its own (an `input` event only). Material searches on keyup; the site's search box
    layer (docs/assets/javascripts/search/box.js) makes the inserted text search too. `commit_key` also
    releases a key after it, as some input methods do (and as a build without that layer needs)."""
    for char in text:
        if ord(char) < 128:
            page.keyboard.type(char, delay=5)
        else:
            page.keyboard.insert_text(char)
            if commit_key:
                page.keyboard.press("Shift")


def wait_for_answer(page, query: str, timeout_ms: float = 60_000) -> None:
    """Until the result list on screen answers `query` (docs/assets/javascripts/search/box.js marks the root element
    with the query the worker answered, once Material has drawn it): an event, not a timer, so a slow machine only
    waits longer. The deadline is a failure."""
    page.wait_for_function(
        "query => document.documentElement.getAttribute('data-search-answered') === query",
        arg=query,
        timeout=timeout_ms,
    )


def run_query(page, query: str, commit_key: bool = False) -> tuple[list[str], float]:
    """Type `query` into the search box; return the result links (the page's entry and sections of each
    result group, in order) and the time from the last keystroke to the result list changing, in ms."""
    search = page.locator(".md-search__input")
    if not page.evaluate("document.getElementById('__search').checked"):
        page.keyboard.press("/")
        search.wait_for(state="visible")
    search.fill("")
    if len(query) > 1:
        type_like_a_reader(page, query[:-1], commit_key)
        wait_for_answer(page, query[:-1])  # the partial query's results are drawn before the last key is timed
    page.evaluate(
        """() => {
            const targets = [document.querySelector('.md-search-result__meta'), document.querySelector('.md-search-result__list')];
            window.__searchStart = performance.now();
            window.__searchFramed = NaN;
            window.__searchRendered = new Promise(resolve => {
                const observer = new MutationObserver(() => {
                    observer.disconnect();
                    // Also when the frame that shows it has been drawn (the benchmark reports both).
                    requestAnimationFrame(() => setTimeout(() => { window.__searchFramed = performance.now(); }, 0));
                    resolve(performance.now());
                });
                targets.forEach(t => observer.observe(t, {childList: true, characterData: true, subtree: true}));
                setTimeout(() => { observer.disconnect(); resolve(NaN); }, 5000);
            });
        }"""
    )
    type_like_a_reader(page, query[-1], commit_key)
    rendered = page.evaluate("async () => (await window.__searchRendered) - window.__searchStart")
    wait_for_answer(page, query)
    links = page.eval_on_selector_all(".md-search-result__item > a.md-search-result__link", "as => as.map(a => a.href)")
    return links, rendered


def answer_of(page, query: str) -> list[str]:
    """The result links for `query` put into the box in one go (as a paste is): for the query set's hit@3, which
    only the final answer decides. run_query types key by key, for the timings and the input paths."""
    if not page.evaluate("document.getElementById('__search').checked"):
        page.keyboard.press("/")
        page.locator(".md-search__input").wait_for(state="visible")
    # The same query twice in a row must be searched again, not read off the previous answer's mark.
    page.locator(".md-search__input").fill("")
    page.evaluate("document.documentElement.removeAttribute('data-search-answered')")
    page.locator(".md-search__input").fill(query)
    wait_for_answer(page, query)
    return page.eval_on_selector_all(".md-search-result__item > a.md-search-result__link", "as => as.map(a => a.href)")


def result_groups(page) -> list[list[str]]:
    """Every link of every result group (the page's entry first, then its sections), in order."""
    return page.eval_on_selector_all(
        ".md-search-result__item",
        "items => items.map(item => [...item.querySelectorAll('a.md-search-result__link')].map(a => a.href))",
    )


def section_of(href: str, base: str) -> str:
    """A result link as `page_of` gives it, with its #fragment."""
    fragment = href.split("#", 1)[1] if "#" in href else ""
    return page_of(href, base) + ("#" + fragment if fragment else "")


def hit_at_3(links: list[str], base: str, expected: list[str]) -> bool:
    """Is an expected page among the first three result pages? An expected `page/#section` must be that
    section's own entry, shown (not folded under "more on this page") in one of those three groups."""
    top, shown = [], set()
    for link in links:
        page_url = page_of(link, base)
        if page_url not in top:
            top.append(page_url)
        if page_url in top[:3]:
            shown.add(section_of(link, base))
    return any((p in shown) if "#" in p else (p in top[:3]) for p in expected)


FULL_INDEX = 'html[data-search-index~="zh.text"][data-search-index~="en.text"]'


def wait_for_full_index(page, timeout_ms: float = 30_000) -> None:
    """Until the worker holds both languages' full text (docs/assets/javascripts/search/box.js lists the
    parts it has on the root element): results judged before then come from the first part only."""
    page.wait_for_selector(FULL_INDEX, state="attached", timeout=timeout_ms)


def warm_up(page, query: str) -> None:
    """A first query, which loads the index, and the wait for its full text."""
    run_query(page, query)
    wait_for_full_index(page)
