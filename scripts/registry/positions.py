"""The line of a value inside a JSON text, found by its path of keys and indexes: what the evidence loader names
when a value it parsed with `json` is wrong (json gives no positions). Read only when there is a problem to report."""

from __future__ import annotations

import json
import re

_SPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false|null")


class _Scan:
    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def space(self) -> str:
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text[self.pos : self.pos + 1]

    def string(self) -> str:
        value, self.pos = json.decoder.scanstring(self.text, self.pos + 1)  # type: ignore[attr-defined]
        return value

    def skip(self) -> None:
        """Past one value."""
        first = self.space()
        if first == '"':
            self.string()
        elif first in "{[":
            self.pos += 1
            closing = "}" if first == "{" else "]"
            while self.space() != closing:
                if first == "{":
                    self.string()
                    self.space()
                    self.pos += 1  # the colon
                self.skip()
                if self.space() == ",":
                    self.pos += 1
            self.pos += 1
        else:
            match = _SCALAR.match(self.text, self.pos)
            if match is None:
                raise ValueError(f"unexpected text at {self.pos}")
            self.pos = match.end()

    def find(self, path: tuple) -> int:
        """The offset of the value at `path` (or of the deepest part of it that exists)."""
        found = self.pos
        for step in path:
            first = self.space()
            found = self.pos
            if first not in "{[":
                return found
            self.pos += 1
            index = 0
            while True:
                if self.space() in "}]":
                    return found
                if first == "{":
                    key = self.string()
                    self.space()
                    self.pos += 1
                    hit = key == step
                else:
                    hit = index == step
                if hit:
                    break
                self.skip()
                index += 1
                if self.space() == ",":
                    self.pos += 1
        self.space()
        return self.pos


def line_of(text: str, path: tuple) -> int:
    """The 1-based line of the value at `path` ("torch", "2.10.0", "dists", 3) in a valid JSON text."""
    try:
        offset = _Scan(text).find(path)
    except (ValueError, IndexError):
        return 1
    return text.count("\n", 0, offset) + 1
