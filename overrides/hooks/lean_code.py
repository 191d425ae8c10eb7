"""MkDocs hook: code blocks without the markup that changes nothing on screen.

Pygments wraps every token of a highlighted block in a span. Two kinds draw exactly like the text around
them: names (`n`, coloured `--md-code-hl-name-color`, which Material sets to the code's own colour, and
this site's stylesheets leave alone: tests/test_lean_code.py checks both) and whitespace (`w`, no rule at
all). On a long release page they are a quarter of the page's elements (2.14: 1,112 of 5,109), each one
styled and laid out on a phone before the reader sees anything. Their text stays, unwrapped, so the code
reads, copies, searches and highlights as before.
"""

from __future__ import annotations

import re

# Only inside <pre> (highlighted blocks); a span of these classes holds escaped text and nothing else.
PRE = re.compile(r"<pre\b[^>]*>.*?</pre>", re.S)
PLAIN_TOKEN = re.compile(r'<span class="(?:n|w)">([^<]*)</span>')


def unwrap_plain_tokens(html: str) -> str:
    return PRE.sub(lambda block: PLAIN_TOKEN.sub(r"\1", block.group(0)), html)


def on_page_content(html, page, config, files):
    return unwrap_plain_tokens(html)
