"""Compare what a `>>>` example printed with what the page shows, the way a reader would, in linear time.

Never reformats the page. A shown output matches when, after trailing whitespace is dropped:
- it is identical, or
- `...` in it stands for any text (doctest's ELLIPSIS, always on), `0x...` addresses are any address,
  and inside `tensor(...)`/`array(...)` floats may differ within the printed precision (the rounding of
  each side, plus one unit in the finer printed digit or 1e-4 relative for float noise) and whitespace may differ
  (so `tensor([0.3, 0.6])` matches torch's `tensor([0.3000, 0.6000])`); integers must be equal.

No regular expression is built from the page (`...` as `.*?` backtracks: 8 wildcards against 5,000
characters never ended). As doctest's own `_ellipsis_match` does, the shown output is split on `...` into
pieces, the first piece must match at the start, the last at the end, and each piece between is found
left to right where it first matches. A piece matches from a given position in one way only (numbers and
addresses are read whole, whitespace greedily), so the work is bounded: inputs are capped in size
(beyond MAX_WANT/MAX_GOT only an exact match counts) and the matcher stops after MAX_STEPS positions tried,
raising `TooCostly`, which fails the example with its own message. A step count, not a clock: the verdict
does not depend on how busy the machine is.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["MAX_GOT", "MAX_STEPS", "MAX_WANT", "TooCostly", "explain", "output_matches"]

NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)"
NUMBER_RE = re.compile(rf"(?<![\w.])(?:{NUMBER})(?![\w])")
NUMBER_AT = re.compile(NUMBER)
SPAN_START_RE = re.compile(r"(?<![\w.])(tensor|array)\(")
HEX_RE = re.compile(r"0x[0-9a-fA-F]+")
SPAN_TOKEN_RE = re.compile(rf"\.\.\.|\s+|{NUMBER_RE.pattern}")
SPACES_AT = re.compile(r"\s*")
ELLIPSIS = "..."
MAX_WANT = 64 << 10  # characters of shown output compared with wildcards and tolerance; longer: exactly
MAX_GOT = (1 << 20) + 1  # characters of printed output (the supervisor keeps no more)
MAX_STEPS = 2_000_000  # start positions and tokens tried in all; more fails the example (`TooCostly`)


class TooCostly(ValueError):
    """The shown output's wildcards would take too long to place in what was printed."""


@dataclass(frozen=True)
class _Token:
    kind: str  # text (exact) | hex (any 0x address) | space (any whitespace, in tensors) | number (in tensors)
    text: str = ""


def _clean(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def _spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each tensor(...)/array(...) span, parentheses balanced (or to the end)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        match = SPAN_START_RE.search(text, pos)
        if not match:
            return spans
        depth = 0
        end = len(text)
        for i in range(match.end() - 1, len(text)):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
        spans.append((match.start(), end))
        pos = end


def _plain_tokens(text: str) -> list[_Token | None]:
    """Tokens of text outside tensors: `...` is a wildcard (None), addresses are any address."""
    out: list[_Token | None] = []
    for k, piece in enumerate(text.split(ELLIPSIS)):
        if k:
            out.append(None)
        pos = 0
        for match in HEX_RE.finditer(piece):
            out.append(_Token("text", piece[pos : match.start()]))
            out.append(_Token("hex"))
            pos = match.end()
        out.append(_Token("text", piece[pos:]))
    return out


def _tensor_tokens(text: str) -> list[_Token | None]:
    """Tokens of a tensor span: numbers with tolerance, whitespace flexible, `...` a wildcard."""
    out: list[_Token | None] = []
    pos = 0
    for match in SPAN_TOKEN_RE.finditer(text):
        out.append(_Token("text", text[pos : match.start()]))
        token = match.group(0)
        if token == ELLIPSIS:
            out.append(None)
        elif token.isspace():
            out.append(_Token("space"))
        else:
            out.append(_Token("number", token))
        pos = match.end()
    out.append(_Token("text", text[pos:]))
    return out


def _pieces(want: str) -> list[list[_Token]]:
    """The shown output as pieces between wildcards, each a list of tokens (empty text dropped)."""
    tokens: list[_Token | None] = []
    pos = 0
    for start, end in _spans(want):
        tokens += _plain_tokens(want[pos:start])
        tokens += _tensor_tokens(want[start:end])
        pos = end
    tokens += _plain_tokens(want[pos:])
    pieces: list[list[_Token]] = [[]]
    for token in tokens:
        if token is None:
            pieces.append([])
        elif token.kind != "text" or token.text:
            pieces[-1].append(token)
    return pieces


def _unit(token: str) -> float:
    """One unit in the last printed digit: "0.3000" -> 1e-4, "1.5e-03" -> 1e-4, "2." -> 1."""
    mantissa, _, exponent = token.lower().lstrip("+-").partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return 10.0 ** (-decimals + (int(exponent) if exponent else 0))


def _is_float(token: str) -> bool:
    low = token.lower()
    return "." in low or "e" in low or "nan" in low or "inf" in low


def _close(want: str, got: str) -> bool:
    try:
        return _close_numbers(want, got)
    except (ValueError, OverflowError):  # more digits than int() reads, an exponent beyond float: as written
        return want == got


def _close_numbers(want: str, got: str) -> bool:
    if not (_is_float(want) or _is_float(got)):
        return int(want) == int(got)
    a, b = float(want), float(got)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    # Each side is a rounded print of a true value: allow both roundings, plus float noise of one unit
    # in the finer printed digit (or 1e-4 relative), e.g. 0.3 == 0.3000, 0.2999 == 0.3000, 0.7 != 0.6000.
    unit_want, unit_got = _unit(want), _unit(got)
    tolerance = (unit_want + unit_got) / 2 + max(min(unit_want, unit_got), 1e-4 * max(abs(a), abs(b)))
    return abs(a - b) <= tolerance * 1.0001


class _Matcher:
    """Places pieces in `got`, counting the steps taken (see the module docstring)."""

    def __init__(self, got: str):
        self.got = got
        self.steps = 0

    def _step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > MAX_STEPS:
            raise TooCostly(f"placing the shown output's '...' took more than {MAX_STEPS:,} steps")

    def match_at(self, piece: list[_Token], pos: int, limit: int) -> int | None:
        """The end of `piece` matched at `pos` without passing `limit`, or None."""
        got = self.got
        for token in piece:
            self._step()
            if token.kind == "text":
                end = pos + len(token.text)
                if end > limit or not got.startswith(token.text, pos):
                    return None
                pos = end
                continue
            if token.kind == "space":
                spaces = SPACES_AT.match(got, pos)  # matches the empty string at worst
                pos = min(spaces.end() if spaces else pos, limit)
                continue
            found = (HEX_RE if token.kind == "hex" else NUMBER_AT).match(got, pos)
            if found is None or found.end() > limit:
                return None
            if token.kind == "number" and not _close(token.text, found.group(0)):
                return None
            pos = found.end()
        return pos

    def _starts(self, piece: list[_Token], lo: int, hi: int, backwards: bool = False):
        """Positions in [lo, hi] where `piece` may start (where its leading text is), in order."""
        got = self.got
        lead = piece[0].text if piece and piece[0].kind == "text" else ""
        pos = hi if backwards else lo
        while lo <= pos <= hi:
            if lead:
                pos = got.rfind(lead, lo, pos + len(lead)) if backwards else got.find(lead, pos, hi + len(lead))
                if pos < 0:
                    return
            self._step()
            yield pos
            pos += -1 if backwards else 1

    def find(self, piece: list[_Token], lo: int, limit: int) -> tuple[int, int] | None:
        """(start, end) of the leftmost match of `piece` in got[lo:limit]."""
        for start in self._starts(piece, lo, limit):
            end = self.match_at(piece, start, limit)
            if end is not None:
                return start, end
        return None

    def find_last(self, piece: list[_Token], lo: int) -> int | None:
        """The rightmost start >= lo from which `piece` ends exactly at the end of got."""
        for start in self._starts(piece, lo, len(self.got), backwards=True):
            if self.match_at(piece, start, len(self.got)) == len(self.got):
                return start
        return None


def _ellipsis_match(want: str, got: str) -> bool:
    pieces = _pieces(want)
    matcher = _Matcher(got)
    first = matcher.match_at(pieces[0], 0, len(got))
    if len(pieces) == 1:
        return first == len(got)
    if first is None:
        return False
    last_start = matcher.find_last(pieces[-1], first)
    if last_start is None:
        return False
    pos = first
    for piece in pieces[1:-1]:
        found = matcher.find(piece, pos, last_start)
        if found is None:
            return False
        pos = found[1]
    return True


def output_matches(want: str, got: str, normalize_whitespace: bool = False) -> bool:
    """Does `got` (what ran) show what `want` (the page) shows? Raises TooCostly when placing the
    wildcards of `want` takes more than MAX_STEPS steps."""
    want, got = _clean(want), _clean(got)
    if normalize_whitespace:
        want, got = " ".join(want.split()), " ".join(got.split())
    if want == got:
        return True
    if len(want) > MAX_WANT or len(got) > MAX_GOT:
        return False
    return _ellipsis_match(want, got)


def explain(want: str, got: str) -> str:
    """A short, readable difference for the error message."""

    def block(text: str) -> str:
        text = _clean(text)
        return "\n".join("        " + line for line in text.split("\n")) if text else "        (nothing)"

    return f"\n    expected (page):\n{block(want)}\n    got (torch):\n{block(got)}"
