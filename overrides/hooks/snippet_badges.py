"""MkDocs hook: a badge under each code block saying what `python -m scripts.snippets check` proved.

Register it in mkdocs.yml (`hooks: [overrides/hooks/snippet_badges.py]`). It reads
docs/.snippet-status.json (written by the checker, committed with the docs) and, for each fenced block,
adds a line such as "✓ runs on PyTorch 2.14" / "✓ 在 PyTorch 2.14 上运行通过", "⚠ deprecated in 2.14: ..."
or "not run: needs CUDA" in the page's language. A block the status file does not know gets no badge,
and a missing status file means no badges (the staleness test catches it); a status file that exists but
does not parse (truncated, a bad merge) stops the build with its path and line, instead of silently
dropping every badge.
Style the `.snippet-badge` paragraphs in extra.css.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402

from scripts.catalog.model import language_of  # noqa: E402
from scripts.snippets.badges import insert_badges  # noqa: E402
from scripts.snippets.status import DEFAULT_STATUS_FILE, StatusFileError, load_status  # noqa: E402

log = logging.getLogger("mkdocs.hooks.snippet_badges")

_entries: dict[str, dict] = {}
_attr_list = True


def on_config(config, **kwargs):
    global _entries, _attr_list
    try:
        status = load_status(Path(config["docs_dir"]) / DEFAULT_STATUS_FILE, strict=True)
    except StatusFileError as exc:
        raise PluginError(str(exc)) from None
    _entries = status.get("snippets", {})
    names = [ext if isinstance(ext, str) else type(ext).__module__ for ext in config.get("markdown_extensions", [])]
    _attr_list = any(name.split(".")[-1] == "attr_list" for name in names)
    if not _entries:
        log.info("snippet badges: %s is missing or empty, pages get no badges", DEFAULT_STATUS_FILE)
    return config


def on_page_markdown(markdown, page, config, files, **kwargs):
    if not _entries:
        return markdown
    src_uri = page.file.src_uri
    lang = language_of(Path(src_uri))  # "x.en.md" is English, "x.md" the default language (zh)
    try:
        return insert_badges(markdown, src_uri=src_uri, lang=lang, entries=_entries, attr_list=_attr_list)
    except Exception as exc:  # report it (strict builds fail) rather than crash inside Markdown processing
        log.warning("snippet badges: could not place badges on %s: %s", src_uri, exc)
        return markdown
