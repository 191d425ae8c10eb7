"""Typing queries into the real search box, as a reader does, and reading the result list.

Shared by the search tests and scripts/bench_search.py.
"""

from __future__ import annotations

import time
from urllib.parse import urlparse


def page_of(href: str, base: str) -> str:
    """A result link as a site-relative page URL in directory form (offline `.html` URLs included)."""
    path = href.split("?")[0].split("#")[0]
    path = path[len(base):] if path.startswith(base) else urlparse(path).path.lstrip("/")
    if path.endswith("index.html"):
        path = path[: -len("index.html")]
    elif path.endswith(".html"):
        path = path[: -len(".html")] + "/"
    return path


def type_like_a_reader(page, text: str) -> None:
    """Latin characters as key presses; CJK as an input method commits them: the text is inserted, then a
    key is released (the IME's commit key). Material searches on keyup, which insertText alone never fires."""
    for char in text:
        if ord(char) < 128:
            page.keyboard.type(char, delay=5)
        else:
            page.keyboard.insert_text(char)
            page.keyboard.press("Shift")


def run_query(page, query: str) -> tuple[list[str], float]:
    """Type `query` into the search box; return the result links (one per result group) and the time
    from the last keystroke to the result list changing, in milliseconds."""
    search = page.locator(".md-search__input")
    if not page.evaluate("document.getElementById('__search').checked"):
        page.keyboard.press("/")
        search.wait_for(state="visible")
    search.fill("")
    if len(query) > 1:
        type_like_a_reader(page, query[:-1])
    page.wait_for_timeout(150)  # let results for the partial query arrive before timing the last key
    page.evaluate(
        """() => {
            const targets = [document.querySelector('.md-search-result__meta'), document.querySelector('.md-search-result__list')];
            window.__searchStart = performance.now();
            window.__searchRendered = new Promise(resolve => {
                const observer = new MutationObserver(() => { observer.disconnect(); resolve(performance.now()); });
                targets.forEach(t => observer.observe(t, {childList: true, characterData: true, subtree: true}));
                setTimeout(() => { observer.disconnect(); resolve(NaN); }, 5000);
            });
        }"""
    )
    type_like_a_reader(page, query[-1])
    rendered = page.evaluate("async () => (await window.__searchRendered) - window.__searchStart")
    page.wait_for_timeout(60)
    links = page.eval_on_selector_all(".md-search-result__item > a.md-search-result__link", "as => as.map(a => a.href)")
    return links, rendered


def hit_at_3(links: list[str], base: str, expected: list[str]) -> bool:
    top = []
    for link in links:
        page_url = page_of(link, base)
        if page_url not in top:
            top.append(page_url)
    return any(p in top[:3] for p in expected)
