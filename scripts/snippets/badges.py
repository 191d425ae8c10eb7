"""The small line under each code block that tells the reader what the checker proved about it.

`insert_badges` is what the MkDocs hook (overrides/hooks/snippet_badges.py) calls on a page's Markdown:
it finds the fences with the same scanner as the checker, looks each block up in the status file
(by id, confirmed by the code hash; if the page was edited, by hash alone) and adds a paragraph right
after the closing fence, with the fence's own indentation, so blocks inside admonitions, content tabs
and lists keep their badge inside the container. A block without a usable entry gets no badge.

    ✓ 在 PyTorch 2.13 上运行通过          ✓ runs on PyTorch 2.13
    ⚠ 在 PyTorch 2.13 中已弃用：…          ⚠ deprecated in 2.13: …
    未运行：需要 CUDA                      not run: needs CUDA
"""

from __future__ import annotations

import html

from scripts.snippets.extract import scan

__all__ = ["badge_for", "insert_badges", "TEXTS"]

TEXTS = {
    "zh": {
        "output-matched": "✓ 在 PyTorch {v} 上运行通过，输出与本页一致",
        "ran": "✓ 在 PyTorch {v} 上运行通过",
        "compiled": "✓ 已用 libtorch {v} 的头文件通过编译检查",
        "parsed": "✓ 语法检查通过",
        "deprecated": "⚠ 在 PyTorch {v} 中已弃用：{message}",
        "not-run": "未运行：{reason}",
        "before-ran": "旧写法在 PyTorch {v} 上仍能运行，没有警告",
        "before-warns": "⚠ 旧写法在 PyTorch {v} 上仍能运行，但会警告：{message}",
        "before-raised": "✗ 旧写法在 PyTorch {v} 上运行失败：{message}",
    },
    "en": {
        "output-matched": "✓ runs on PyTorch {v}, output as shown",
        "ran": "✓ runs on PyTorch {v}",
        "compiled": "✓ compiles against libtorch {v}",
        "parsed": "✓ syntax checked",
        "deprecated": "⚠ deprecated in {v}: {message}",
        "not-run": "not run: {reason}",
        "before-ran": "the old code still runs on PyTorch {v}, without a warning",
        "before-warns": "⚠ the old code still runs on PyTorch {v}, but warns: {message}",
        "before-raised": "✗ the old code fails on PyTorch {v}: {message}",
    },
}
REASONS_ZH = {
    "needs CUDA": "需要 CUDA",
}
CSS_CLASS = {
    "output-matched": "snippet-ok",
    "ran": "snippet-ok",
    "compiled": "snippet-ok",
    "parsed": "snippet-parsed",
    "deprecated": "snippet-deprecated",
    "not-run": "snippet-not-run",
    "before-ran": "snippet-before-ran",
    "before-warns": "snippet-deprecated",
    "before-raised": "snippet-before-raised",
}
MAX_MESSAGE = 160
MARKDOWN_SPECIALS = "\\`*_{}[]()#+-.!|~"


def _short_version(version: str | None) -> str:
    if not version:
        return "?"
    return ".".join(version.split("+")[0].split(".")[:2])


def _shorten(message: str) -> str:
    for prefix in ("DeprecationWarning: ", "FutureWarning: "):
        if message.startswith(prefix):
            message = message[len(prefix) :]
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1].rstrip() + "…"


def badge_for(entry: dict | None, lang: str) -> tuple[str, str] | None:
    """(css class, plain text) of the badge for a status entry, or None for no badge."""
    if not entry or entry.get("lang") not in ("python", "pycon", "cpp", "shell"):
        return None
    texts = TEXTS.get(lang, TEXTS["en"])
    status = entry.get("status")
    version = _short_version(entry.get("torch"))
    if entry.get("change") == "before" and status in ("ran", "raised"):
        key = "before-raised" if status == "raised" else "before-warns" if entry.get("deprecation") else "before-ran"
        message = entry.get("failure") if status == "raised" else entry.get("deprecation")
        return CSS_CLASS[key], texts[key].format(v=version, message=_shorten(message or ""))
    if status in ("output-matched", "ran", "compiled") and entry.get("deprecation"):
        key = "deprecated"
    elif status in TEXTS["en"]:
        key = status
    else:
        return None  # failed or unknown: say nothing rather than something wrong
    reason = entry.get("reason") or ""
    if lang == "zh":
        reason = REASONS_ZH.get(reason, reason)
    text = texts[key].format(v=version, message=_shorten(entry.get("deprecation") or ""), reason=reason)
    return CSS_CLASS[key], text


def _escape_markdown(text: str) -> str:
    """Plain text for a Markdown paragraph; `code` in backticks (torch's messages use them) stays code."""

    def escape(part: str) -> str:
        part = html.escape(part, quote=False)
        return "".join("\\" + c if c in MARKDOWN_SPECIALS else c for c in part)

    parts = text.split("`")
    if len(parts) % 2 == 0:  # an odd number of backticks: no code spans
        return escape(text)
    return "`".join(escape(part) if k % 2 == 0 else part for k, part in enumerate(parts))


def insert_badges(markdown: str, *, src_uri: str, lang: str, entries: dict[str, dict], attr_list: bool = True) -> str:
    """The page's Markdown with a badge paragraph after each code block that has a status entry."""
    text = markdown.replace("\r\n", "\n")
    snippets, _ = scan(text, page=src_uri, src_uri=src_uri, page_lang=lang)
    if not snippets:
        return markdown
    mine = {key: value for key, value in entries.items() if value.get("page") == src_uri}
    by_hash: dict[str, list[str]] = {}
    for key, value in sorted(mine.items()):
        by_hash.setdefault(value.get("hash", ""), []).append(key)
    used: set[str] = set()
    lines = text.split("\n")
    inserts: list[tuple[int, list[str]]] = []
    for snippet in snippets:
        entry_id = snippet.id if mine.get(snippet.id, {}).get("hash") == snippet.hash else None
        if entry_id is None or entry_id in used:
            entry_id = next((k for k in by_hash.get(snippet.hash, []) if k not in used), None)
        if entry_id is None:
            continue
        used.add(entry_id)
        badge = badge_for(mine[entry_id], lang)
        if badge is None:
            continue
        css, plain = badge
        prefix = snippet.prefix
        blank = prefix.rstrip()
        if attr_list:
            body = [prefix + _escape_markdown(plain), prefix + "{ .snippet-badge ." + css + " }"]
        else:
            body = [prefix + f'<p class="snippet-badge {css}">{html.escape(plain)}</p>']
        inserts.append((snippet.end_line, [blank, *body, blank]))
    for end_line, block in reversed(inserts):
        lines[end_line:end_line] = block  # end_line is 1-based: insert right after the closing fence
    return "\n".join(lines)
