"""What the build writes into release pages and the home page, from the release catalog.

Pure functions (catalog in, Markdown/HTML out) so they are tested without a build; the hooks in
overrides/hooks/ only decide where the output goes.

**Text fields are text.** Every value that comes from front matter (titles, summaries, feature names,
notes, change texts, URLs) reaches the page as escaped HTML, never as Markdown: Markdown would turn
`](javascript:…)` into a link, `{ onfocus=… }` into attributes (attr_list), `<!--` into a comment that
swallows the page and `Tensor<T>` into nothing. The only markup a text may carry is a `code span` in a
change's text, rendered as <code> with its content escaped (`text_html`). The Markdown around this HTML is
ours; links between pages are Markdown links between files (`releases/1.6.md`), which MkDocs resolves for
the hosted site and the offline copy alike.
"""

from __future__ import annotations

import html
import posixpath
import re

from scripts.catalog.fences import scan_fences
from scripts.catalog.model import (
    AREAS,
    CHANGE_CATEGORIES,
    EVIDENCE,
    MATURITY_LABELS,
    RELEASES_DIR,
    Catalog,
    Change,
    ReleasePage,
)

# The labels a timeline entry always counts, even at zero, so entries compare at a glance.
COUNTED_LABELS = ("Stable", "Beta", "Prototype")

UI: dict[str, dict[str, str]] = {
    "zh": {
        "colon": "：",
        "date": "发布日期",
        "source": "官方来源",
        "feature": "特性",
        "area": "领域",
        "maturity": "本版标签",
        "today": "现状",
        "today_title": "这项特性现在的状态：最近一次提到它的版本给出的标签，或来源记载的弃用/移除",
        "previous": "上一版本",
        "next": "下一版本",
        "none_previous": "这是本站收录的最早版本。",
        "none_next": "这是本站收录的最新版本。",
        "read_source": "阅读官方发布文章",
        "coverage": "本站收录 PyTorch {first}（{first_date}）至 {last}（{last_date}）共 {count} 个小版本。",
        "release": "PyTorch {version}",
        "changes_since": "{previous} → {version} 之间的变化",
        "latest": "最新版本",
        "latest_entry": "最新收录的版本是 PyTorch {version}（{date}）：{summary}",
        "month_only": "（只知道月份）",
        "status_deprecated": "{version} 起弃用",
        "status_removed": "{version} 中移除",
        "status_label": "{label}（{version}）",
        "evidence": "证据",
        "features_caption": "PyTorch {version} 的特性与成熟度标签",
        "changes": "不兼容变更与弃用",
        "changes_none": "本站依据的资料中没有记载这一版的不兼容变更、弃用或移除。",
        "changes_provisional": "这一版的官方发布文章还不在本站的资料里，所以这里还没有它的不兼容变更、弃用或移除；文章收录后补上。",
        "read_pypi": "在 PyPI 上查看这一版",
        "changes_intro": "升级到 {version} 时需要注意的变化（共 {count} 项）。每项注明来源；◆ 表示来源是官方文字的第三方副本或推断。",
        "before": "以前的写法",
        "after": "{version} 起的写法",
        "follows": "接续",
        "followed_by": "后续",
        "affects": "涉及特性",
        "last_supported": "最后支持的版本：{version}",
    },
    "en": {
        "colon": ": ",
        "date": "Released",
        "source": "Official source",
        "feature": "Feature",
        "area": "Area",
        "maturity": "Label here",
        "today": "Today",
        "today_title": "Where the feature stands now: the label of the newest release that mentions it, or its deprecation/removal where a source says so",
        "previous": "Previous release",
        "next": "Next release",
        "none_previous": "This is the oldest release covered here.",
        "none_next": "This is the newest release covered here.",
        "read_source": "Read the official release post",
        "coverage": "Covers {count} minor releases, from PyTorch {first} ({first_date}) to {last} ({last_date}).",
        "release": "PyTorch {version}",
        "changes_since": "What changed from {previous} to {version}",
        "latest": "Latest release",
        "latest_entry": "The newest release covered here is PyTorch {version} ({date}): {summary}",
        "month_only": " (month only)",
        "status_deprecated": "deprecated in {version}",
        "status_removed": "removed in {version}",
        "status_label": "{label} ({version})",
        "evidence": "Evidence",
        "features_caption": "Features of PyTorch {version} and their maturity labels",
        "changes": "Breaking changes and deprecations",
        "changes_none": "Our sources record no breaking change, deprecation or removal for this release.",
        "changes_provisional": "This release's official post is not in our sources yet, so its breaking changes, deprecations and removals are not recorded here; they follow with the post.",
        "read_pypi": "See this release on PyPI",
        "changes_intro": "What to watch for when upgrading to {version} ({count} items). Each names its source; ◆ marks a third-party copy of official text or a derived fact.",
        "before": "Before",
        "after": "From {version} on",
        "follows": "Follows",
        "followed_by": "Followed by",
        "affects": "Affects",
        "last_supported": "Last release with it: {version}",
    },
}


# --- text -----------------------------------------------------------------------------------------------


def esc(text: str) -> str:
    """Text for HTML element content or a double-quoted attribute."""
    return html.escape(text, quote=True)


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def text_html(text: str) -> str:
    """Escaped text where `code spans` become <code>; nothing else is markup."""
    parts = _CODE_SPAN.split(text)
    return "".join(f"<code>{esc(part)}</code>" if i % 2 else esc(part) for i, part in enumerate(parts))


def maturity_badge(label: str, lang: str, count: int | None = None) -> str:
    text = MATURITY_LABELS[label][lang]
    if count is not None:
        text = f"{count} {text}"
    css = "maturity-" + label.lower()
    return f'<span class="maturity {css}" data-maturity="{esc(label)}">{esc(text)}</span>'


def evidence_mark(evidence: str, lang: str) -> str:
    """Nothing for an official fact; ◆ with its meaning (title and hidden text) otherwise."""
    if evidence == "official":
        return ""
    meaning = EVIDENCE[evidence][lang]
    return f'<span class="evidence evidence-{evidence}" title="{esc(meaning)}">{EVIDENCE[evidence]["mark"]}<span class="visually-hidden"> {esc(meaning)}</span></span>'


def date_html(page: ReleasePage) -> str:
    t = UI[page.lang]
    suffix = esc(t["month_only"]) if page.date_precision == "month" else ""
    return f'<time datetime="{page.date_iso}">{page.date_iso}</time>{suffix}'


def _link(from_src: str, to_src: str) -> str:
    return posixpath.relpath(to_src, posixpath.dirname(from_src) or ".")


def _release_src(version: str) -> str:
    # Always the default-language file: static-i18n resolves it to the page of the language being built.
    return f"{RELEASES_DIR}/{version}.md"


def _short_url(url: str) -> str:
    return url.split("://", 1)[-1].rstrip("/")


# --- a release page --------------------------------------------------------------------------------------


def status_html(status, lang: str, lifecycle_href: str | None, feature_id: str) -> str:
    """The "today" cell: newest label with its release, or deprecated/removed in a release."""
    t = UI[lang]
    if status is None:
        return ""
    if status.kind == "label":
        inner = f'{maturity_badge(status.label, lang)} <span class="status-version">{esc(status.version)}</span>'
    else:
        css = "status-removed" if status.kind == "removed" else "status-deprecated"
        inner = f'<span class="status {css}" data-status="{status.kind}">{esc(t["status_" + status.kind].format(version=status.version))}</span>'
    if lifecycle_href:
        return f'<a class="status-link" href="{esc(lifecycle_href)}#feature-{esc(feature_id)}">{inner}</a>'
    return inner


def feature_table(page: ReleasePage, statuses: dict | None = None, lifecycle_href: str | None = None) -> str:
    """Feature | label in this release | status today | area, as HTML (names are text). On phones the rows
    stack as cards (CSS), so the label is always on screen."""
    t = UI[page.lang]
    out = [
        # data-search-exclude: the table repeats the sections below it; in the search index it made every
        # release's top result a wall of feature names (scripts/search_index.py).
        '<div class="feature-table-wrap" data-search-exclude>',
        '<table class="feature-table">',
        f'<caption class="visually-hidden">{esc(t["features_caption"].format(version=page.version))}</caption>',
        "<thead><tr>",
        f'<th scope="col">{esc(t["feature"])}</th>',
        f'<th scope="col">{esc(t["maturity"])}</th>',
    ]
    if statuses is not None:
        out.append(f'<th scope="col" title="{esc(t["today_title"])}">{esc(t["today"])}</th>')
    out += [f'<th scope="col">{esc(t["area"])}</th>', "</tr></thead>", "<tbody>"]
    for feature in page.features:
        out.append(f'<tr data-feature="{esc(feature.id)}">')
        out.append(
            f'<th scope="row" data-label="{esc(t["feature"])}"><a href="#{esc(feature.id)}">{esc(feature.name)}</a></th>'
        )
        out.append(f'<td data-label="{esc(t["maturity"])}">{maturity_badge(feature.maturity, page.lang)}</td>')
        if statuses is not None:
            out.append(
                f'<td data-label="{esc(t["today"])}">{status_html(statuses.get(feature.id), page.lang, lifecycle_href, feature.id)}</td>'
            )
        out.append(f'<td data-label="{esc(t["area"])}">{esc(AREAS[feature.area][page.lang])}</td>')
        out.append("</tr>")
    out += ["</tbody>", "</table>", "</div>"]
    return "\n".join(out)


def release_header(
    page: ReleasePage, statuses: dict | None = None, lifecycle_href: str | None = None, quick: str = ""
) -> str:
    """The H1, the quick facts (`quick`, HTML from scripts/install_view.py) and the fact box every release page
    starts with (HTML: every value is escaped). Provenance caveats are folded behind their ◆ in the quick facts:
    content first, the caveat one click away (still in the page for search and print)."""
    t = UI[page.lang]
    source_mark = evidence_mark(page.source_evidence, page.lang)
    lines = [
        # No id on the H1: Material drops the first table-of-contents level when the H1 has one.
        f'<h1 class="release-title">{esc(page.title)}</h1>',
        "",
        '<div class="release-meta">',
    ]
    if quick:
        lines.append(quick)
    else:
        date_mark = evidence_mark(page.date_evidence, page.lang)
        lines.append(
            f'<p class="release-facts"><span class="release-date">{esc(t["date"])}{t["colon"]}{date_html(page)}{date_mark}</span></p>'
        )
        for note in (page.date_note, page.source_note):
            if note:
                lines.append(f'<details class="quick-caveat"><summary>◆</summary><p>{esc(note)}</p></details>')
    lines += [
        f'<p class="release-summary">{esc(page.summary)}</p>',
        f'<p class="release-facts"><span class="release-source">{esc(t["source"])}{t["colon"]}'
        f'<a href="{esc(page.source)}">{esc(_short_url(page.source))}</a>{source_mark}</span></p>',
    ]
    if page.features:
        lines.append(feature_table(page, statuses, lifecycle_href))
    lines += ["</div>", ""]
    return "\n".join(lines)


def release_footer(catalog: Catalog, page: ReleasePage, compare_href: str | None = None, release_href=None) -> str:
    """Previous/next release links and the official source, at the end of every release page.

    `release_href(version)` gives the URL of another release's page in this language (the hook computes
    it from MkDocs' file table); without it, Markdown links between files are written instead."""
    t = UI[page.lang]
    src = _release_src(page.version)
    previous = catalog.previous(page.version)
    following = catalog.next(page.version)

    def link(version: str) -> str:
        text = esc(t["release"].format(version=version))
        if release_href:
            return f'<a href="{esc(release_href(version))}">{text}</a>'
        return f"[{text}]({_link(src, _release_src(version))})"

    # Excluded from the search index: the neighbours' summaries would otherwise count as text of this
    # page's last section.
    lines = ["", "---", "", '<nav class="release-around" data-search-exclude markdown>', ""]
    if previous:
        prev_page = previous.pages[page.lang]
        lines.append(
            f"- {esc(t['previous'])}{t['colon']}{link(previous.version)} ({prev_page.date_iso}) — {esc(prev_page.summary)}"
        )
        if compare_href:
            # Raw HTML: MkDocs would try to resolve a Markdown link with a query as a file. The pair is a
            # query, not a #fragment: it is view state.
            changes_link = esc(f"{compare_href}?from={previous.version}&to={page.version}")
            text = esc(t["changes_since"].format(previous=previous.version, version=page.version))
            lines.append(f'- <a class="release-changes" href="{changes_link}">{text}</a>')
    else:
        lines.append(f"- {esc(t['none_previous'])}")
    if following:
        next_page = following.pages[page.lang]
        lines.append(
            f"- {esc(t['next'])}{t['colon']}{link(following.version)} ({next_page.date_iso}) — {esc(next_page.summary)}"
        )
    else:
        lines.append(f"- {esc(t['none_next'])}")
    # A provisional page's source is its PyPI page, not a post: the link says so.
    read = t["read_pypi"] if page.provisional else t["read_source"]
    lines += [
        "",
        "</nav>",
        "",
        f'<p class="release-source-link" data-search-exclude><a href="{esc(page.source)}">{esc(read)} ↗</a></p>',
        "",
    ]
    return "\n".join(lines)


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


def changes_section(
    page: ReleasePage, catalog: Catalog, entries: dict, release_href, badge_for, feature_href=None
) -> str:
    """The "Breaking changes and deprecations" section of a release page, from its `changes`.

    `entries`: the snippet status file's entries (badges of the before/after code, by snippet id);
    `badge_for(entry, lang)`: (css, text) of a badge; `release_href(version)`: URL of another release page.
    """
    from scripts.snippets.extract import change_snippet_id

    t = UI[page.lang]
    lang = page.lang
    lines = ["", f"## {esc(t['changes'])} {{ #changes }}", ""]
    if not page.changes:
        none = t["changes_provisional"] if page.provisional else t["changes_none"]
        return "\n".join(lines + [f'<p class="changes-none">{esc(none)}</p>', ""])
    followers: dict[tuple[str, str], list[tuple[str, Change]]] = {}
    for release in catalog.releases:
        for change in release.pages[lang].changes:
            if change.follows:
                followers.setdefault(change.follows, []).append((release.version, change))
    zh_src = page.src_uri if lang == "zh" else page.src_uri.replace(f".{lang}.md", ".md")
    lines += [
        f'<p class="changes-intro">{esc(t["changes_intro"].format(version=page.version, count=len(page.changes)))}</p>',
        "",
    ]
    lines += ['<div class="changes" markdown>', ""]
    for change in page.changes:
        category = CHANGE_CATEGORIES[change.category][lang]
        meta = [
            f'<a href="{esc(change.source)}">{esc(_short_url(change.source))}</a>{evidence_mark(change.evidence, lang)}'
        ]
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


# --- the home page ---------------------------------------------------------------------------------------


def maturity_counts_html(page: ReleasePage) -> str:
    """One pill per label the release uses (Stable, Beta, Prototype first, then the rest), none at zero:
    "0 Stable · 0 Beta" on 27 entries of a page was noise, not a comparison."""
    counts = page.maturity_counts()  # holds only labels with at least one feature
    shown = [label for label in COUNTED_LABELS if label in counts] + [
        label for label in counts if label not in COUNTED_LABELS
    ]
    return " ".join(maturity_badge(label, page.lang, counts[label]) for label in shown)


PROVISIONAL = {
    "zh": ("临时条目", "官方发布文章尚未收录：日期是 PyPI 首次上传的日期，事实只来自 PyPI"),
    "en": (
        "provisional",
        "Official post not available here yet: the date is PyPI's first upload day and the facts come from PyPI only",
    ),
}


def provisional_html(page: ReleasePage) -> str:
    """The mark of a release known from PyPI only (`provisional: true`); nothing for any other."""
    if not page.provisional:
        return ""
    label, meaning = PROVISIONAL[page.lang]
    colon = UI[page.lang]["colon"]
    return f' <span class="provisional-mark" title="{esc(meaning)}">{esc(label)}<span class="visually-hidden">{esc(colon + meaning)}</span></span>'


def timeline(catalog: Catalog, lang: str, from_src: str = "index.md", pending: str | None = None) -> str:
    """The home page timeline: a "latest release" entry, then every release newest first, each with its
    date, summary and maturity counts. `pending` is HTML about a release that exists but has no page yet."""
    t = UI[lang]
    pages = catalog.pages(lang)
    if not pages:
        return ""
    newest, oldest = pages[0], pages[-1]
    coverage = t["coverage"].format(
        first=oldest.version,
        first_date=oldest.date_iso,
        last=newest.version,
        last_date=newest.date_iso,
        count=len(pages),
    )
    lines = [f'<p class="timeline-coverage">{esc(coverage)}</p>', ""]
    latest_link = (
        f"[{esc(t['release'].format(version=newest.version))}]({_link(from_src, _release_src(newest.version))})"
    )
    lines += [
        '<div class="latest-release" markdown>',
        "",
        f'<p class="latest-label"><strong>{esc(t["latest"])}</strong></p>',
        "",
        f'{latest_link} · <time datetime="{newest.date_iso}">{newest.date_iso}</time>{provisional_html(newest)} — {esc(newest.summary)}',
        "",
    ]
    if pending:
        lines += [f'<p class="latest-pending">{pending}</p>', ""]
    lines += ["</div>", "", '<div class="timeline" markdown>', ""]
    for page in pages:
        anchor = "v" + page.version.replace(".", "-")
        lines += [
            f'<div class="timeline-entry" data-version="{page.version}" data-date="{page.date_iso}" markdown>',
            "",
            f"## [{esc(t['release'].format(version=page.version))}]({_link(from_src, _release_src(page.version))}) {{ #{anchor} }}",
            "",
            f'<p class="timeline-date">{date_html(page)}{provisional_html(page)}</p>',
            "",
            f'<p class="timeline-summary">{esc(page.summary)}</p>',
            "",
        ]
        counts = maturity_counts_html(page)
        if counts:  # a release without features gets no empty row of pills
            lines += [f'<p class="timeline-counts">{counts}</p>', ""]
        lines += [
            "</div>",
            "",
        ]
    lines += ["</div>", ""]
    return "\n".join(lines)


# --- Chinese prose ----------------------------------------------------------------------------------------

_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef\u201c\u201d\u2018\u2019"
_ENDS_CJK = re.compile(f"[{_CJK}]$")
_STARTS_CJK = re.compile(f"^\\s*[{_CJK}]")
_BLOCK_START = re.compile(r"^\s*([-*+>|#]|\d+[.)]\s|<|!!!|\?\?\?|===|\{)")


def join_cjk_soft_breaks(markdown: str) -> str:
    """Join paragraph lines wrapped between two CJK characters.

    A newline inside a paragraph renders as a space, which Chinese does not use between characters:
    "和\\n“实验性" would show as "和 “实验性". Code fences and block starts (lists, headings, HTML) are left alone.
    """
    lines = markdown.split("\n")
    in_code = scan_fences(lines)[0]
    out: list[str] = []
    previous_in_code = True
    for line, code in zip(lines, in_code, strict=True):
        if (
            not code
            and not previous_in_code
            and _ENDS_CJK.search(out[-1])
            and _STARTS_CJK.match(line)
            and not _BLOCK_START.match(line)
        ):
            out[-1] += line.lstrip()
        else:
            out.append(line)
        previous_in_code = code
    return "\n".join(out)
