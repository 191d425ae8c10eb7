"""The shared parse of built pages (tests/parsed_pages.py): parsed once while the file is unchanged, read-only,
and `within` leaves out what a test would have removed from a copy of its own."""

from __future__ import annotations

import os

import pytest
from parsed_pages import SharedPageChanged, parsed_page, within


def test_a_page_is_parsed_once_until_its_file_changes(tmp_path):
    page = tmp_path / "index.html"
    page.write_text("<main><p class='a'>one</p></main>", encoding="utf-8")
    first = parsed_page(page)
    assert parsed_page(page) is first
    page.write_text("<main><p class='a'>two, longer</p></main>", encoding="utf-8")
    os.utime(page, ns=(1, 1))  # another time too, whatever the clock's resolution
    assert parsed_page(page).select_one("p.a").get_text() == "two, longer"


@pytest.mark.parametrize(
    "change",
    [
        lambda soup: soup.select_one("p").decompose(),
        lambda soup: soup.select_one("p").extract(),
        lambda soup: soup.select_one("main").append("more"),
        lambda soup: soup.select_one("p").replace_with("text"),
        lambda soup: soup.select_one("p").__setitem__("class", "b"),
        lambda soup: soup.select_one("p").__delitem__("class"),
        lambda soup: soup.select_one("p").unwrap(),
        lambda soup: soup.select_one("main").clear(),
    ],
    ids=["decompose", "extract", "append", "replace_with", "set-attribute", "delete-attribute", "unwrap", "clear"],
)
def test_a_shared_page_cannot_be_changed(tmp_path, change):
    page = tmp_path / "index.html"
    page.write_text("<main><p class='a'>one</p></main>", encoding="utf-8")
    with pytest.raises(SharedPageChanged):
        change(parsed_page(page))
    assert str(parsed_page(page).select_one("main")) == '<main><p class="a">one</p></main>'


def test_within_finds_an_element_its_strings_and_its_descendants(tmp_path):
    page = tmp_path / "index.html"
    page.write_text("<main><p class='label'>x <b>y</b></p><p>z</p></main>", encoding="utf-8")
    soup = parsed_page(page)
    labels = soup.select(".label")
    assert [str(s) for s in soup.strings if not within(s, labels)] == ["z"]
    assert [p.get_text() for p in soup.find_all(["p", "b"]) if not within(p, labels)] == ["z"]
