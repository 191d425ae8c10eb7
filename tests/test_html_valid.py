"""Gate: the Nu HTML checker finds no error in any built page, hosted or offline, beyond the allowlist of
markup Material writes on purpose (scripts/checks/nu_html.py says why for each)."""

from __future__ import annotations

import pytest

from scripts.checks.nu_html import ALLOWLIST, CheckerUnavailable, check_site, errors_of, run_vnu, split_allowed


def checked(site):
    try:
        return check_site(site)
    except CheckerUnavailable as exc:
        pytest.fail(f"the HTML gate cannot run: {exc}")


@pytest.mark.slow
def test_hosted_pages_are_valid_html(built_site):
    remaining, used, count = checked(built_site)
    assert count > 80
    assert [str(p) for p in remaining] == []
    assert used == set(ALLOWLIST), "an allowlist entry matches nothing any more: remove it"


@pytest.mark.slow
def test_offline_pages_are_valid_html(offline_copy):
    remaining, _, count = checked(offline_copy)
    assert count > 80
    assert [str(p) for p in remaining] == []


def test_checker_reports_our_kind_of_mistake_with_page_and_line(tmp_path):
    page = tmp_path / "releases" / "index.html"
    page.parent.mkdir()
    page.write_text(
        '<!doctype html>\n<html lang="en"><head><title>t</title></head><body>\n'
        '<p id="a">one</p>\n<p id="a">two</p>\n<table><tr><td>x</td></tr></table><span><div>block in inline</div></span>\n'
        '<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer" autocomplete="off">\n</body></html>\n',
        encoding="utf-8",
    )
    try:
        problems = errors_of(run_vnu([page]), tmp_path)
    except CheckerUnavailable as exc:
        pytest.fail(f"the HTML gate cannot run: {exc}")
    remaining, used = split_allowed(problems)
    lines = {(p.page, p.line) for p in remaining}
    assert ("releases/index.html", 4) in lines, remaining  # duplicate id
    assert ("releases/index.html", 5) in lines, remaining  # div inside span
    assert used == set(ALLOWLIST) and all(p.line != 6 for p in remaining)
