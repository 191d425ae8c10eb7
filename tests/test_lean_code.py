"""Code blocks lose only the spans that draw like plain text (overrides/hooks/lean_code.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import markdown
import material
from bs4 import BeautifulSoup
from conftest import ROOT

sys.path.insert(0, str(ROOT / "overrides" / "hooks"))
from lean_code import unwrap_plain_tokens  # noqa: E402

CODE = '```python\nimport torch\nmodel = torch.nn.Linear(3, 2)  # a layer\nout = model(torch.ones(1, 3)).sum()\nprint(f"{out:.2f}", "x" in "text")\n```\n'
MATERIAL_CSS = next(
    (Path(material.__file__).parent / "templates" / "assets" / "stylesheets").glob("main.*.min.css"), None
)


def highlighted(text: str) -> str:
    return markdown.markdown(text, extensions=["pymdownx.superfences", "pymdownx.highlight"])


def test_names_and_whitespace_are_unwrapped_and_the_code_reads_the_same():
    before = highlighted(CODE)
    after = unwrap_plain_tokens(before)
    assert re.search(r'<span class="(n|w)">', before)
    assert not re.search(r'<span class="(n|w)">', after)
    text = lambda html: BeautifulSoup(html, "html.parser").get_text()  # noqa: E731
    assert text(after) == text(before)
    kept = lambda html: re.findall(r'<span class="([^"]+)">', html)  # noqa: E731
    assert [c for c in kept(before) if c not in ("n", "w")] == kept(after)  # keywords, strings, comments stay


def test_outside_code_blocks_nothing_changes():
    page = '<p><span class="n">prose</span></p>' + highlighted(CODE)
    assert unwrap_plain_tokens(page).startswith('<p><span class="n">prose</span></p>')


def test_the_unwrapped_classes_draw_like_the_code_around_them():
    """Material colours `n` with --md-code-hl-name-color, which it sets to the code's own colour, and has no rule
    for `w`; none of this site's stylesheets changes either. If that changes, unwrapping would change colours."""
    assert MATERIAL_CSS is not None, "Material's main stylesheet not found"
    material = MATERIAL_CSS.read_text(encoding="utf-8")
    assert "--md-code-hl-name-color:var(--md-code-fg-color)" in material
    assert not re.search(r"\.highlight \.w\b", material)
    for css in (ROOT / "docs" / "assets" / "stylesheets").glob("*.css"):
        text = css.read_text(encoding="utf-8")
        assert "--md-code-hl-name-color" not in text, css
        assert not re.search(r"\.highlight\s+\.(n|w)\b", text), css


def test_built_release_page_has_no_plain_token_spans(built_site):
    html = (built_site / "releases" / "2.14" / "index.html").read_text(encoding="utf-8")
    blocks = re.findall(r"<pre\b.*?</pre>", html, re.S)
    assert len(blocks) > 20
    assert not any(re.search(r'<span class="(n|w)">', b) for b in blocks)
    assert all('<span class="' in b for b in blocks if "import torch" in b)  # still highlighted
