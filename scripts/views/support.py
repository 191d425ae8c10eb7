"""The support page (docs/support.md, `<!-- support-timeline -->`): what is supported today, and for every Python
and CUDA version the first and last release that supported it, with their dates, as a table and as a chart.

Pure functions of the catalog and its verdicts (what is supported when: scripts/verdicts/support.py); every text
escaped; no build clock (dates come from the catalog, so two builds of one commit are byte-identical). The charts
are scripts/views/support_chart.py.

- Python: a release supports what its Python verdict says (PyPI's Linux x86_64 wheels, the tables'
  claim where PyPI has no wheels of it). Another source's extra release is shown beside the range ("⚠ …") only
  where PyPI has no wheels of that release to contradict it.
- CUDA: the catalog's claims (`compat.primary("cuda")`), stable and experimental; a provisional release knows
  only the CUDA of its PyPI wheel (`pypi_cuda`), so it cannot end a CUDA version's support, only extend it.
- A provisional release (on PyPI, official post not available here yet) counts, with its first upload day,
  marked as such wherever its date is shown.
- The chart is static inline SVG (one bar per row of the table, time on the x axis), scaled by its viewBox, with
  a <title>/<desc> text alternative; the table stays the detailed view. Colours live in
  docs/assets/stylesheets/support-chart.css (no style attributes).
"""

from __future__ import annotations

from scripts.catalog.compat import SOURCES
from scripts.catalog.model import SUPPORT_ENDS, Catalog, Release
from scripts.verdicts.model import PYPI, Verdicts
from scripts.verdicts.support import (
    FIELDS,
    SupportRange,
    dropped_by_newest,
    planned_releases,
    release_values,
    support_ranges,
    version_order,
)
from scripts.views.html import esc, evidence_mark, provisional_html
from scripts.views.matrix import matrix_row_id
from scripts.views.support_chart import UI as CHART_UI
from scripts.views.support_chart import label, slug, support_chart
from scripts.views.words import python_summary

UI: dict[str, dict[str, str]] = {
    "zh": {
        **CHART_UI["zh"],
        "today": "今天的支持情况",
        "today_newest": "最新版本",
        "today_python": "支持的 Python",
        "today_python_value": "{python}（{source}）",
        "today_cuda": "CUDA",
        "today_cuda_value": "{cuda}",
        "today_cuda_pypi_only": "PyPI 默认 wheel 为 CUDA {cuda}；其他 CUDA 构建要等官方发布文章才知道",
        "today_cuda_unknown": "资料中还没有记载",
        "today_dropped": "比上一版本（{previous}）少了",
        "today_dropped_none": "资料中没有记载停止支持的内容",
        "today_dropped_cuda_unknown": "（CUDA 构建还不清楚）",
        "today_next": "下一个版本",
        "today_next_none": "资料中没有比已发布版本更晚的计划日期",
        "plan": "计划（不是事实）：PyTorch 的发布日程把 PyTorch {version} 排在 {date}",
        "source_pypi": "PyPI 上 Linux x86_64 的 wheel",
        "source_tables": "据 {sources}；PyPI 上没有这一版的 Linux x86_64 wheel",
        "provisional_date": "（PyPI 上传日期）",
        "colon": "：",
        "platforms": "平台与发布渠道",
        "lts": "长期支持（LTS）",
        "cadence": "发布节奏",
        "col_what": "对象",
        "col_first": "首个支持的版本",
        "col_last": "最后支持的版本",
        "col_change": "变化出现在",
        "col_release": "版本",
        "col_lts_patches": "LTS 补丁版本",
        "col_lts_note": "说明与来源",
        "current": "至今仍支持，最新版本",
        "unknown_after": "{version} 是否支持尚不清楚",
        "other_sources": "⚠ {version}（另据：{sources}）",
        "disputed": "标 ⚠ 的是只有另一来源才算入、而 PyPI 上没有 wheel 可以核对的版本，链接到兼容性矩阵中并列各方说法的那一行。",
        "python_intro": "每个 Python 版本：第一个和最后一个支持它的 PyTorch 版本及其日期；最后一个之后就停止支持了。一个版本支持哪些 Python，以 PyPI 上 Linux x86_64 的 wheel 为准；PyPI 上没有这一版 wheel 时，以兼容性表格为准。{disputed}",
        "cuda_intro": "官方 pip/conda 二进制包提供过的每个 CUDA 版本：第一个和最后一个提供它的 PyTorch 版本及其日期（稳定与实验性构建都算在内，数据来自各版本的兼容性信息）。{disputed}",
        "platform_intro": "资料记载的其他支持终止：",
        "lts_intro": "PyTorch 只为一条版本线提供过长期支持（LTS）：",
        "lts_source": "来源：",
        "cadence_text": "本站收录的 {count} 个小版本中，{first} 到 {last} 之间平均每 {days} 天发布一个小版本；最近四个版本的间隔是 {recent} 天。",
    },
    "en": {
        **CHART_UI["en"],
        "today": "Supported today",
        "today_newest": "Newest release",
        "today_python": "Python",
        "today_python_value": "{python} ({source})",
        "today_cuda": "CUDA",
        "today_cuda_value": "{cuda}",
        "today_cuda_pypi_only": "the PyPI default wheel is CUDA {cuda}; the other CUDA builds will be known from the official post",
        "today_cuda_unknown": "not recorded by our sources yet",
        "today_dropped": "Dropped since {previous}",
        "today_dropped_none": "our sources record nothing dropped",
        "today_dropped_cuda_unknown": " (CUDA builds: not known yet)",
        "today_next": "Next release",
        "today_next_none": "our sources give no planned date later than the releases already out",
        "plan": "Plan, not fact: PyTorch's release schedule puts PyTorch {version} on {date}",
        "source_pypi": "PyPI's Linux x86_64 wheels",
        "source_tables": "according to {sources}; PyPI has no Linux x86_64 wheels of this release",
        "provisional_date": " (PyPI upload day)",
        "colon": ": ",
        "platforms": "Platforms and channels",
        "lts": "Long-term support (LTS)",
        "cadence": "Release cadence",
        "col_what": "What",
        "col_first": "First release",
        "col_last": "Last release",
        "col_change": "Changed in",
        "col_release": "Release",
        "col_lts_patches": "LTS patch releases",
        "col_lts_note": "Note and source",
        "current": "still supported by the newest,",
        "unknown_after": "not known yet for {version}",
        "other_sources": "⚠ {version} according to {sources}",
        "disputed": "⚠ marks a release that only another source counts and that PyPI has no wheels of to check it against, linked to its row of the compatibility matrix, where the claims stand side by side.",
        "python_intro": "Every Python version: the first and the last PyTorch release that supported it, with their dates; the release after the last one dropped it. Which Python versions a release supports is decided by PyPI's Linux x86_64 wheels, or by the compatibility tables where PyPI has no wheels of that release. {disputed}",
        "cuda_intro": "Every CUDA version the official pip/conda binaries offered: the first and the last release that shipped it, with their dates (stable and experimental builds count; from each release's compatibility data). {disputed}",
        "platform_intro": "Other ends of support our sources record:",
        "lts_intro": "PyTorch gave long-term support (LTS) to one release line:",
        "lts_source": "Source: ",
        "cadence_text": "Across the {count} minor releases covered here, {first} to {last}, a minor release shipped every {days} days on average; the last four came {recent} days apart.",
    },
}


def date_html(release: Release, lang: str) -> str:
    t = UI[lang]
    page = release.facts
    suffix = t["month_only"] if page.date_precision == "month" else ""
    suffix += t["provisional_date"] if release.provisional else ""
    suffix_html = f'<span class="support-date-note">{esc(suffix)}</span>' if suffix else ""
    return f'<time class="support-date" datetime="{page.date_iso}">{page.date_iso}</time>{suffix_html}'


def _release_cell(release: Release, lang: str, href) -> str:
    link = f'<a href="{esc(href(release.pages[lang], "install"))}">{esc(release.version)}</a>'
    return f"{link} {date_html(release, lang)}{provisional_html(release.pages[lang])}"


def _other_sources(item: tuple[Release, tuple[str, ...]], lang: str, href) -> str:
    """ "⚠ 1.0 according to …", linked to the release's matrix row, where the claims stand side by side."""
    release, sources = item
    names = UI[lang]["list_sep"].join(SOURCES[s][lang] for s in sources)
    target = href.view("compatibility", matrix_row_id(release.version))
    text = UI[lang]["other_sources"].format(
        sources=esc(names), version=f'<a href="{esc(target)}">{esc(release.version)}</a>'
    )
    return f'<span class="claim-conflict support-disputed" data-disputed="{esc(release.version)}">{text}</span>'


def support_table(catalog: Catalog, field: str, ranges: list[SupportRange], lang: str, href) -> str:
    t = UI[lang]
    newest = catalog.releases[0]
    out = [f'<table class="support-table" id="support-{field}">']
    out.append(
        f'<thead><tr><th scope="col">{esc(t["col_what"])}</th><th scope="col">{esc(t["col_first"])}</th><th scope="col">{esc(t["col_last"])}</th></tr></thead><tbody>'
    )
    for row in ranges:
        first_cell = _release_cell(row.first, lang, href) + (
            _other_sources(row.disputed_before, lang, href) if row.disputed_before else ""
        )
        if row.current:
            last_cell = f'<span class="support-current">{esc(t["current"])}</span> {_release_cell(newest, lang, href)}'
        else:
            last_cell = _release_cell(row.last, lang, href)
            if row.unknown:
                last_cell += (
                    f' <span class="support-unknown">{esc(t["unknown_after"].format(version=newest.version))}</span>'
                )
            last_cell += _other_sources(row.disputed_after, lang, href) if row.disputed_after else ""
        state = "current" if row.current else "unknown" if row.unknown else "ended"
        out.append(
            f'<tr id="support-{field}-{slug(row.value)}" data-{field}="{esc(row.value)}" data-first="{esc(row.first.version)}" data-last="{esc(row.last.version)}" data-state="{state}">'
            f'<th scope="row">{esc(label(field, row.value))}</th><td>{first_cell}</td><td>{last_cell}</td></tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


def today_summary(catalog: Catalog, lang: str, href, verdicts: Verdicts) -> str:
    """The newest release, what it supports, what it dropped, and the next planned release."""
    t = UI[lang]
    newest = catalog.releases[0]
    verdict = verdicts[newest.version].python
    source = (
        t["source_pypi"]
        if verdict.source == PYPI
        else t["source_tables"].format(
            sources=t["list_sep"].join(SOURCES[s][lang] for s in verdict.source if s in SOURCES)
        )
    )
    python = (
        t["today_python_value"].format(python=python_summary(list(verdict.versions)), source=source)
        if verdict.versions
        else t["today_cuda_unknown"]
    )
    cudas, complete = release_values(newest, "cuda", verdicts[newest.version])
    if complete:
        cuda = ", ".join(sorted(cudas, key=version_order))
    elif cudas:
        cuda = t["today_cuda_pypi_only"].format(cuda=", ".join(sorted(cudas, key=version_order)))
    else:
        cuda = t["today_cuda_unknown"]
    dropped, unknown = [], ""
    for field in FIELDS:
        values = dropped_by_newest(catalog, field, verdicts)
        if values is None:
            unknown = t["today_dropped_cuda_unknown"]  # a provisional release's CUDA builds: no "dropped" either way
        dropped += [label(field, v) for v in values or []]
    dropped += [SUPPORT_ENDS[c.ends][lang] for c in newest.pages[lang].changes if c.ends]
    previous = catalog.releases[1].version if len(catalog.releases) > 1 else ""
    plans = planned_releases(catalog, verdicts)
    if plans:
        planned = plans[0]
        words = esc(t["plan"].format(version=planned.version, date=planned.date_iso))
        plan = f'<span class="release-plan" data-version="{esc(planned.version)}"><a href="{esc(planned.source)}">{words}</a>{evidence_mark(planned.evidence, lang)}</span>'
    else:
        plan = f'<span class="release-plan">{esc(t["today_next_none"])}</span>'
    newest_cell = f'<a href="{esc(href(newest.pages[lang]))}">PyTorch {esc(newest.version)}</a> · {date_html(newest, lang)}{provisional_html(newest.pages[lang])}'
    facts = [
        ("newest", t["today_newest"], newest_cell),
        ("python", t["today_python"], esc(python)),
        ("cuda", t["today_cuda"], esc(cuda)),
        (
            "dropped",
            t["today_dropped"].format(previous=previous),
            esc((t["list_sep"].join(dropped) if dropped else t["today_dropped_none"]) + unknown),
        ),
        ("next", t["today_next"], plan),
    ]
    items = "".join(
        f'<div class="support-today-{key}"><dt>{esc(name)}</dt><dd>{value}</dd></div>' for key, name, value in facts
    )
    return f'<section class="support-today" id="today" aria-labelledby="today-title" data-newest="{esc(newest.version)}"><h2 id="today-title">{esc(t["today"])}</h2><dl>{items}</dl></section>'


def lts_section(catalog: Catalog, lang: str, href) -> str:
    t = UI[lang]
    lines = [r for r in catalog.releases if r.pages[lang].lts]
    if not lines:
        return ""
    rows = []
    for release in lines:
        lts = release.pages[lang].lts
        if lts is None:
            continue
        link = f'<a href="{esc(href(release.pages[lang]))}">{esc(release.version)}</a>'
        source = f'<span class="support-lts-source">{esc(t["lts_source"])}<a href="{esc(lts.source)}">{esc(lts.source.split("://", 1)[-1].rstrip("/"))}</a>{evidence_mark(lts.evidence, lang)}</span>'
        rows.append(
            f'<tr data-lts="{esc(release.version)}"><th scope="row">{link}</th><td>{esc(t["list_sep"].join(lts.patches))}</td>'
            f"<td>{esc(lts.note)} {source}</td></tr>"
        )
    head = f'<thead><tr><th scope="col">{esc(t["col_release"])}</th><th scope="col">{esc(t["col_lts_patches"])}</th><th scope="col">{esc(t["col_lts_note"])}</th></tr></thead>'
    return "\n\n".join(
        [
            f'<h2 id="lts">{esc(t["lts"])}</h2>',
            f"<p>{esc(t['lts_intro'])}</p>",
            f'<table class="support-table" id="support-lts">{head}<tbody>{"".join(rows)}</tbody></table>',
        ]
    )


def platforms_section(catalog: Catalog, lang: str, href) -> str:
    t = UI[lang]
    by_version = catalog.by_version()
    rows = []
    for release in catalog.releases:
        for change in release.pages[lang].changes:
            if not change.ends or not change.last_supported:
                continue  # the catalog refuses `ends` without `last_supported`
            last = by_version[change.last_supported]
            rows.append(
                f'<tr data-ends="{esc(change.ends)}" data-last="{esc(last.version)}"><th scope="row">{esc(SUPPORT_ENDS[change.ends][lang])}</th>'
                f'<td><a href="{esc(href(last.pages[lang]))}">{esc(last.version)}</a> {date_html(last, lang)}</td>'
                f'<td><a href="{esc(href(release.pages[lang], change.anchor))}">{esc(release.version)}</a>{evidence_mark(change.evidence, lang)}</td></tr>'
            )
    head = f'<thead><tr><th scope="col">{esc(t["col_what"])}</th><th scope="col">{esc(t["col_last"])}</th><th scope="col">{esc(t["col_change"])}</th></tr></thead>'
    return "\n\n".join(
        [
            f'<h2 id="platforms">{esc(t["platforms"])}</h2>',
            f"<p>{esc(t['platform_intro'])}</p>",
            f'<table class="support-table" id="support-platforms">{head}<tbody>{"".join(rows)}</tbody></table>',
        ]
    )


def cadence_section(catalog: Catalog, lang: str) -> str:
    t = UI[lang]
    dated = [r for r in reversed(catalog.releases) if r.facts.date_precision == "day"]
    if len(dated) <= 4:
        return ""
    days = (dated[-1].date - dated[0].date).days / (len(dated) - 1)
    recent = [(b.date - a.date).days for a, b in zip(dated[-5:], dated[-4:], strict=False)]
    text = t["cadence_text"].format(
        count=len(catalog.releases),
        first=dated[0].version,
        last=dated[-1].version,
        days=round(days),
        recent=", ".join(str(d) for d in recent),
    )
    return f'<h2 id="cadence">{esc(t["cadence"])}</h2>\n\n<p class="cadence">{esc(text)}</p>'


def support_timeline(catalog: Catalog, lang: str, href, verdicts: Verdicts) -> str:
    """The whole support page content: today, Python and CUDA (chart and table), LTS, platforms, cadence.

    Raw HTML blocks separated by blank lines (the hook puts it into the page's Markdown)."""
    if not catalog.releases:
        return ""
    t = UI[lang]
    blocks = [today_summary(catalog, lang, href, verdicts)]
    for field in FIELDS:
        ranges = support_ranges(catalog, field, verdicts)
        disputed = t["disputed"] if any(r.disputed_before or r.disputed_after for r in ranges) else ""
        blocks += [
            f'<h2 id="{field}">{esc(t[field])}</h2>',
            f"<p>{esc(t[field + '_intro'].format(disputed=disputed).strip())}</p>",
            support_chart(catalog, field, ranges, lang, verdicts.checked),
            support_table(catalog, field, ranges, lang, href),
        ]
    blocks += [lts_section(catalog, lang, href), platforms_section(catalog, lang, href), cadence_section(catalog, lang)]
    return "\n\n".join(b for b in blocks if b) + "\n"
