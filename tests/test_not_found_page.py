"""The 404 page (overrides/404.html, overrides/hooks/not_found_page.py, docs/assets/javascripts/search/not-found.js):
one page for both languages, whose links work on any host and port and under a sub-path, with a language
menu to each language's home, and search that leads with the reader's language (an /en/ URL is English)."""

from __future__ import annotations

import functools
import http.server
import io
import re
import socketserver
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser import browser_page
from bs4 import BeautifulSoup
from conftest import FIXTURES, copy_project, mkdocs_build
from search_ui import result_groups, run_query


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def check_links(soup: BeautifulSoup, root: str) -> None:
    assert soup.html is not None and soup.html["lang"] == "zh"  # the default language's build, not the last one built
    message = soup.select_one("[data-not-found]")
    assert message is not None
    zh, en = message.select_one('[lang="zh"]'), message.select_one('h1 [lang="en"]')
    assert zh is not None and "页面不存在" in zh.get_text()
    assert en is not None and "Page not found" in en.get_text()
    assert [a["href"] for a in message.select("a")] == [root, root + "en/"]
    menu = {a["hreflang"]: a["href"] for a in soup.select("a.md-select__link")}
    assert menu == {"zh": root, "en": root + "en/"}
    hrefs = [str(a["href"]) for a in soup.select("a[href]")] + [str(t["src"]) for t in soup.select("script[src]")]
    assert not [h for h in hrefs if "://" in h], "a 404 page can be served on any host: no absolute URLs"


def test_one_404_page_for_both_languages(built_site):
    check_links(soup_of(built_site / "404.html"), "/")
    assert not (built_site / "en" / "404.html").exists()


@pytest.fixture(scope="module")
def sub_path_site(tmp_path_factory) -> Path:
    """The fixture docs built for a site hosted under a sub-path (as a project site on GitHub Pages)."""
    tmp = tmp_path_factory.mktemp("sub-path")
    project = copy_project(tmp / "project", docs=FIXTURES / "site")
    site = tmp / "site"
    result = mkdocs_build(project, site, env={"SITE_URL": "https://example.org/timeline/"})
    assert result.returncode == 0, result.stdout + result.stderr
    return site


def test_404_links_start_at_the_site_url_path(sub_path_site):
    check_links(soup_of(sub_path_site / "404.html"), "/timeline/")


class _StaticHost(http.server.SimpleHTTPRequestHandler):
    """A static host serving the site under PREFIX, and its 404.html (status 404) for anything missing."""

    prefix = "/"

    def log_message(self, format, *args):  # noqa: A002 - signature fixed by the base class
        pass

    def send_head(self):
        path = self.path.split("?")[0]
        if path.startswith(self.prefix):
            self.path = "/" + self.path[len(self.prefix) :]
            target = Path(self.translate_path(self.path))
            if target.is_file() or (target / "index.html").is_file():
                return super().send_head()
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextmanager
def static_host(directory: Path, prefix: str):
    handler = functools.partial(type("Host", (_StaticHost,), {"prefix": prefix}), directory=str(directory))
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()


@pytest.mark.browser
def test_404_reads_in_the_language_of_the_missing_url_and_its_links_work(playwright_instance, sub_path_site):
    with static_host(sub_path_site, "/timeline/") as host, browser_page(playwright_instance) as (page, log):
        response = page.goto(host + "/timeline/en/releases/9.9/")
        assert response.status == 404
        assert page.locator("[data-not-found] p").first.get_attribute("lang") == "en"
        with page.expect_navigation():
            page.locator('[data-not-found] p[lang="en"] a').click()
        assert page.url == host + "/timeline/en/" and page.evaluate("document.documentElement.lang") == "en"

        page.goto(host + "/timeline/no/such/page/")
        assert page.locator("[data-not-found] p").first.get_attribute("lang") == "zh"
        with page.expect_navigation():
            page.locator('[data-not-found] p[lang="zh"] a').click()
        assert page.url == host + "/timeline/" and page.evaluate("document.documentElement.lang") == "zh"
        assert log.page_errors == [] and log.foreign_requests == []


@pytest.mark.browser
def test_404_search_leads_with_the_readers_language_and_labels_the_other(playwright_instance, sub_path_site):
    with static_host(sub_path_site, "/timeline/") as host, browser_page(playwright_instance) as (page, log):
        for missing, reader in (("/timeline/releases/9.9/", "zh"), ("/timeline/en/releases/9.9/", "en")):
            page.goto(host + missing)
            run_query(page, "1.6")
            other = "/timeline/releases/" if reader == "en" else "/timeline/en/releases/"
            page.wait_for_function(  # the other language's results join the list
                "other => [...document.querySelectorAll('.md-search-result__item a')].some(a => new URL(a.href).pathname.startsWith(other))",
                arg=other,
            )
            groups = result_groups(page)
            assert groups, missing
            first = groups[0][0]
            assert ("/timeline/en/" in first) == (reader == "en"), (missing, first)
            labels = page.eval_on_selector_all(
                ".md-search-result__item",
                "items => items.map(i => [i.querySelector('a').href, !!i.querySelector('.search-other-language')])",
            )
            # A result is labelled "other language" exactly when it is not in the reader's language.
            assert all(marked == (("/timeline/en/" in href) != (reader == "en")) for href, marked in labels), labels
        # The only errors: Chromium's note that each missing page answered 404, which is the point.
        assert [e for e in log.console_errors if "status of 404" not in e] == [] and log.page_errors == []
        assert len(log.console_errors) == 2


def test_the_404_page_carries_the_english_chrome_as_data(built_site):
    """The English build's header, menu, search box and footer, as text and attribute values only: no markup
    goes into the page from the data, and the language menu keeps leading to each language's home."""
    import json

    soup = soup_of(built_site / "404.html")
    data = json.loads(soup.select_one("script#not-found-chrome").get_text())
    english = data["en"]
    assert english["lang"] == "en" and english["title"] == "PyTorch Release Timeline"
    values = [change[3] for change in english["body"]]
    assert "Search" in values and any("Facts from the official PyTorch release posts" in v for v in values)
    assert not [v for v in values if "<" in v], "values are text, never markup"
    assert {change[1] for change in english["body"]} <= {
        None,
        "title",
        "aria-label",
        "placeholder",
        "alt",
        "href",
        "hreflang",
        "lang",
    }


@pytest.mark.browser
@pytest.mark.parametrize(
    "missing, lang",
    [("/timeline/en/releases/9.9/", "en"), ("/timeline/en/no-such-page", "en"), ("/timeline/no/such/page/", "zh")],
)
def test_404_chrome_follows_the_language_of_the_missing_url(playwright_instance, sub_path_site, missing, lang):
    from test_site import chrome_language_problems, chrome_texts

    with (
        static_host(sub_path_site, "/timeline/") as host,
        browser_page(playwright_instance, viewport={"width": 1280, "height": 900}) as (page, log),
    ):
        assert page.goto(host + missing).status == 404
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.get_attribute("input.md-search__input", "placeholder") == {"zh": "搜索", "en": "Search"}[lang]
        assert bool(re.search(r"[\u4e00-\u9fff]", page.title())) == (lang == "zh")
        live = BeautifulSoup(page.content(), "html.parser")
        problems = chrome_language_problems(chrome_texts(live), lang)
        assert problems == [], problems[:5]
        # The menu leads into the reader's language, under the site's path.
        home = live.select_one(".md-sidebar--primary a.md-nav__link")["href"]
        assert home.startswith("/timeline/en/" if lang == "en" else "/timeline/") and (lang == "en") == home.startswith(
            "/timeline/en/"
        )
        # Material's own strings (search messages) come from the page config, switched before it starts.
        page.locator("label.md-search__icon, .md-search__input").first.click()
        initial = page.inner_text(".md-search-result__meta")
        page.fill("input.md-search__input", "zzzzqqq")
        page.wait_for_function(  # the answer to the query replaces "type to start searching"
            "initial => document.querySelector('.md-search-result__meta').innerText !== initial", arg=initial
        )
        meta = page.inner_text(".md-search-result__meta")
        assert bool(re.search(r"[\u4e00-\u9fff]", meta)) == (lang == "zh"), meta
        assert log.page_errors == [] and log.foreign_requests == []
