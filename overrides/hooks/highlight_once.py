"""MkDocs hook: each distinct code block is highlighted once per build, not once per page and language.

Pygments is the largest single cost of rendering the pages (a formatter with its style sheet per block, then the
lexer), and half the blocks repeat one another: the Chinese and English page of a release share their examples and
install commands, and several install choices show the same command. pymdownx.highlight's block highlighting is a
pure function of the code, its options and the extension's settings, so its HTML is kept, keyed on all of them, and
given back for the next identical block. Left to the extension as it is: inline code (an element its caller goes on
changing), titles that may be HTML (kept in the page's own stash), and rendering without Pygments (cheap, and what
the page check in scripts/checks/markup/page_markup.py uses).
"""

from __future__ import annotations

import inspect

from pymdownx.highlight import Highlight

# `mkdocs serve` keeps one process across rebuilds: the memo is emptied when it holds this many blocks (the
# site has about a thousand distinct ones).
CACHE_SIZE = 8192
ORIGINAL = getattr(Highlight.highlight, "original", Highlight.highlight)  # the extension's own, once hooked
SIGNATURE = inspect.signature(ORIGINAL)
_memo: dict[tuple, str] = {}


def _settings(highlighter: Highlight) -> str:
    """The extension's settings that shape a block's HTML: every attribute but the Markdown instance."""
    return repr(sorted((name, repr(value)) for name, value in vars(highlighter).items() if name != "md"))


def memo_key(highlighter: Highlight, args: tuple, kwargs: dict) -> tuple | None:
    """What a block's HTML depends on, or None where it depends on more (see the module docstring)."""
    bound = SIGNATURE.bind(highlighter, *args, **kwargs)
    bound.apply_defaults()
    options = dict(bound.arguments)
    del options["self"]
    if options["inline"] or not highlighter.use_pygments:
        return None
    if highlighter.title_mode == "html" or highlighter.auto_title:
        return None
    if not (highlighter.line_spans or highlighter.line_anchors):
        del options["code_block_count"]  # it only names line anchors
    return (_settings(highlighter), repr(sorted(options.items())))


def highlight_once(self: Highlight, *args, **kwargs):
    key = memo_key(self, args, kwargs)
    if key is None:
        return ORIGINAL(self, *args, **kwargs)
    html = _memo.get(key)
    if html is None:
        if len(_memo) >= CACHE_SIZE:
            _memo.clear()
        html = _memo[key] = ORIGINAL(self, *args, **kwargs)
    return html


highlight_once.original = ORIGINAL  # type: ignore[attr-defined]


def on_config(config):
    Highlight.highlight = highlight_once  # type: ignore[method-assign]
    return config
