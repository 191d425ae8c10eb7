"""Extraction of code blocks from Material Markdown: golden pages, CRLF, rendering cross-check, errors."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.catalog.frontmatter import split_front_matter  # noqa: E402
from scripts.snippets.directives import not_run_reason, parse_directive  # noqa: E402
from scripts.snippets.extract import extract_page, extract_site, release_of, scan, write_extracted  # noqa: E402

GOLDEN = ROOT / "tests" / "fixtures" / "snippets" / "golden"
FIELDS = ("index", "fence_line", "end_line", "prefix", "tag", "lang", "directives", "code")


def _as_dicts(snippets):
    return [{name: getattr(s, name) for name in FIELDS} for s in snippets]


def _scan(text: str):
    return scan(text, page="p.md", src_uri="releases/9.9.md", page_lang="zh", release="9.9")


def test_golden_page_matches_expected_extraction():
    page = extract_page(GOLDEN / "material.md", GOLDEN)
    expected = json.loads((GOLDEN / "material.expected.json").read_text(encoding="utf-8"))
    assert page.problems == []
    assert _as_dicts(page.snippets) == expected


def test_crlf_page_extracts_the_same(tmp_path):
    text = (GOLDEN / "material.md").read_text(encoding="utf-8")
    crlf = tmp_path / "material.md"
    crlf.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    page = extract_page(crlf, tmp_path)
    expected = json.loads((GOLDEN / "material.expected.json").read_text(encoding="utf-8"))
    assert page.problems == []
    assert _as_dicts(page.snippets) == expected


def test_block_count_matches_what_superfences_renders():
    """The extractor and the real Markdown pipeline (Material's extensions) agree on the number of blocks."""
    markdown = pytest.importorskip("markdown")
    pytest.importorskip("pymdownx")
    text = (GOLDEN / "material.md").read_text(encoding="utf-8")
    _, body, _ = split_front_matter(text)
    md = markdown.Markdown(
        extensions=[
            "pymdownx.superfences",
            "admonition",
            "pymdownx.details",
            "pymdownx.tabbed",
            "attr_list",
            "md_in_html",
            "pymdownx.highlight",
        ],
        extension_configs={"pymdownx.tabbed": {"alternate_style": True}},
    )
    rendered = md.convert(body)
    page = extract_page(GOLDEN / "material.md", GOLDEN)
    assert len(re.findall(r"<pre\b", rendered)) == len(page.snippets)
    assert "this is not a snippet" in re.sub(r"<[^>]+>", "", rendered)  # shown inside the ````markdown block


def test_ids_are_stable_and_line_independent():
    first, _ = _scan("```python\nx = 1\n```\n\n```python\ny = 2\n```\n")
    second, _ = _scan("Intro paragraph.\n\nMore prose.\n\n```python\nx = 1\n```\n\n```python\ny = 2\n```\n")
    assert [s.id for s in first] == ["releases/9.9#01", "releases/9.9#02"]
    assert [s.id for s in first] == [s.id for s in second]
    assert [s.hash for s in first] == [s.hash for s in second]
    assert first[0].fence_line != second[0].fence_line


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("intro\n\n```python\nx = 1\n", 3, "never closed"),
        ("```\nx = 1\n```\n", 1, "no language tag"),
        ("```java\nclass X {}\n```\n", 1, "unknown language tag 'java'"),
        ("```python\nx = 1\n````\n", 1, "never closed"),  # a longer run does not close (superfences)
        ("!!! note\n\n    ```python\n  x = 1\n    ```\n", 4, "indented less than the code fence"),
        ("<!-- snippet: skip -->\n```python\nx = 1\n```\n", 1, "a skip needs a reason"),
        ('<!-- snippet: skp reason="x" -->\n```python\nx = 1\n```\n', 1, "did you mean 'skip'"),
        ("<!-- snippet: requires=tpu -->\n```python\nx = 1\n```\n", 1, "unknown requirement 'tpu'"),
        ("<!-- snippet: requires=cuda -->\n\n```python\nx = 1\n```\n", 1, "not on the line right before a code fence"),
        ("<!-- snippet: fragment -->\n```python\nx = 1\n```\n", 1, "'fragment' is for cpp"),
        ('<!-- snippet: removed="nn.Foo" -->\n```python\nx = 1\n```\n', 1, "bad removed"),
        ('```python\n--8<-- "snippet.py"\n```\n', 2, "includes are not enabled"),
        ("1. ```python\n   x = 1\n   ```\n", 1, "does not render as a code block"),
    ],
)
def test_extraction_errors_name_the_line(text, line, fragment):
    _, problems = _scan(text)
    assert problems, text
    assert any(p.line == line and fragment in p.message for p in problems), [str(p) for p in problems]


def test_pycon_detected_from_prompt_and_directives_combine():
    snippets, problems = _scan("<!-- snippet: group=amp requires=cuda -->\n```python\n>>> 1 + 1\n2\n```\n")
    assert problems == []
    (s,) = snippets
    assert s.lang == "pycon"
    assert s.directives == {"group": "amp", "requires": "cuda"}
    assert not_run_reason(s.directives) == "needs CUDA"


def test_directive_parsing():
    assert parse_directive(' skip reason="needs 2 processes for RPC" ') == (
        {"skip": True, "reason": "needs 2 processes for RPC"},
        [],
    )
    values, errors = parse_directive('removed="torch.foo.bar@2.5, torch.baz@2.6"')
    assert errors == [] and values["removed"] == "torch.foo.bar@2.5, torch.baz@2.6"
    assert not_run_reason(values) == "uses torch.foo.bar (removed in 2.5), torch.baz (removed in 2.6)"
    assert parse_directive("timeout=abc")[1]


def test_release_of():
    assert release_of("releases/1.6.md") == "1.6"
    assert release_of("releases/1.6.en.md") == "1.6"
    assert release_of("topics/jit.md") is None


def test_extract_writes_files_and_manifest(tmp_path):
    site = tmp_path / "docs"
    (site / "releases").mkdir(parents=True)
    (site / "releases" / "9.9.md").write_text("```python\nx = 1\n```\n\n```cpp\nint a;\n```\n", encoding="utf-8")
    out = tmp_path / "out"
    manifest = write_extracted(extract_site(site), out)
    data = json.loads(manifest.read_text(encoding="utf-8"))
    files = sorted(p.name for p in out.iterdir())
    assert files == ["manifest.json", "releases__9.9-01.py", "releases__9.9-02.cpp"]
    first = data["snippets"][0]
    assert first["id"] == "releases/9.9#01" and first["page_lang"] == "zh" and first["release"] == "9.9"
    assert first["line"] == 2 and first["lang"] == "python" and first["directives"] == {}
    # a second run with fewer snippets leaves no stale file behind
    (site / "releases" / "9.9.md").write_text("```python\nx = 1\n```\n", encoding="utf-8")
    write_extracted(extract_site(site), out)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "releases__9.9-01.py"]


def _site_markdown():
    """A Markdown converter with the extensions mkdocs.yml configures (None without mkdocs.yml)."""
    markdown = pytest.importorskip("markdown")
    import yaml

    config_path = ROOT / "mkdocs.yml"
    if not config_path.exists():
        return None

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load(config_path.read_text(encoding="utf-8"), Loader=Loader)
    names, configs = [], {}
    for item in config.get("markdown_extensions", []):
        if isinstance(item, dict):
            ((name, options),) = item.items()
            names.append(name)
            configs[name] = options or {}
        else:
            names.append(item)
    return markdown.Markdown(extensions=names, extension_configs=configs)


def test_real_pages_render_exactly_the_extracted_blocks():
    """No silent skip: every page renders as many code blocks as the extractor finds (an indented code
    block, or a fence superfences rejects, would show code that nothing checks)."""
    md = _site_markdown()
    docs = ROOT / "docs"
    if md is None or not docs.is_dir():
        pytest.skip("no mkdocs.yml or docs/")
    mismatches = []
    for page in extract_site(docs):
        text = page.path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        split = split_front_matter(text) if text.startswith("---\n") else None
        body = split[1] if split else text
        rendered = md.reset().convert(body)
        count = len(re.findall(r"<pre\b", rendered))
        in_body = [s for s in page.snippets if not s.directives.get("change")]  # changes' code is in the front matter
        if count != len(in_body):
            mismatches.append(f"{page.shown}: renders {count} code block(s), the checker extracts {len(in_body)}")
    assert not mismatches, "\n".join(mismatches)
