"""The status file (reproducible, checked for staleness) and the badges the MkDocs hook draws from it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.snippets.badges import badge_for, insert_badges  # noqa: E402
from scripts.snippets.extract import extract_site, scan  # noqa: E402
from scripts.snippets.status import DEFAULT_STATUS_FILE, dump_status, load_status, stale_problems  # noqa: E402

DOCS = ROOT / "docs"
HOOK = ROOT / "overrides" / "hooks" / "snippet_badges.py"

PAGE = """\
Intro.

```python
import torch
print(torch.ones(2))
```

!!! note "N"

    <!-- snippet: requires=cuda -->
    ```python
    torch.ones(2, device="cuda")
    ```

=== "Tab"

    ```pycon
    >>> 1 + 1
    2
    ```

> ```shell
> ls
> ```

```text
output
```

```python
x = "no entry for me"
```
"""


def entries_for(text: str, src_uri: str, statuses: list[dict]) -> dict[str, dict]:
    snippets, _ = scan(text, page=src_uri, src_uri=src_uri, page_lang="zh")
    out = {}
    for snippet, status in zip(snippets, statuses, strict=True):
        if status is None:
            continue
        out[snippet.id] = {
            "page": src_uri,
            "line": snippet.fence_line,
            "lang": snippet.lang,
            "hash": snippet.hash,
            "torch": "2.13.0",
            "deprecation": None,
            "reason": None,
            **status,
        }
    return out


STATUSES = [
    {"status": "ran", "deprecation": "FutureWarning: `old_api` is deprecated, use `new_api`"},
    {"status": "not-run", "reason": "needs CUDA", "torch": None},
    {"status": "output-matched"},
    {"status": "parsed", "torch": None},
    {"status": "not-run", "reason": "output shown on the page", "torch": None},
    None,
]


def test_badges_in_both_languages_and_nested_containers():
    entries = entries_for(PAGE, "releases/9.9.md", STATUSES)
    zh = insert_badges(PAGE, src_uri="releases/9.9.md", lang="zh", entries=entries)
    assert (
        "⚠ 在 PyTorch 2\\.13 中已弃用：`old_api` is deprecated, use `new_api`\n{ .snippet-badge .snippet-deprecated }"
        in zh
    )
    assert "    未运行：需要 CUDA\n    { .snippet-badge .snippet-not-run }" in zh  # inside the admonition
    assert (
        "    ✓ 在 PyTorch 2\\.13 上运行通过，输出与本页一致\n    { .snippet-badge .snippet-ok }" in zh
    )  # inside the tab
    assert "> ✓ 语法检查通过\n> { .snippet-badge .snippet-parsed }" in zh  # inside the blockquote
    assert zh.count(".snippet-badge") == 4  # no badge for the text block nor for the block without an entry

    entries_en = entries_for(PAGE, "releases/9.9.en.md", STATUSES)
    en = insert_badges(PAGE, src_uri="releases/9.9.en.md", lang="en", entries=entries_en)
    assert "    not run: needs CUDA\n" in en and "✓ runs on PyTorch 2\\.13, output as shown" in en
    assert "⚠ deprecated in 2\\.13: " in en


def test_badges_render_inside_containers():
    markdown = pytest.importorskip("markdown")
    entries = entries_for(PAGE, "releases/9.9.en.md", STATUSES)
    text = insert_badges(PAGE, src_uri="releases/9.9.en.md", lang="en", entries=entries)
    md = markdown.Markdown(
        extensions=["pymdownx.superfences", "admonition", "pymdownx.tabbed", "attr_list", "md_in_html"],
        extension_configs={"pymdownx.tabbed": {"alternate_style": True}},
    )
    html = md.convert(text)
    assert (
        '<p class="snippet-badge snippet-not-run">not run: needs CUDA</p>\n</div>' in html
    )  # closes the admonition after it
    assert (
        '<p class="snippet-badge snippet-deprecated">⚠ deprecated in 2.13: <code>old_api</code> is deprecated, use <code>new_api</code></p>'
        in html
    )
    assert html.count("<pre") == 6


def test_no_status_or_stale_entry_means_no_badge():
    assert insert_badges(PAGE, src_uri="releases/9.9.md", lang="zh", entries={}) == PAGE
    entries = entries_for(PAGE, "releases/9.9.md", STATUSES)
    edited = PAGE.replace("print(torch.ones(2))", "print(torch.zeros(2))")
    text = insert_badges(edited, src_uri="releases/9.9.md", lang="zh", entries=entries)
    assert "已弃用" not in text  # the edited block's entry no longer matches its hash
    assert badge_for({"lang": "python", "status": "failed"}, "en") is None


def test_badges_follow_the_block_when_blocks_move():
    entries = entries_for(PAGE, "releases/9.9.md", STATUSES)
    moved = "```python\nprint('a new block first')\n```\n\n" + PAGE
    text = insert_badges(moved, src_uri="releases/9.9.md", lang="zh", entries=entries)
    assert text.count(".snippet-badge") == 4  # matched by hash, not by position


def test_status_is_reproducible_and_staleness_is_detected(tmp_path):
    docs = tmp_path / "docs"
    (docs / "releases").mkdir(parents=True)
    (docs / "releases" / "9.9.md").write_text(PAGE, encoding="utf-8")
    pages = extract_site(docs)
    entries = {}
    for page in pages:
        for s in page.snippets:
            entries[s.id] = {
                "page": s.src_uri,
                "line": s.fence_line,
                "lang": s.lang,
                "status": "parsed",
                "torch": None,
                "deprecation": None,
                "reason": None,
                "hash": s.hash,
            }
    text = dump_status(entries, "2.13.0")
    assert text == dump_status(dict(reversed(list(entries.items()))), "2.13.0")  # key order does not matter
    path = docs / DEFAULT_STATUS_FILE
    path.write_text(text, encoding="utf-8")
    assert stale_problems(pages, load_status(path), "status") == []

    (docs / "releases" / "9.9.md").write_text(
        PAGE.replace("ls", "ls -la") + "\n```python\nnew = 1\n```\n", encoding="utf-8"
    )
    problems = [str(p) for p in stale_problems(extract_site(docs), load_status(path), "status")]
    assert any("(releases/9.9#04) changed" in p for p in problems)
    assert any("no entry for this code block (releases/9.9#07)" in p for p in problems)
    assert load_status(tmp_path / "missing.json")["snippets"] == {}


def test_hook_in_a_real_mkdocs_build(tmp_path):
    """The registered hook adds badges in a real build, in the page's language; a missing entry is no badge."""
    pytest.importorskip("mkdocs")
    docs = tmp_path / "docs"
    (docs / "releases").mkdir(parents=True)
    for name, title in (("9.9.md", "九点九"), ("9.9.en.md", "Nine nine")):
        (docs / "releases" / name).write_text(f"---\ntitle: {title}\n---\n\n{PAGE}", encoding="utf-8")
    status = {}
    for page in extract_site(docs):
        for s, st in zip(page.snippets, STATUSES, strict=False):
            if st is not None:
                status[s.id] = {
                    "page": s.src_uri,
                    "line": s.fence_line,
                    "lang": s.lang,
                    "hash": s.hash,
                    "torch": "2.13.0",
                    "deprecation": None,
                    "reason": None,
                    **st,
                }
    (docs / DEFAULT_STATUS_FILE).write_text(dump_status(status, "2.13.0"), encoding="utf-8")
    config = {
        "site_name": "t",
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"name": "mkdocs"},
        "hooks": [str(HOOK)],
        "markdown_extensions": [
            "attr_list",
            "admonition",
            "pymdownx.superfences",
            {"pymdownx.tabbed": {"alternate_style": True}},
        ],
    }
    (tmp_path / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    zh = (tmp_path / "site" / "releases" / "9.9" / "index.html").read_text(encoding="utf-8")
    en = (tmp_path / "site" / "releases" / "9.9.en" / "index.html").read_text(encoding="utf-8")
    assert '<p class="snippet-badge snippet-not-run">未运行：需要 CUDA</p>' in zh
    assert '<p class="snippet-badge snippet-ok">✓ runs on PyTorch 2.13, output as shown</p>' in en
    assert not (tmp_path / "site" / DEFAULT_STATUS_FILE).exists()  # dot files are not published

    (docs / DEFAULT_STATUS_FILE).unlink()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "snippet-badge" not in (tmp_path / "site" / "releases" / "9.9" / "index.html").read_text(encoding="utf-8")


def test_site_status_file_is_up_to_date():
    """docs/.snippet-status.json describes the pages as they are: rerun `python -m scripts.snippets check` after editing code."""
    pages = extract_site(DOCS) if DOCS.is_dir() else []
    path = DOCS / DEFAULT_STATUS_FILE
    if not any(page.snippets for page in pages) and not path.exists():
        pytest.skip("no code blocks on the site yet")
    assert path.exists(), f"{path} is missing: run python -m scripts.snippets check"
    problems = stale_problems(pages, load_status(path), "docs/" + DEFAULT_STATUS_FILE)
    assert not problems, "\n".join(str(p) for p in problems)


def test_check_status_flag_through_cli(tmp_path):
    docs = tmp_path / "docs"
    (docs / "releases").mkdir(parents=True)
    (docs / "releases" / "9.9.md").write_text("```shell\nls\n```\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))

    def run(*a):
        return subprocess.run(
            [sys.executable, "-m", "scripts.snippets", *a], cwd=tmp_path, env=env, capture_output=True, text=True
        )

    missing = run("check", "--check-status")
    assert missing.returncode == 1 and "status file is missing" in missing.stdout
    written = run("check", "--no-run", "--no-cpp", "--status-file", "docs/.snippet-status.json")
    assert written.returncode == 0 and written.stdout.strip().endswith("1 passed, 0 failed")
    assert run("check", "--check-status").returncode == 0
    shutil.copy(docs / "releases" / "9.9.md", docs / "releases" / "9.8.md")
    stale = run("check", "--check-status")
    assert stale.returncode == 1 and "docs/releases/9.8.md:1:1: error:" in stale.stdout
