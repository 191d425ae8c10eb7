"""Built pages parsed once per test process. Many test files read the same pages of the built site, and
BeautifulSoup's parse of a page costs more than most checks made on it (measured: ten test files parsed 252
distinct pages 1,786 times, 92 s of their 103 s on repeats; 13 s once shared). A parsed page is shared by every
test that asks for it, so it is read-only: changing one of its elements raises, and a test that needs to leave
something out skips it as it reads (`within`)."""

from __future__ import annotations

import functools
from pathlib import Path

from bs4 import BeautifulSoup, Tag


class SharedPageChanged(TypeError):
    """A test tried to change a page other tests read too."""


class _ReadOnlyTag(Tag):
    def _refuse(self, *args, **kwargs):
        raise SharedPageChanged(
            "this parsed page is shared by the tests (tests/parsed_pages.py): read it, never change it"
        )

    decompose = extract = replace_with = insert = append = extend = clear = _refuse
    unwrap = wrap = insert_before = insert_after = __setitem__ = __delitem__ = _refuse


@functools.lru_cache(maxsize=512)  # a run reads about 250 distinct pages; each takes ~2.5 MB parsed
def _parse(path: Path, stamp: tuple[int, int]) -> BeautifulSoup:
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    # Read-only once built: the parser itself sets attributes on the tags it makes.
    for tag in soup.find_all(True):
        tag.__class__ = _ReadOnlyTag
    return soup


def parsed_page(path: Path) -> BeautifulSoup:
    """The page at `path` parsed (html.parser), shared with every other test of this process that reads the same
    file as it is now (a rebuilt file, with another size or time, is parsed again)."""
    stat = path.stat()
    return _parse(path.resolve(), (stat.st_mtime_ns, stat.st_size))


def within(node, elements) -> bool:
    """Whether `node` (an element or a string) is one of `elements` or inside one: what a reader of a shared page
    leaves out, where a test of its own copy would have removed them."""
    left_out = {id(element) for element in elements}
    return id(node) in left_out or any(id(parent) in left_out for parent in node.parents)
