"""The "Breaking changes and deprecations" section of a release page, from its `changes`: each change with its
category, source and evidence, the changes it follows or that follow it, and its before/after code with the badge
of what the snippet check proved about it. A source several changes cite is named once with its evidence in the
section's intro; each change still links its own source, there with the bare ◆. A provisional page has no such
section: its own text says why."""

from __future__ import annotations

import re

from scripts.catalog.model import CHANGE_CATEGORIES, EVIDENCE, Catalog, Change, ReleasePage
from scripts.snippets.extract import change_snippet_id
from scripts.views.html import esc, evidence_mark, short_url, text_html
from scripts.views.words import UI


def _fence_for(code: str) -> str:
    """A backtick fence longer than any run of backticks in the code."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


def _code_block(code: str, badge: tuple[str, str] | None) -> list[str]:
    fence = _fence_for(code)
    lines = ["", f"{fence}python", code, fence, ""]
    if badge:
        css, text = badge
        lines += [f'<p class="snippet-badge {css}">{esc(text)}</p>', ""]
    return lines


WORDS = {
    "zh": {"shared_sources": "多项变更共用的来源：{sources}。", "sep": "；"},
    "en": {"shared_sources": "Sources several changes cite: {sources}.", "sep": "; "},
}


def _source_html(source: str, evidence: str, lang: str, said: bool = False) -> str:
    """A link to a change's source with its evidence mark; `said`: the intro already gave this source's evidence in
    words, so the mark is the bare ◆ (its meaning on hover), not the same sentence once more for every change."""
    mark = evidence_mark(evidence, lang)
    if said and mark:
        mark = f'<span class="evidence evidence-{esc(evidence)}" title="{esc(EVIDENCE[evidence][lang])}" aria-hidden="true">{EVIDENCE[evidence]["mark"]}</span>'
    return f'<a href="{esc(source)}">{esc(short_url(source))}</a>{mark}'


def _shared_sources(changes) -> list[tuple[str, str]]:
    """The (source, evidence) pairs more than one change cites, the most cited first."""
    counts: dict[tuple[str, str], int] = {}
    for change in changes:
        counts[(change.source, change.evidence)] = counts.get((change.source, change.evidence), 0) + 1
    return [pair for pair, n in sorted(counts.items(), key=lambda item: -item[1]) if n > 1]


def changes_section(
    page: ReleasePage, catalog: Catalog, entries: dict, release_href, badge_for, feature_href=None
) -> str:
    """The "Breaking changes and deprecations" section of a release page, from its `changes`.

    `entries`: the snippet status file's entries (badges of the before/after code, by snippet id);
    `badge_for(entry, lang)`: (css, text) of a badge; `release_href(version)`: URL of another release page.
    """
    t = UI[page.lang]
    lang = page.lang
    if page.provisional:
        return ""
    lines = ["", f"## {esc(t['changes'])} {{ #changes }}", ""]
    if not page.changes:
        return "\n".join(lines + [f'<p class="changes-none">{esc(t["changes_none"])}</p>', ""])
    followers: dict[tuple[str, str], list[tuple[str, Change]]] = {}
    for release in catalog.releases:
        for change in release.pages[lang].changes:
            if change.follows:
                followers.setdefault(change.follows, []).append((release.version, change))
    zh_src = page.src_uri if lang == "zh" else page.src_uri.replace(f".{lang}.md", ".md")
    shared = _shared_sources(page.changes)
    intro = esc(t["changes_intro"].format(version=page.version, count=len(page.changes)))
    if shared:
        sources = WORDS[lang]["sep"].join(_source_html(source, evidence, lang) for source, evidence in shared)
        intro += " " + esc(WORDS[lang]["shared_sources"]).format(sources=sources)
    lines += [f'<p class="changes-intro">{intro}</p>', ""]
    lines += ['<div class="changes" markdown>', ""]
    for change in page.changes:
        category = CHANGE_CATEGORIES[change.category][lang]
        said = (change.source, change.evidence) in shared
        meta = [_source_html(change.source, change.evidence, lang, said)]
        if change.follows:
            version, cid = change.follows
            meta.append(
                f'{esc(t["follows"])}{t["colon"]}<a href="{esc(release_href(version))}#change-{esc(cid)}">PyTorch {esc(version)}</a>'
            )
        for version, later in sorted(
            followers.get((page.version, change.id), []), key=lambda p: [int(x) for x in p[0].split(".")]
        ):
            meta.append(
                f'{esc(t["followed_by"])}{t["colon"]}<a href="{esc(release_href(version))}#{esc(later.anchor)}">PyTorch {esc(version)}</a>'
            )
        if change.last_supported:
            meta.append(esc(t["last_supported"].format(version=change.last_supported)))
        if change.affects and feature_href:
            links = ", ".join(f'<a href="{esc(feature_href(fid))}">{esc(fid)}</a>' for fid in change.affects)
            meta.append(f"{esc(t['affects'])}{t['colon']}{links}")
        lines += [
            f'<div class="change" id="{esc(change.anchor)}" data-category="{esc(change.category)}" markdown>',
            "",
            f'<p class="change-head"><span class="change-category category-{esc(change.category)}">{esc(category)}</span> '
            f'<span class="change-text">{text_html(change.text)}</span></p>',
            "",
            f'<p class="change-meta">{" · ".join(meta)}</p>',
        ]
        if change.before:
            entry = entries.get(change_snippet_id(zh_src, change.id, "before"))
            lines += ["", f'<p class="change-code-label">{esc(t["before"])}</p>'] + _code_block(
                change.before, badge_for(entry, lang) if entry else None
            )
        if change.after:
            entry = entries.get(change_snippet_id(zh_src, change.id, "after"))
            label = t["after"].format(version=page.version)
            lines += [f'<p class="change-code-label">{esc(label)}</p>'] + _code_block(
                change.after, badge_for(entry, lang) if entry else None
            )
        lines += ["", "</div>", ""]
    lines += ["</div>", ""]
    return "\n".join(lines)
