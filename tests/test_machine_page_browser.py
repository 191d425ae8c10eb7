"""The machine page in Chromium (tests/browser.py), as a reader uses it, both languages, phone (390×844) and
desktop (1280×900): a link with a query shows its answer with no click (the command the Python verdict gives), the
query round-trips through the form (parse -> form -> URL, and back after a reload), bad values are reported in
words, the environment check reads real pastes and shows the right problems with their fixes, refuses junk, empty
and 1 MB plainly; the release pages link here with the release chosen; the offline copy answers from file://."""

from __future__ import annotations

import pytest
from browser import browser_page
from conftest import ROOT

from scripts.verdicts.machine import machine_answer
from scripts.verdicts.machine_model import Machine, parse_query
from scripts.views.machine.words import WORDS

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PREFIX = {"zh": "", "en": "en/"}
FIXTURES = ROOT / "tests/fixtures/environment"
PASCAL = "os=linux-x86_64&python=3.10&gpu=6.1&driver=535"
# What the form holds, as the query it would send.
FORM = """() => ["os", "python", "gpu", "driver", "glibc", "macos", "date"]
  .map(k => [k, document.getElementById("machine-" + k).value]).filter(p => p[1])
  .map(p => p[0] + "=" + p[1]).join("&")"""


def expected(verdicts, query: str):
    page = verdicts.machine_page
    parsed = parse_query(query, page.pythons, tuple(r.version for r in page.releases))
    assert parsed.machine is not None, query
    result = machine_answer(page.releases, parsed.machine)
    return result, next(f for f in result.fits if f.version == result.best)


def commands(page) -> list[str]:
    return page.eval_on_selector_all("#machine-answer .machine-code", "els => els.map(e => e.textContent)")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_link_with_a_query_shows_its_answer_with_no_click(playwright_instance, served_site, verdicts, lang):
    result, best = expected(verdicts, PASCAL)
    with browser_page(playwright_instance) as (page, log):
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            page.goto(f"{served_site}{PREFIX[lang]}machine/?{PASCAL}")
            page.wait_for_selector("#machine-answer .machine-code")
            assert commands(page)[0] == best.command
            assert WORDS[lang]["best_gpu"].format(version="2.14") == page.inner_text(
                "#machine-answer .machine-headline"
            )
            assert page.evaluate(FORM) == PASCAL
            lines = page.locator("#machine-releases li")
            assert lines.count() == len(result.fits)
            assert WORDS[lang]["status_no"] in lines.first.inner_text()  # 2.15: no cp310 wheel
            # Nothing runs off the side of a phone; every control can be tapped.
            assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
            small = page.eval_on_selector_all(
                "#machine-form select, #machine-form input, #machine-form button, #machine-answer .md-code__button, "
                "#machine-releases a",
                """els => els.filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect())
                .filter(r => r.height < 44).map(r => r.height)""",
            )
            assert small == []
            log.assert_clean()


ROUND_TRIPS = [
    PASCAL,
    "os=macos-arm64&python=3.12&gpu=mps&macos=13.5",
    "os=windows&gpu=8.6&driver=560.94&date=2024-06-01",
    "os=linux-aarch64&glibc=2.35",
]


def test_the_query_round_trips_through_the_form(playwright_instance, served_site):
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        for query in ROUND_TRIPS:
            page.goto(f"{served_site}en/machine/?{query}")
            page.wait_for_selector("#machine-releases li")
            assert page.evaluate(FORM) == query  # parse -> form
            assert page.evaluate("location.search") == "?" + query  # form -> URL
            page.select_option("#machine-python", "3.11")
            page.wait_for_function("location.search.includes('python=3.11')")
            changed = page.evaluate("location.search").lstrip("?")
            shown = page.inner_text("#machine-answer")
            page.goto(page.url)  # the URL the change wrote holds the same machine and the same answer
            page.wait_for_selector("#machine-releases li")
            assert page.evaluate(FORM) == changed
            assert page.inner_text("#machine-answer") == shown
            log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_values_the_page_cannot_use_are_reported_in_words_and_left_out_of_the_url(
    playwright_instance, served_site, lang
):
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{PREFIX[lang]}machine/?os=linux-x86_64&python=3.99&glibc=2.x&gpu=mps")
        page.wait_for_selector("#machine-problems:not([hidden])")
        words = page.inner_text("#machine-problems")
        assert "3.99" in words and "2.x" in words and "mps" in words
        assert WORDS[lang]["k_glibc"] in words
        assert page.evaluate("location.search") == "?os=linux-x86_64"
        page.goto(f"{served_site}{PREFIX[lang]}machine/")
        assert page.inner_text("#machine-answer") == WORDS[lang]["need_os"]
        log.assert_clean()


def paste(page, text: str) -> str:
    """Text put into the box as a paste puts it (Playwright's typing of a megabyte would take minutes), checked.
    The previous result is cleared first, so what is waited for and read is this paste's result (the check draws
    all of it in the click's one task), never the last one's."""
    page.eval_on_selector("#machine-env-text", "(box, text) => { box.value = text; }", text)
    page.eval_on_selector("#machine-env-result", "result => { result.textContent = ''; }")
    page.click("#machine-env button")
    page.wait_for_selector("#machine-env-result p")
    return page.inner_text("#machine-env-result")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_environment_check_reads_real_pastes_and_says_what_is_wrong(playwright_instance, served_site, lang):
    w = WORDS[lang]
    real = (FIXTURES / "collect_env-2.2-linux-rtx3060ti.txt").read_text(encoding="utf-8")
    with browser_page(playwright_instance) as (page, log):
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            page.goto(f"{served_site}{PREFIX[lang]}machine/")
            page.wait_for_selector("#machine-env-text")
            text = paste(page, real)
            assert w["env_ok"] in text and "torch 2.2.2+cu121" in text
            # The form now holds the pasted machine, and the answer for it shows.
            assert page.evaluate(FORM) == "os=linux-x86_64&python=3.12&gpu=8.6&driver=550.67&glibc=2.39"
            assert "release=2.2" in page.evaluate("location.search")
            page.wait_for_selector("#machine-answer .machine-code")
            # The same paste with a driver too old for its CUDA 12.1 build: the problem and the command that fixes it.
            text = paste(page, real.replace("Nvidia driver version: 550.67", "Nvidia driver version: 470.82"))
            assert w["env_p_driver"].format(torch="2.2.2+cu121", cuda="12.1", need="525", driver="470.82") in text
            fix = page.inner_text("#machine-env-result .machine-code")
            assert fix.endswith("--index-url https://download.pytorch.org/whl/cu118") and "torch==2.2.2" in fix
            # Junk, nothing and a megabyte: "could not read", at once.
            for junk, code in (
                ("hello\nworld", "unrecognized"),
                ("   ", "empty"),
                ("torch==2.0.0\n" * 90000, "too-large"),
            ):
                assert paste(page, junk) == w["env_fail"].format(reason=w[f"env_fail_{code}"])
            assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
            log.assert_clean()


def test_a_release_page_links_here_with_its_release_chosen(playwright_instance, served_site):
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}en/releases/1.12/")
        page.click("a.quick-machine")
        page.wait_for_url("**/en/machine/?release=1.12")
        page.select_option("#machine-os", "windows")
        page.wait_for_selector("#machine-releases li.machine-chosen")
        assert page.inner_text("#machine-releases li.machine-chosen").startswith("PyTorch 1.12")
        assert page.evaluate("location.search") == "?os=windows&release=1.12"
        log.assert_clean()


def test_the_offline_copy_answers_from_disk(playwright_instance, offline_copy, verdicts):
    _, best = expected(verdicts, PASCAL)
    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto((offline_copy / "en" / "machine.html").as_uri() + "?" + PASCAL)
        page.wait_for_selector("#machine-answer .machine-code")
        assert commands(page)[0] == best.command
        link = page.get_attribute("#machine-releases li a", "href")
        assert link and link.endswith(".html")
        log.assert_clean()


def test_a_machine_named_in_python_is_the_one_the_page_shows(verdicts):
    """The query the tests build is the machine the verdict reads (guards the helpers above)."""
    result, best = expected(verdicts, PASCAL)
    assert result.machine == Machine("linux-x86_64", "3.10", "6.1", "535") and best.version == "2.14"
