"""Code points that page metadata, titles, ids and file names may not hold, and how a message names one.

- **Not XML** (`NOT_XML_CHARACTERS_RE`): C0 controls other than tab, LF and CR; surrogates (only lone ones
  survive decoding); the noncharacters U+FDD0-U+FDEF and U+xFFFE/U+xFFFF of every plane, which YAML's "\\uFFFE"
  escapes let through though its reader refuses them written raw. Every front matter text reaches the RSS feed,
  which would no longer be XML.
- **Invisible and bidirectional controls** (`INVISIBLE_RE`): the embeddings, overrides and isolates
  (U+202A-U+202E, U+2066-U+2069) and the marks (U+200E, U+200F, U+061C) that reorder what a reader sees, so
  that a title or an id reads differently from what it is ("Trojan Source"); the zero-width and invisible
  characters (U+200B-U+200D, U+2060-U+2064, U+180E, U+FEFF anywhere but a file's first character, which the
  readers drop) and the Hangul fillers that print as nothing (U+115F, U+1160, U+3164, U+FFA0), with which two
  different strings look the same. Chinese text needs none of them (the search separates words itself).
"""

from __future__ import annotations

import re
import unicodedata

NOT_XML_CHARACTERS_RE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
    + "]"
)
INVISIBLE_RE = re.compile(
    "[\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0]"
)


def describe(character: str) -> str:
    """`U+202E (RIGHT-TO-LEFT OVERRIDE)`: how a message names a code point it cannot show."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def invisible_problem(text: str, what: str) -> str | None:
    """Why `text` (described as `what`, e.g. "a heading") may not be used, or None when it holds no invisible or
    bidirectional control."""
    found = INVISIBLE_RE.search(text)
    if not found:
        return None
    return (
        f"{describe(found.group())} is not allowed in {what}: bidirectional and invisible controls make text "
        "read differently from what it is; remove it"
    )
