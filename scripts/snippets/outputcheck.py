"""Compare what a `>>>` example printed with what the page shows, the way a reader would.

Never reformats the page. A shown output matches when, after trailing whitespace is dropped:
- it is identical, or
- `...` in it stands for any text (doctest's ELLIPSIS, always on), `0x...` addresses are any address,
  and inside `tensor(...)`/`array(...)` floats may differ within the printed precision (the rounding of
  each side, plus one unit in the finer printed digit or 1e-4 relative for float noise) and whitespace may differ
  (so `tensor([0.3, 0.6])` matches torch's `tensor([0.3000, 0.6000])`); integers must be equal.
"""

from __future__ import annotations

import math
import re

__all__ = ["output_matches", "explain"]

NUMBER = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)"
NUMBER_RE = re.compile(rf"(?<![\w.])(?:{NUMBER})(?![\w])")
SPAN_START_RE = re.compile(r"(?<![\w.])(tensor|array)\(")
HEX_RE = re.compile(r"0x[0-9a-fA-F]+")


def _clean(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n"))


def _spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each tensor(...)/array(...) span, parentheses balanced (or to the end)."""
    spans = []
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


def _literal(text: str) -> str:
    """Regex for text outside tensors: `...` is a wildcard, addresses are any address."""
    out = []
    for k, piece in enumerate(text.split("...")):
        if k:
            out.append(".*?")
        pos = 0
        for match in HEX_RE.finditer(piece):
            out.append(re.escape(piece[pos : match.start()]))
            out.append("0x[0-9a-fA-F]+")
            pos = match.end()
        out.append(re.escape(piece[pos:]))
    return "".join(out)


def _tensor(text: str, numbers: list[str]) -> str:
    """Regex for a tensor span: numbers captured, whitespace flexible, `...` literal or wildcard."""
    out = []
    pos = 0
    for match in re.finditer(rf"\.\.\.|\s+|{NUMBER_RE.pattern}", text):
        out.append(re.escape(text[pos : match.start()]))
        token = match.group(0)
        if token == "...":
            out.append(".*?")
        elif token.isspace():
            out.append(r"\s*")
        else:
            numbers.append(token)
            out.append(rf"({NUMBER})")
        pos = match.end()
    out.append(re.escape(text[pos:]))
    return "".join(out)


def _pattern(want: str) -> tuple[re.Pattern, list[str]]:
    numbers: list[str] = []
    parts = []
    pos = 0
    for start, end in _spans(want):
        parts.append(_literal(want[pos:start]))
        parts.append(_tensor(want[start:end], numbers))
        pos = end
    parts.append(_literal(want[pos:]))
    return re.compile("".join(parts), re.DOTALL), numbers


def _unit(token: str) -> float:
    """One unit in the last printed digit: "0.3000" -> 1e-4, "1.5e-03" -> 1e-4, "2." -> 1."""
    mantissa, _, exponent = token.lower().lstrip("+-").partition("e")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return 10.0 ** (-decimals + (int(exponent) if exponent else 0))


def _is_float(token: str) -> bool:
    low = token.lower()
    return "." in low or "e" in low or "nan" in low or "inf" in low


def _close(want: str, got: str) -> bool:
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


def output_matches(want: str, got: str, normalize_whitespace: bool = False) -> bool:
    want, got = _clean(want), _clean(got)
    if normalize_whitespace:
        want, got = " ".join(want.split()), " ".join(got.split())
    if want == got:
        return True
    pattern, numbers = _pattern(want)
    match = pattern.fullmatch(got)
    if match is None:
        return False
    return all(_close(w, g) for w, g in zip(numbers, match.groups(), strict=True))


def explain(want: str, got: str) -> str:
    """A short, readable difference for the error message."""

    def block(text: str) -> str:
        text = _clean(text)
        return "\n".join("        " + line for line in text.split("\n")) if text else "        (nothing)"

    return f"\n    expected (page):\n{block(want)}\n    got (torch):\n{block(got)}"
