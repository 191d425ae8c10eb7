"""What the build does once instead of many times, and that it gives the same HTML as doing it each time:
each distinct code block highlighted once (overrides/hooks/highlight_once.py), the theme's templates compiled
once for both languages (overrides/hooks/template_cache.py), install commands written as the HTML a ```text fence
renders to (scripts/views/html.text_code_block), and a release page's install and feature sections put in after
Markdown instead of parsed by it (scripts/views/release/page.heading_then_html)."""

from __future__ import annotations

import sys

import jinja2
import markdown
import pytest
from conftest import ROOT
from pymdownx.highlight import Highlight

from scripts.views.html import text_code_block
from scripts.views.release.page import heading_then_html, placeholder

sys.path.insert(0, str(ROOT / "overrides" / "hooks"))
import highlight_once  # noqa: E402
from template_cache import MemoryBytecodeCache  # noqa: E402

# The site's code extensions, as mkdocs.yml lists them.
EXTENSIONS = ["md_in_html", "pymdownx.superfences", "pymdownx.highlight", "pymdownx.inlinehilite"]


def rendered(text: str) -> str:
    return markdown.markdown(text, extensions=EXTENSIONS)


@pytest.fixture
def memoised():
    """The hook installed for one test, then the extension's own method back."""
    highlight_once._memo.clear()
    highlight_once.on_config(None)
    yield highlight_once._memo
    Highlight.highlight = highlight_once.ORIGINAL  # type: ignore[method-assign]
    highlight_once._memo.clear()


@pytest.mark.parametrize(
    "command",
    [
        "pip install torch==2.14.1 torchvision==0.29.1",
        "pip install torch==1.6.0+cu101 -f https://download.pytorch.org/whl/torch_stable.html",
        "conda install pytorch==1.6.0 cudatoolkit=10.1 -c pytorch",
        "pip install 'torch<2' \"a&b\" <x> \tend",
        "pip3 install torch  # 注释，中文",
    ],
)
def test_a_command_block_is_the_html_its_text_fence_renders_to(command):
    assert text_code_block(command) == rendered(f"```text\n{command}\n```")


def test_a_block_highlighted_again_is_the_same_html_and_highlighted_once(memoised):
    blocks = [
        "```python\nimport torch\nx = torch.ones(2) < 3\n```",
        "```pycon\n>>> import torch\n>>> torch.ones(1)\ntensor([1.])\n```",
        "```cpp\n#include <torch/torch.h>\nint main() { return 0; }\n```",
        '```python hl_lines="2" linenums="1"\na = 1\nb = 2\n```',
        '```python title="example.py"\nprint("x")\n```',
        "```text\npip install torch\n```",
    ]
    highlight_once.on_config(None)
    once = [rendered(b) for b in blocks]
    again = [rendered(b) for b in blocks]
    Highlight.highlight = highlight_once.ORIGINAL  # type: ignore[method-assign]
    plain = [rendered(b) for b in blocks]
    assert once == again == plain
    assert len(memoised) == len(blocks)  # the second pass found every block in the memo


def test_what_shapes_a_block_is_in_its_key(memoised):
    """The same code with other options (language, lines, numbers, title) or inline is another block."""
    variants = [
        "```python\na = 1\n```",
        "```pycon\na = 1\n```",
        '```python hl_lines="1"\na = 1\n```',
        '```python linenums="1"\na = 1\n```',
        '```python title="a.py"\na = 1\n```',
        "```python\na = 2\n```",
    ]
    outputs = [rendered(v) for v in variants]
    assert len(memoised) == len(variants) and len(set(outputs)) == len(variants)
    assert rendered("`#!python a = 1`") == markdown.markdown("`#!python a = 1`", extensions=EXTENSIONS)
    assert len(memoised) == len(variants), "inline code is left to the extension"


def test_templates_compile_once_and_again_when_their_source_changes():
    cache = MemoryBytecodeCache()
    sources = {"page.html": "{{ title }}!"}
    compiled: list[str] = []

    class CountingLoader(jinja2.DictLoader):
        def get_source(self, environment, template):
            compiled.append(template)
            return super().get_source(environment, template)

    def render(title: str) -> str:
        # A new environment per build, as MkDocs makes one per language: only the cache carries over.
        env = jinja2.Environment(loader=CountingLoader(sources), bytecode_cache=cache)
        return env.get_template("page.html").render(title=title)

    assert render("zh") == "zh!" and render("en") == "en!"
    assert len(cache.compiled) == 1
    sources["page.html"] = "<h1>{{ title }}</h1>"
    assert render("en") == "<h1>en</h1>", "a changed template is compiled again, not served from the cache"


def test_a_generated_section_goes_in_after_markdown_under_its_heading():
    after: dict[str, str] = {}
    section = '\n## Install { #install }\n\n<div class="install-picker">\n<p>x</p>\n</div>\n'
    markdown_part = heading_then_html(section, "install", after)
    assert markdown_part == f"\n## Install {{ #install }}\n\n{placeholder('install')}\n"
    assert after == {placeholder("install"): '<div class="install-picker">\n<p>x</p>\n</div>'}
    assert heading_then_html("", "features", after) == ""


@pytest.mark.parametrize(
    "body",
    ["```text\npip install torch\n```", '<div class="x" markdown>\n*a*\n</div>', '<div markdown="1">a</div>'],
)
def test_a_generated_section_that_still_needs_markdown_is_refused(body):
    with pytest.raises(ValueError, match="not a Markdown heading then HTML only"):
        heading_then_html(f"## Install\n\n{body}\n", "install", {})
    with pytest.raises(ValueError):
        heading_then_html(f"<p>no heading</p>\n{body}\n", "install", {})
