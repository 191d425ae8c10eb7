"""The support page's charts: one bar per row of a support table (time on the x axis), static inline SVG scaled by
its viewBox, with a <title>/<desc> text alternative; the table stays the detailed view. Colours live in
docs/assets/stylesheets/support-chart.css (no style attributes). Also the dates, labels and words the tables share.
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
        "provisional_date_inline": ", PyPI upload day",
        "month_only": " (month only)",
        "list_sep": ", ",
        "python": "Python versions",
        "cuda": "CUDA versions",
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
        "label": label(field, row.value),
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
        out.append(f'<g class="support-chart-row" id="support-bar-{field}-{slug(row.value)}">')
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
