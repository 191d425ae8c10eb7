"""The support page's charts: one row per Python/CUDA version, its bar on a time axis shared by every row and, in
words beside it, the first and the last release with their dates and whether support ended (every fact is text;
nothing hides in a tooltip). The bars are inline SVG (one small drawing per row, stretched to the row's width);
the labels are HTML text at the page's size, so a phone shows them at 12 px or more. A marker stands at the day
PyPI was last checked (the registry evidence's date, a fact of the build, so two builds are byte-identical).
Colours live in docs/assets/stylesheets/support-chart.css (no style attributes). Also the dates, labels and words
the tables share.
"""

from __future__ import annotations

import datetime as dt

from scripts.catalog.model import Catalog, Release
from scripts.verdicts.support import SupportRange
from scripts.views.html import esc

UI: dict[str, dict[str, str]] = {
    "zh": {
        "provisional_date_inline": "，PyPI 上传日期",
        "month_only": "（只知道月份）",
        "list_sep": "、",
        "python": "Python 版本",
        "cuda": "CUDA 版本",
        "chart_title": "{what}的支持时间线",
        "chart_row": "{first}（{first_date}）→ {last}（{last_date}）",
        "chart_state_ended": "已停止支持",
        "chart_state_current": "至今仍支持",
        "chart_state_unknown": "{newest} 是否支持尚不清楚",
        "chart_unit_python": " Python 版本",
        "chart_unit_cuda": " CUDA 版本",
        "chart_caption": "图：每个{unit}一行，横条从第一个支持它的 PyTorch 版本的发布日期画到最后一个的发布日期，旁边用文字写出这两个版本、日期和现状。",
        "legend_ended": "已停止支持",
        "legend_current": "最新版本仍支持",
        "legend_unknown": "最新版本（临时条目）是否支持尚不清楚",
        "legend_checked": "竖线：最近一次与 PyPI 核对的日期（{checked}），本页事实截至这一天",
    },
    "en": {
        "provisional_date_inline": ", PyPI upload day",
        "month_only": " (month only)",
        "list_sep": ", ",
        "python": "Python versions",
        "cuda": "CUDA versions",
        "chart_title": "Support timeline of {what}",
        "chart_row": "{first} ({first_date}) → {last} ({last_date})",
        "chart_state_ended": "ended",
        "chart_state_current": "still supported",
        "chart_state_unknown": "not known yet for {newest}",
        "chart_unit_python": " Python version",
        "chart_unit_cuda": " CUDA version",
        "chart_caption": "One row per{unit}: the bar runs from the release date of the first PyTorch release that supported it to that of the last one; beside it, in words, both releases, their dates and where support stands.",
        "legend_ended": "support ended",
        "legend_current": "still supported by the newest release",
        "legend_unknown": "not known yet for the newest (provisional) release",
        "legend_checked": "vertical line: the day PyPI was last checked ({checked}); the facts here are as of that day",
    },
}


def date_text(release: Release, lang: str) -> str:
    """ "2026-09-02", "2017-01 (month only)", "2026-10-28, PyPI upload day" as plain text (it goes in parentheses)."""
    t = UI[lang]
    page = release.facts
    suffix = t["month_only"] if page.date_precision == "month" else ""
    return page.date_iso + suffix + (t["provisional_date_inline"] if release.provisional else "")


def label(field: str, value: str) -> str:
    return f"Python {value}" if field == "python" else f"CUDA {value}"


def slug(value: str) -> str:
    return value.replace(".", "-")


# --- the chart -------------------------------------------------------------------------------------------------

# Each row's drawing: TRACK units wide (the axis runs from 1 January of the first year to 1 January after the last),
# stretched to the row's width; its height is set by the stylesheet. Text never goes in it.
TRACK = 1000
BAR_Y, BAR_HEIGHT, TRACK_HEIGHT = 2, 8, 12
MIN_BAR = 4


def _x(day: dt.date, start: dt.date, end: dt.date) -> float:
    span = max(1, (end - start).days)
    return round(TRACK * (day - start).days / span, 1)


def _row_text(row: SupportRange, newest: Release, lang: str) -> tuple[str, str]:
    """(first → last with dates, where support stands) of a row, as the words beside its bar."""
    t = UI[lang]
    last = newest if row.current else row.last
    span = t["chart_row"].format(
        first=row.first.version,
        first_date=date_text(row.first, lang),
        last=last.version,
        last_date=date_text(last, lang),
    )
    state = "current" if row.current else "unknown" if row.unknown else "ended"
    return span, t[f"chart_state_{state}"].format(newest=newest.version)


def _axis(start: dt.date, years: int) -> str:
    labels = "".join(f'<span class="support-chart-year">{start.year + i}</span>' for i in range(years))
    return f'<div class="support-chart-axis" aria-hidden="true"><span></span><span class="support-chart-years">{labels}</span></div>'


def _track(
    row: SupportRange, newest: Release, start: dt.date, end: dt.date, checked: dt.date | None, years: int
) -> str:
    last = newest if row.current else row.last
    x1, x2 = _x(row.first.date, start, end), _x(last.date, start, end)
    width = max(MIN_BAR, round(x2 - x1, 1))
    state = "current" if row.current else "unknown" if row.unknown else "ended"
    parts = [
        f'<line class="support-chart-grid" x1="{_x(dt.date(start.year + i, 1, 1), start, end)}" y1="0" '
        f'x2="{_x(dt.date(start.year + i, 1, 1), start, end)}" y2="{TRACK_HEIGHT}"></line>'
        for i in range(1, years)
    ]
    parts.append(
        f'<rect class="support-bar support-bar-{state}" x="{x1}" y="{BAR_Y}" width="{width}" height="{BAR_HEIGHT}"></rect>'
    )
    if row.unknown:
        tail = _x(newest.date, start, end)
        middle = BAR_Y + BAR_HEIGHT / 2
        parts.append(
            f'<line class="support-bar-tail" x1="{x1 + width}" y1="{middle}" x2="{tail}" y2="{middle}"></line>'
        )
    if checked is not None:
        x = _x(checked, start, end)
        parts.append(f'<line class="support-chart-checked" x1="{x}" y1="0" x2="{x}" y2="{TRACK_HEIGHT}"></line>')
    return (
        f'<svg class="support-chart-track" viewBox="0 0 {TRACK} {TRACK_HEIGHT}" preserveAspectRatio="none" '
        f'aria-hidden="true" focusable="false">{"".join(parts)}</svg>'
    )


def support_chart(
    catalog: Catalog, field: str, ranges: list[SupportRange], lang: str, checked: str | None = None
) -> str:
    """One row per row of the table: the version, its bar from the first release's date to the last's (to the newest
    release's when it still supports it; a dashed tail where the newest release's list is not known), and the same
    in words. `checked`: the day the registry evidence was asked (YYYY-MM-DD), drawn as a line on every row."""
    t = UI[lang]
    newest = catalog.releases[0]
    if not ranges:
        return ""
    checked_day = dt.date.fromisoformat(checked) if checked else None
    first_day = min(r.first.date for r in ranges)
    last_day = max([newest.date] + ([checked_day] if checked_day else []))
    start, end = dt.date(first_day.year, 1, 1), dt.date(last_day.year + 1, 1, 1)
    years = end.year - start.year
    unit = t[f"chart_unit_{field}"]
    rows = []
    for row in ranges:
        span, state = _row_text(row, newest, lang)
        css = "current" if row.current else "unknown" if row.unknown else "ended"
        rows.append(
            f'<li class="support-chart-row support-chart-{css}" id="support-bar-{field}-{slug(row.value)}" data-state="{css}">'
            f'<span class="support-chart-label">{esc(label(field, row.value))}</span>'
            f"{_track(row, newest, start, end, checked_day, years)}"
            f'<span class="support-chart-span">{esc(span)} · <span class="support-chart-state">{esc(state)}</span></span></li>'
        )
    legend = [("ended", t["legend_ended"]), ("current", t["legend_current"])]
    if any(r.unknown for r in ranges):
        legend.append(("unknown", t["legend_unknown"]))
    if checked:
        legend.append(("checked", t["legend_checked"].format(checked=checked)))
    items = "".join(
        f'<li><span class="support-swatch support-swatch-{key}" aria-hidden="true"></span>{esc(text)}</li>'
        for key, text in legend
    )
    title = esc(t["chart_title"].format(what=t[field]))
    caption = esc(t["chart_caption"].format(unit=unit))
    return (
        f'<figure class="support-chart" id="chart-{field}" aria-labelledby="support-chart-{field}-title">'
        f'<figcaption><span class="support-chart-title" id="support-chart-{field}-title">{title}</span> {caption}'
        f'<ul class="support-chart-legend">{items}</ul></figcaption>'
        f"{_axis(start, years)}"
        f'<ol class="support-chart-rows" id="support-chart-{field}">{"".join(rows)}</ol></figure>'
    )
