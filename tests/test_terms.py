"""The Chinese release pages follow the term list in docs/.terms.yml.

The list says, for each term that recurs across releases, which Chinese word the pages use and which
variants they must not use. A page that uses a variant fails with `file:line`. Code is left out (fenced
blocks in the body, and the before/after code of changes in the front matter), found with the same
scanner the snippet checker uses, so a block inside a list, an admonition or a quote is code here too.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.snippets.extract import extract_page  # noqa: E402

DOCS = ROOT / "docs"
TERMS_FILE = DOCS / ".terms.yml"
TERM_KEYS = {"en", "zh", "avoid", "allow", "note"}


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    avoid: tuple[str, ...]
    allow: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hit:
    path: Path
    line: int
    variant: str
    term: Term

    def __str__(self) -> str:
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{shown}:{self.line}: '{self.variant}' → write '{self.term.zh}' ({self.term.en}; docs/.terms.yml)"


def _strings(value, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise ValueError(f"{where}: expected a list of non-empty strings, got {value!r}")
    return tuple(value)


def parse_terms(text: str, source: str = str(TERMS_FILE)) -> list[Term]:
    """The term list, or ValueError naming the entry that is wrong."""
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or not isinstance(data.get("terms"), list) or not data["terms"]:
        raise ValueError(f"{source}: expected a mapping with a non-empty 'terms' list")
    terms = []
    for index, entry in enumerate(data["terms"], 1):
        where = f"{source}: term {index}"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: expected a mapping")
        unknown = set(entry) - TERM_KEYS
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {sorted(unknown)}; known: {sorted(TERM_KEYS)}")
        for key in ("en", "zh"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise ValueError(f"{where}: '{key}' must be a non-empty string")
        where = f"{source}: term '{entry['en']}'"
        avoid = _strings(entry.get("avoid"), f"{where}, avoid")
        allow = _strings(entry.get("allow", []), f"{where}, allow") if "allow" in entry else ()
        if any(variant in entry["zh"] for variant in avoid):
            raise ValueError(f"{where}: the chosen word '{entry['zh']}' contains a variant it avoids")
        for phrase in allow:
            if not any(variant in phrase for variant in avoid):
                raise ValueError(f"{where}: allowed phrase '{phrase}' contains none of the avoided variants")
        terms.append(Term(en=entry["en"], zh=entry["zh"], avoid=avoid, allow=allow))
    return terms


def code_lines(path: Path, docs_dir: Path) -> set[int]:
    """The 1-based lines of `path` that are code: fenced blocks and the before/after code of changes."""
    page = extract_page(path, docs_dir)
    return {line for s in page.snippets for line in range(s.fence_line, s.end_line + 1)}


def _allowed_spans(line: str, phrases: tuple[str, ...]) -> list[tuple[int, int]]:
    spans = []
    for phrase in phrases:
        start = line.find(phrase)
        while start != -1:
            spans.append((start, start + len(phrase)))
            start = line.find(phrase, start + 1)
    return spans


def find_hits(path: Path, terms: list[Term], docs_dir: Path = DOCS) -> list[Hit]:
    """Every avoided variant on a prose line of the page, outside the term's allowed phrases."""
    skip = code_lines(path, docs_dir)
    hits = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if number in skip:
            continue
        for term in terms:
            allowed = _allowed_spans(line, term.allow)
            for variant in term.avoid:
                start = line.find(variant)
                while start != -1:
                    end = start + len(variant)
                    if not any(a <= start and end <= b for a, b in allowed):
                        hits.append(Hit(path, number, variant, term))
                    start = line.find(variant, end)
    return hits


def chinese_release_pages(docs_dir: Path = DOCS) -> list[Path]:
    return sorted(p for p in (docs_dir / "releases").glob("*.md") if not p.name.endswith(".en.md"))


# --- the list itself ---------------------------------------------------------------------------


def test_term_list_is_well_formed_and_has_the_agreed_choices():
    terms = {t.en: t for t in parse_terms(TERMS_FILE.read_text(encoding="utf-8"))}
    assert terms["kernel"].zh == "kernel" and "内核" in terms["kernel"].avoid
    assert terms["epilogue"].zh == "epilogue" and "尾声" in terms["epilogue"].avoid
    assert terms["graph break"].zh == "图中断" and "图断裂" in terms["graph break"].avoid


@pytest.mark.parametrize(
    "text, message",
    [
        ("terms: []", "non-empty 'terms' list"),
        ("terms:\n  - {en: kernel, zh: kernel}", "avoid: expected a list"),
        ("terms:\n  - {en: kernel, zh: 内核, avoid: [内核]}", "contains a variant it avoids"),
        ("terms:\n  - {en: kernel, zh: kernel, avoid: [内核], allow: [核心]}", "contains none of the avoided"),
        ("terms:\n  - {en: kernel, zh: kernel, avoid: [内核], zh_tw: 核心}", "unknown key"),
    ],
)
def test_bad_term_lists_are_refused_naming_the_entry(text, message):
    with pytest.raises(ValueError, match=message):
        parse_terms(text, "t.yml")


# --- the scanner, on a page written for the purpose --------------------------------------------

SAMPLE = """---
version: "9.9"
title: "标题里的内核"
changes:
  - id: x
    text: "改动说明里的图断裂"
    before: |
      s = "前后代码里的内核"
    after: |
      s = "kernel"
---

正文里的内核，和 GPU 内核模块。

```python
s = "代码块里的内核"
```

- 列表项
    ```text
    列表里代码块中的内核
    ```

> ```python
> s = "引用块里代码中的内核"
> ```

~~~pycon
>>> "内核"
~~~

最后一行的内核和内核。
"""
SAMPLE_TERMS = [
    Term(en="kernel", zh="kernel", avoid=("内核",), allow=("内核模块",)),
    Term(en="graph break", zh="图中断", avoid=("图断裂",)),
]


def _sample_page(tmp_path: Path) -> tuple[Path, Path]:
    docs = tmp_path / "docs"
    page = docs / "releases" / "9.9.md"
    page.parent.mkdir(parents=True)
    page.write_text(SAMPLE, encoding="utf-8")
    return page, docs


def test_scanner_reports_front_matter_and_body_and_skips_code_and_allowed_phrases(tmp_path):
    page, docs = _sample_page(tmp_path)
    hits = find_hits(page, SAMPLE_TERMS, docs)
    assert [(h.line, h.variant) for h in hits] == [(3, "内核"), (6, "图断裂"), (13, "内核"), (32, "内核"), (32, "内核")]
    assert str(hits[0]).endswith("9.9.md:3: '内核' → write 'kernel' (kernel; docs/.terms.yml)")


def test_scanner_reports_a_variant_that_an_allowed_phrase_does_not_cover(tmp_path):
    page, docs = _sample_page(tmp_path)
    page.write_text(SAMPLE.replace("GPU 内核模块", "GPU 内核"), encoding="utf-8")
    assert [h.variant for h in find_hits(page, SAMPLE_TERMS, docs) if h.line == 13] == ["内核", "内核"]


# --- the pages ----------------------------------------------------------------------------------


def test_chinese_release_pages_follow_the_term_list():
    terms = parse_terms(TERMS_FILE.read_text(encoding="utf-8"))
    pages = chinese_release_pages()
    assert len(pages) > 30, "the release pages were not found"
    hits = [hit for page in pages for hit in find_hits(page, terms)]
    if hits:
        pytest.fail(f"{len(hits)} word(s) against docs/.terms.yml:\n" + "\n".join(map(str, hits)), pytrace=False)
