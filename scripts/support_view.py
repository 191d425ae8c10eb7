"""The support page (docs/support.md, `<!-- support-timeline -->`): what is supported today, and for every Python
and CUDA version the first and last release that supported it, with their dates, as a table and as a chart.

Pure functions of the catalog and the registry evidence; every text escaped; no build clock (dates come from
the catalog, so two builds of one commit are byte-identical).

- Python: a release supports what `scripts.verdicts.python_verdict` says (PyPI's Linux x86_64 wheels, the tables'
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

import datetime as dt
from dataclasses import dataclass

from scripts.catalog.compat import SOURCES
from scripts.catalog.model import SUPPORT_ENDS, Catalog, Release, version_key
from scripts.render import esc, evidence_mark, provisional_html

FIELDS = ("python", "cuda")

# PyTorch's published schedule (RELEASE.md, "Release Cadence"), known here from a third-party copy: a plan,
# shown as a plan, and only for releases that neither the catalog nor PyPI lists yet.
RELEASE_PLAN = (("2.15", "2026-10-28"), ("2.16", "2026-12-22"))

UI = {
    "zh": {
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
        "plan": "计划（不是事实）：RELEASE.md 的发布日程（第三方副本 ◆）把 PyTorch {version} 排在 {date}",
        "source_pypi": "PyPI 上 Linux x86_64 的 wheel",
        "source_tables": "据 {sources}；PyPI 上没有这一版的 Linux x86_64 wheel",
        "provisional_date": "（PyPI 上传日期）",
        "provisional_date_inline": "，PyPI 上传日期",
        "month_only": "（只知道月份）",
        "list_sep": "、",
        "colon": "：",
        "python": "Python 版本",
        "cuda": "CUDA 版本",
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
        "chart_title": "{what}的支持时间线",
        "chart_desc": "横轴是时间（{start} 到 {end}），每个{unit}一条横条，从第一个支持它的 PyTorch 版本的日期画到最后一个支持它的版本的日期；详细数据见下表。",
        "chart_row": "{label}：{first}（{first_date}）到 {last}（{last_date}）",
        "chart_row_current": "{label}：{first}（{first_date}）起，至今仍支持（{last}，{last_date}）",
        "chart_row_unknown": "{label}：{first}（{first_date}）到 {last}（{last_date}），{newest} 是否支持尚不清楚",
        "chart_unit_python": " Python 版本",
        "chart_unit_cuda": " CUDA 版本",
        "chart_caption": "图：每个{unit}从首个到最后一个支持它的版本（按发布日期）。",
        "legend_ended": "已停止支持",
        "legend_current": "最新版本仍支持",
        "legend_unknown": "最新版本（临时条目）是否支持尚不清楚",
    },
    "en": {
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
        "plan": "Plan, not fact: RELEASE.md's release schedule (third-party copy ◆) puts PyTorch {version} on {date}",
        "source_pypi": "PyPI's Linux x86_64 wheels",
        "source_tables": "according to {sources}; PyPI has no Linux x86_64 wheels of this release",
        "provisional_date": " (PyPI upload day)",
        "provisional_date_inline": ", PyPI upload day",
        "month_only": " (month only)",
        "list_sep": ", ",
        "colon": ": ",
        "python": "Python versions",
        "cuda": "CUDA versions",
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
        "chart_title": "Support timeline of {what}",
        "chart_desc": "Time runs left to right ({start} to {end}); each{unit} has one bar, from the date of the first PyTorch release that supported it to the date of the last one. The table below has the details.",
        "chart_row": "{label}: {first} ({first_date}) to {last} ({last_date})",
        "chart_row_current": "{label}: from {first} ({first_date}), still supported ({last}, {last_date})",
        "chart_row_unknown": "{label}: {first} ({first_date}) to {last} ({last_date}); not known yet for {newest}",
        "chart_unit_python": " Python version",
        "chart_unit_cuda": " CUDA version",
        "chart_caption": "Each{unit} from the first to the last release that supported it, by release date.",
        "legend_ended": "support ended",
        "legend_current": "still supported by the newest release",
        "legend_unknown": "not known yet for the newest (provisional) release",
    },
}


# --- facts --------------------------------------------------------------------------------------------------


def _sort_key(version: str) -> tuple:
    return tuple(int(p) for p in version.rstrip("t").split(".")) + ((1,) if version.endswith("t") else (0,))


def release_values(release: Release, field: str, evidence: dict | None) -> tuple[set[str], bool]:
    """(versions the release supports, whether that list is complete). Python: the verdict. CUDA: the claims;
    a release without CUDA claims knows at most its PyPI wheel's CUDA, which is not the whole list."""
    if field == "python":
        from scripts.verdicts import python_verdict

        versions = set(python_verdict(release, evidence).versions)
        return versions, bool(versions)
    compat = release.compat
    if compat is None:
        return set(), False
    claimed = {v for claim in compat.primary("cuda") for v in claim.values + claim.experimental}
    if claimed:
        return claimed, True
    return {v for claim in compat.primary("pypi_cuda") for v in claim.values}, False


@dataclass(frozen=True)
class SupportRange:
    """One row of a support table: a Python/CUDA version, the first and last release with it, and what the
    newest release says: `current` (it supports it) or `unknown` (its list for this field is not complete)."""

    value: str
    first: Release
    last: Release
    current: bool
    unknown: bool
    disputed_before: tuple[Release, tuple[str, ...]] | None = None
    disputed_after: tuple[Release, tuple[str, ...]] | None = None


def support_ranges(catalog: Catalog, field: str, evidence: dict | None = None) -> list[SupportRange]:
    """Every Python/CUDA version any release supports, newest version first."""
    first: dict[str, Release] = {}
    last: dict[str, Release] = {}
    complete_after: dict[str, bool] = {}  # value -> a release after its last one has a complete list
    for release in reversed(catalog.releases):  # oldest first
        values, complete = release_values(release, field, evidence)
        for value in values:
            first.setdefault(value, release)
            last[value] = release
            complete_after[value] = False
        if complete:
            for value in complete_after:
                if value not in values:
                    complete_after[value] = True
    newest = catalog.releases[0] if catalog.releases else None
    disputed = disputed_support(catalog, field, evidence)
    out = []
    for value in sorted(first, key=_sort_key, reverse=True):
        current = last[value] is newest
        earlier = [d for d in disputed.get(value, []) if version_key(d[0].version) < version_key(first[value].version)]
        later = [d for d in disputed.get(value, []) if version_key(d[0].version) > version_key(last[value].version)]
        out.append(
            SupportRange(
                value, first[value], last[value], current,
                unknown=not current and not complete_after[value],
                disputed_before=earlier[0] if earlier else None,
                disputed_after=later[-1] if later else None,
            )
        )  # fmt: skip
    return out


def disputed_support(
    catalog: Catalog, field: str, evidence: dict | None = None
) -> dict[str, list[tuple[Release, tuple[str, ...]]]]:
    """Releases that only another source counts for a Python/CUDA version, where PyPI cannot contradict it:
    {version: [(release, sources)]}, oldest first.

    Python: only releases PyPI has no Linux x86_64 wheels of (their verdict is the tables' claim); where PyPI has
    them, its wheels are the answer and a table's extra version is contradicted (2.5 has no cp38 wheel).
    CUDA: PyPI does not list the index's variants, so a disagreeing claim stays."""
    from scripts.verdicts import PYPI, python_verdict

    out: dict[str, list[tuple[Release, tuple[str, ...]]]] = {}
    for release in reversed(catalog.releases):  # oldest first
        if release.compat is None:
            continue
        if field == "python" and python_verdict(release, evidence).source == PYPI:
            continue
        shown, _ = release_values(release, field, evidence)
        others: dict[str, list[str]] = {}
        for _, claim in release.compat.conflicts(field):
            for value in set(claim.values + claim.experimental) - shown:
                others.setdefault(value, [])
                others[value] += [s for s in claim.sources if s not in others[value] and s != PYPI]
        for value, sources in others.items():
            if sources:
                out.setdefault(value, []).append((release, tuple(sources)))
    return out


def dropped_by_newest(catalog: Catalog, field: str, evidence: dict | None) -> list[str] | None:
    """The Python/CUDA versions the previous release had and the newest does not; None when the newest
    release's list is not complete (a provisional release's CUDA builds)."""
    if len(catalog.releases) < 2:
        return []
    newest, previous = catalog.releases[0], catalog.releases[1]
    now, complete = release_values(newest, field, evidence)
    if not complete:
        return None
    before, _ = release_values(previous, field, evidence)
    return sorted(before - now, key=_sort_key)


def planned_releases(catalog: Catalog, evidence: dict | None) -> list[tuple[str, str]]:
    """RELEASE_PLAN entries that neither the catalog nor PyPI lists yet."""
    released = {r.version for r in catalog.releases}
    if evidence:
        released |= {
            ".".join(v.split(".")[:2]) for v, record in evidence.get("torch", {}).items() if record.get("files")
        }
    return [(version, date) for version, date in RELEASE_PLAN if version not in released]


# --- HTML pieces ----------------------------------------------------------------------------------------------


def date_text(release: Release, lang: str) -> str:
    """ "2026-09-02", "2017-01 (month only)", "2026-10-28, PyPI upload day" as plain text (it goes in parentheses)."""
    t = UI[lang]
    page = release.facts
    suffix = t["month_only"] if page.date_precision == "month" else ""
    return page.date_iso + suffix + (t["provisional_date_inline"] if release.provisional else "")


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
    from scripts.compat_views import matrix_row_id

    release, sources = item
    names = UI[lang]["list_sep"].join(SOURCES[s][lang] for s in sources)
    target = href.view("compatibility", matrix_row_id(release.version))
    text = UI[lang]["other_sources"].format(
        sources=esc(names), version=f'<a href="{esc(target)}">{esc(release.version)}</a>'
    )
    return f'<span class="claim-conflict support-disputed" data-disputed="{esc(release.version)}">{text}</span>'


def _label(field: str, value: str) -> str:
    return f"Python {value}" if field == "python" else f"CUDA {value}"


def _slug(value: str) -> str:
    return value.replace(".", "-")


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
            f'<tr id="support-{field}-{_slug(row.value)}" data-{field}="{esc(row.value)}" data-first="{esc(row.first.version)}" data-last="{esc(row.last.version)}" data-state="{state}">'
            f'<th scope="row">{esc(_label(field, row.value))}</th><td>{first_cell}</td><td>{last_cell}</td></tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


# --- the chart -------------------------------------------------------------------------------------------------

# Geometry in viewBox units: narrow enough that a phone (about 350 CSS px of content) shows the 11-unit text at
# about 10 px; the stylesheet caps the width on wide screens.
CHART_WIDTH = 360
LABEL_WIDTH = 44
RIGHT_PAD = 10
ROW_HEIGHT = 16
BAR_HEIGHT = 10
AXIS_HEIGHT = 18
MIN_BAR = 3


def _days(day: dt.date, start: dt.date) -> int:
    return (day - start).days


def _x(day: dt.date, start: dt.date, end: dt.date) -> float:
    span = max(1, _days(end, start))
    return round(LABEL_WIDTH + (CHART_WIDTH - LABEL_WIDTH - RIGHT_PAD) * _days(day, start) / span, 1)


def _row_text(row: SupportRange, field: str, newest: Release, lang: str) -> str:
    t = UI[lang]
    values = {
        "label": _label(field, row.value),
        "first": row.first.version,
        "first_date": date_text(row.first, lang),
        "last": (newest if row.current else row.last).version,
        "last_date": date_text(newest if row.current else row.last, lang),
        "newest": newest.version,
    }
    key = "chart_row_current" if row.current else "chart_row_unknown" if row.unknown else "chart_row"
    return t[key].format(**values)


def support_chart(catalog: Catalog, field: str, ranges: list[SupportRange], lang: str) -> str:
    """One bar per row of the table, from the first release's date to the last's (to the newest release's
    date when it still supports it); a dashed tail where the newest release's list is not known yet."""
    t = UI[lang]
    newest = catalog.releases[0]
    if not ranges:
        return ""
    start_day = min(r.first.date for r in ranges)
    start = dt.date(start_day.year, 1, 1)
    end = newest.date
    height = AXIS_HEIGHT + ROW_HEIGHT * len(ranges) + 4
    what = t[field]
    unit = t[f"chart_unit_{field}"]
    title_id, desc_id = f"support-chart-{field}-title", f"support-chart-{field}-desc"
    rows_text = (t["list_sep"] if lang == "zh" else "; ").join(_row_text(r, field, newest, lang) for r in ranges)
    desc = t["chart_desc"].format(start=start.isoformat()[:4], end=newest.date_iso, unit=unit) + " " + rows_text
    out = [
        f'<svg class="support-chart-svg" id="support-chart-{field}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CHART_WIDTH} {height}" '
        f'preserveAspectRatio="xMinYMin meet" role="img" aria-labelledby="{title_id} {desc_id}" focusable="false">',
        f'<title id="{title_id}">{esc(t["chart_title"].format(what=what))}</title>',
        f'<desc id="{desc_id}">{esc(desc)}</desc>',
        '<g class="support-chart-axis">',
    ]
    bottom = AXIS_HEIGHT + ROW_HEIGHT * len(ranges)
    for year in range(start.year, end.year + 1):
        x = _x(dt.date(year, 1, 1), start, end)
        out.append(f'<line class="support-chart-grid" x1="{x}" y1="{AXIS_HEIGHT - 4}" x2="{x}" y2="{bottom}"></line>')
        if (year - start.year) % 2 == 0:  # every other year: the labels fit a phone
            out.append(
                f'<text class="support-chart-year" x="{x}" y="{AXIS_HEIGHT - 7}" text-anchor="middle" font-size="10">{year}</text>'
            )
    out.append("</g>")
    for index, row in enumerate(ranges):
        y = AXIS_HEIGHT + ROW_HEIGHT * index
        last = newest if row.current else row.last
        x1, x2 = _x(row.first.date, start, end), _x(last.date, start, end)
        width = max(MIN_BAR, round(x2 - x1, 1))
        state = "current" if row.current else "unknown" if row.unknown else "ended"
        out.append(f'<g class="support-chart-row" id="support-bar-{field}-{_slug(row.value)}">')
        out.append(f"<title>{esc(_row_text(row, field, newest, lang))}</title>")
        out.append(
            f'<text class="support-chart-label" x="{LABEL_WIDTH - 4}" y="{y + BAR_HEIGHT}" text-anchor="end" font-size="11">{esc(row.value)}</text>'
        )
        out.append(
            f'<rect class="support-bar support-bar-{state}" x="{x1}" y="{y + 2}" width="{width}" height="{BAR_HEIGHT}" rx="2"></rect>'
        )
        if row.unknown:
            tail = _x(newest.date, start, end)
            out.append(
                f'<line class="support-bar-tail" x1="{x1 + width}" y1="{y + 2 + BAR_HEIGHT / 2}" x2="{tail}" y2="{y + 2 + BAR_HEIGHT / 2}"></line>'
            )
        out.append("</g>")
    out.append("</svg>")
    legend = [("ended", t["legend_ended"]), ("current", t["legend_current"])]
    if any(r.unknown for r in ranges):
        legend.append(("unknown", t["legend_unknown"]))
    items = "".join(
        f'<li><span class="support-swatch support-swatch-{key}" aria-hidden="true"></span>{esc(text)}</li>'
        for key, text in legend
    )
    caption = esc(t["chart_caption"].format(unit=unit))
    return f'<figure class="support-chart" id="chart-{field}">{"".join(out)}<figcaption>{caption}<ul class="support-chart-legend">{items}</ul></figcaption></figure>'


# --- sections ---------------------------------------------------------------------------------------------------


def today_summary(catalog: Catalog, lang: str, href, evidence: dict | None) -> str:
    """The newest release, what it supports, what it dropped, and the next planned release."""
    from scripts.install_view import python_summary
    from scripts.verdicts import PYPI, python_verdict

    t = UI[lang]
    newest = catalog.releases[0]
    verdict = python_verdict(newest, evidence)
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
    cudas, complete = release_values(newest, "cuda", evidence)
    if complete:
        cuda = ", ".join(sorted(cudas, key=_sort_key))
    elif cudas:
        cuda = t["today_cuda_pypi_only"].format(cuda=", ".join(sorted(cudas, key=_sort_key)))
    else:
        cuda = t["today_cuda_unknown"]
    dropped, unknown = [], ""
    for field in FIELDS:
        values = dropped_by_newest(catalog, field, evidence)
        if values is None:
            unknown = t["today_dropped_cuda_unknown"]  # a provisional release's CUDA builds: no "dropped" either way
        dropped += [_label(field, v) for v in values or []]
    dropped += [SUPPORT_ENDS[c.ends][lang] for c in newest.pages[lang].changes if c.ends]
    previous = catalog.releases[1].version if len(catalog.releases) > 1 else ""
    plans = planned_releases(catalog, evidence)
    if plans:
        version, date = plans[0]
        plan = f'<span class="release-plan" data-version="{esc(version)}">{esc(t["plan"].format(version=version, date=date))}</span>'
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
            if not change.ends:
                continue
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


def support_timeline(catalog: Catalog, lang: str, href, evidence: dict | None = None) -> str:
    """The whole support page content: today, Python and CUDA (chart and table), LTS, platforms, cadence.

    Raw HTML blocks separated by blank lines (the hook puts it into the page's Markdown)."""
    if not catalog.releases:
        return ""
    t = UI[lang]
    blocks = [today_summary(catalog, lang, href, evidence)]
    for field in FIELDS:
        ranges = support_ranges(catalog, field, evidence)
        disputed = t["disputed"] if any(r.disputed_before or r.disputed_after for r in ranges) else ""
        blocks += [
            f'<h2 id="{field}">{esc(t[field])}</h2>',
            f"<p>{esc(t[field + '_intro'].format(disputed=disputed).strip())}</p>",
            support_chart(catalog, field, ranges, lang),
            support_table(catalog, field, ranges, lang, href),
        ]
    blocks += [lts_section(catalog, lang, href), platforms_section(catalog, lang, href), cadence_section(catalog, lang)]
    return "\n\n".join(b for b in blocks if b) + "\n"
