"""The answers in a browser (Chromium): quick facts on the first screen, the install picker, a matrix without an
inner scroll box whose header stays in view."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PREFIX = {"zh": "", "en": "en/"}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("viewport, screens", [(DESKTOP, 1), (PHONE, 2)])
@pytest.mark.parametrize("version", ["2.14", "1.8", "0.4"])
def test_quick_facts_are_on_the_first_screen(playwright_instance, served_site, lang, viewport, screens, version):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(f"{served_site}{PREFIX[lang]}releases/{version}/")
        box = page.locator("section.quick-facts").bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= viewport["height"] * screens, (box, viewport)
        assert page.locator(".quick-links a[href='#install']").is_visible()
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_install_picker_gives_one_command_or_says_why_not_and_remembers(playwright_instance, served_site, lang):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=DESKTOP) as (page, log):
        page.goto(f"{served_site}{PREFIX[lang]}releases/2.4/#install")
        form = page.locator(".install-choices")
        assert form.is_visible()

        def shown():
            return page.eval_on_selector_all(
                ".install-option:not([hidden]) code", "els => els.map(e => e.textContent.trim())"
            )

        assert shown() == ["pip install torch==2.4.1 torchvision==0.19.1 torchaudio==2.4.1"]
        page.check("input[name=compute][value='cuda-12.1']")
        assert shown() == [
            "pip install torch==2.4.1 torchvision==0.19.1 torchaudio==2.4.1 --index-url https://download.pytorch.org/whl/cu121"
        ]
        page.check("input[name=os][value='macos-arm64']")
        assert shown() == []
        reason = page.locator(".install-reason:not([hidden])")
        assert reason.count() == 1 and "CUDA" in reason.text_content()
        page.check("input[name=os][value='macos-x86_64']")
        page.check("input[name=compute][value='default']")
        assert shown() == [] and "2.2.2" in page.locator(".install-reason:not([hidden])").text_content()
        page.check("input[name=os][value='windows']")
        page.check("input[name=pm][value='conda']")
        page.check("input[name=compute][value='cpu']")
        assert shown() == ["conda install pytorch==2.4.1 torchvision==0.19.1 torchaudio==2.4.1 cpuonly -c pytorch"]
        page.reload()
        assert page.locator("input[name=os][value='windows']").is_checked()
        assert shown() == ["conda install pytorch==2.4.1 torchvision==0.19.1 torchaudio==2.4.1 cpuonly -c pytorch"]
        # Another release: the choice carries over where it exists, and conda after 2.5 says why not.
        page.goto(f"{served_site}{PREFIX[lang]}releases/2.6/#install")
        assert shown() == [] and page.locator(".install-reason:not([hidden])").count() == 1
        log.assert_clean()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_the_matrix_has_no_inner_scroll_box_and_its_header_stays_in_view(
    playwright_instance, served_site, lang, viewport
):
    from browser import browser_page

    with browser_page(playwright_instance, viewport=viewport) as (page, log):
        page.goto(f"{served_site}{PREFIX[lang]}compatibility/")
        scrollers = page.eval_on_selector(
            "#compat-table",
            """t => { const out = []; for (let e = t.parentElement; e && e !== document.body; e = e.parentElement) {
                 const s = getComputedStyle(e); if (/(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight) out.push(e.className); }
               return out; }""",
        )
        assert scrollers == []
        row = page.locator("#compat-2-4")
        row.scroll_into_view_if_needed()
        if viewport is DESKTOP:
            header = page.locator("#compat-table thead th").first.bounding_box()
            assert 0 <= header["y"] < 120, header
        else:
            box = row.bounding_box()
            assert box["height"] <= PHONE["height"], "a release's answers fit on one phone screen"
        page.select_option("#compat-platform", "linux-aarch64")
        assert page.locator("#compat-1-10 [data-python-by-platform] .verdict-value").text_content() == "3.6–3.10"
        page.select_option("#compat-release", "1.8")
        assert page.eval_on_selector_all(
            "#compat-table tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.version)"
        ) == ["1.8"]
        log.assert_clean()


def test_off_screen_code_and_lifecycle_rows_are_drawn_when_reached_and_in_print(playwright_instance, served_site):
    """Long pages skip styling what lies off screen (content-visibility: auto) until the reader gets near it:
    the last code block of 2.14 is skipped at load on a phone and drawn once scrolled to; a link to a feature
    deep in the lifecycle lands on it, drawn; print draws everything."""
    from browser import browser_page

    drawn = "el => el.checkVisibility({contentVisibilityAuto: true})"
    with browser_page(playwright_instance, viewport=PHONE) as (page, log):
        page.goto(f"{served_site}releases/2.14/")
        last = page.locator("div.highlight code").last
        assert last.evaluate("el => getComputedStyle(el.closest('div.highlight')).contentVisibility") == "auto"
        assert last.evaluate(drawn) is False
        last.evaluate("el => el.scrollIntoView()")
        page.wait_for_function("el => el.checkVisibility({contentVisibilityAuto: true})", arg=last.element_handle())
        page.emulate_media(media="print")
        assert page.locator("div.highlight").first.evaluate("el => getComputedStyle(el).contentVisibility") == "visible"
        page.emulate_media(media="screen")

        page.goto(f"{served_site}lifecycle/")
        feature_id = page.locator("li.lifecycle-feature").nth(200).get_attribute("id")
        page.goto(f"{served_site}lifecycle/#{feature_id}")
        target = page.locator(f"#{feature_id}")
        page.wait_for_function("el => el.checkVisibility({contentVisibilityAuto: true})", arg=target.element_handle())
        box = target.bounding_box()
        assert box is not None and 0 <= box["y"] < PHONE["height"], box
        log.assert_clean()
