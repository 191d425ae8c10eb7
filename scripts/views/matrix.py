"""The compatibility matrix (docs/compatibility.md, `<!-- compatibility -->`): one row per release, one verdict per
cell (Python, PyPI's default build, CUDA, ROCm, C++, torchvision, torchaudio), every source's claim one click away,
filters by release, Python, CUDA and torchvision and a platform choice for the Python column (views.js, install.js).
The verdicts come from scripts/verdicts/; every text is escaped.
"""

from __future__ import annotations

import json

from scripts.catalog.compat import SOURCES, Claim
from scripts.catalog.model import Catalog, Release
from scripts.verdicts.model import MAIN_PLATFORM, PLATFORMS, PYPI, ReleaseVerdict, Verdicts
from scripts.views.html import esc, evidence_mark
from scripts.views.words import SYSTEM_NAMES, python_summary

UI: dict[str, dict[str, str]] = {"zh": {}, "en": {}}


# --- the compatibility matrix -----------------------------------------------------------------------------

# Column heads are product names, the same in both languages.
MATRIX_COLUMNS = {
    "col_release": "PyTorch",
    "col_python": "Python",
    "col_cuda": "CUDA",
    "col_rocm": "ROCm",
    "col_cxx": "C++",
    "col_torchvision": "torchvision",
    "col_torchaudio": "torchaudio",
}
UI["zh"].update(MATRIX_COLUMNS)
UI["en"].update(MATRIX_COLUMNS)
UI["zh"].update(
    {
        "col_build": "PyPI 默认构建",
        "col_sources": "来源",
        "sources_short": "来源",
        "sources_toggle": "{version} 的各方来源",
        "row_search_title": "PyTorch {version} 的兼容性：Python、CUDA、ROCm、C++、torchvision、torchaudio",
        "cpu_build": "CPU",
        "filter_release": "PyTorch 版本",
        "filter_platform": "Python 列按平台",
        "matrix_caption": "每个 PyTorch 版本的兼容性结论：Python、PyPI 默认构建、CUDA、ROCm、C++、torchvision、torchaudio",
        "matrix_key": "Python：PyPI 上该平台有 torch wheel 的 Python 版本（默认 Linux x86_64；PyPI 没有该版本时取资料中的表格，并标出来源）。PyPI 默认构建：pip install torch==X 在 Linux x86_64 上装到的构建，读自 wheel 自带的 torch/version.py。CUDA、ROCm：download.pytorch.org 上的变体，取自资料，* 表示实验性。torchvision、torchaudio：纯 pip 命令固定的版本（已由 pip 解析器核对），⚠ 表示 PyPI 已撤回。各来源的原始说法在每行的“来源”里。",
        "from_tables": "PyPI 上没有这一版的 wheel，取自资料中的表格",
        "provisional": "暂定",
        "lts_title": "LTS（长期支持）：{patches}",
        "filter_python": "支持的 Python",
        "filter_cuda": "提供的 CUDA",
        "filter_torchvision": "配套的 torchvision",
        "filter_any": "不限",
        "filter_count": "显示 {shown} / {total} 个版本",
        "filter_none": "没有版本符合这些条件。",
        "filter_reset": "清除筛选",
        "experimental_short": "实验性",
        "gap": "—",
        "gap_title": "资料中没有记载",
        "legend_title": "来源与证据",
        "legend_intro": "每个值后面的字母是它的来源，◆ 表示来源是官方文字的第三方副本或推断（官方来源不另加标记）；⚠ 标出来源之间的分歧，两边都列出；“说明”可以展开。",
        "pending": "PyPI 上已有 {version}（首次上传 {uploaded}，{checked} 核对），但本站还没有它的官方发布文章，暂不收录；PyPI 显示的 Python：{python}。",
        "conflict": "另一来源",
        "note": "说明",
        "checked": "与 PyPI 核对：{checked}",
    }
)
UI["en"].update(
    {
        "col_build": "PyPI default build",
        "col_sources": "Sources",
        "sources_short": "sources",
        "sources_toggle": "Sources for {version}",
        "row_search_title": "PyTorch {version} compatibility: Python, CUDA, ROCm, C++, torchvision, torchaudio",
        "cpu_build": "CPU",
        "filter_release": "PyTorch release",
        "filter_platform": "Python column for",
        "matrix_caption": "The compatibility verdict for each PyTorch release: Python, PyPI's default build, CUDA, ROCm, C++, torchvision, torchaudio",
        "matrix_key": "Python: the versions PyPI has torch wheels for on that platform (Linux x86_64 unless chosen; where PyPI has none of the release, the tables' value, with its source). PyPI default build: what pip install torch==X installs on Linux x86_64, read from the wheel's own torch/version.py. CUDA, ROCm: download.pytorch.org's variants, from the sources; * experimental. torchvision, torchaudio: what the plain pip command pins (checked by pip's resolver); ⚠ yanked on PyPI. Each row's \"sources\" holds every source's own claim.",
        "from_tables": "PyPI has no wheels of this release: the tables' value",
        "provisional": "provisional",
        "lts_title": "LTS (long-term support): {patches}",
        "filter_python": "Supports Python",
        "filter_cuda": "Ships CUDA",
        "filter_torchvision": "Pairs with torchvision",
        "filter_any": "any",
        "filter_count": "Showing {shown} of {total} releases",
        "filter_none": "No release matches these filters.",
        "filter_reset": "Clear filters",
        "experimental_short": "experimental",
        "gap": "—",
        "gap_title": "not stated by our sources",
        "legend_title": "Sources and evidence",
        "legend_intro": 'The letters after each value name its sources; ◆ marks a third-party copy of official text or a derived value (official values carry no mark); ⚠ marks a disagreement between sources, both shown; a "note" opens on a click.',
        "pending": "PyPI already lists {version} (first upload {uploaded}, checked {checked}), but its official release post is not available here yet, so it has no page; PyPI shows Python {python}.",
        "conflict": "another source",
        "note": "note",
        "checked": "Checked against PyPI: {checked}",
    }
)

COLUMNS = ("python", "cuda", "rocm", "cxx", "torchvision", "torchaudio")
MATRIX_ORDER = ("python", "build", "cuda", "rocm", "cxx", "torchvision", "torchaudio")
FILTERS = ("release", "python", "cuda", "torchvision")


def _sources_html(claim: Claim, lang: str, release_source: str) -> str:
    keys = []
    for key in claim.sources:
        title = SOURCES[key][lang]
        keys.append(f'<abbr title="{esc(title)}">{esc(key)}</abbr>')
    return f'<span class="claim-sources">{" ".join(keys)}</span>{evidence_mark(claim.evidence, lang)}'


def _claim_value(field: str, claim: Claim, lang: str) -> str:
    t = UI[lang]
    if field == "python":
        text = python_summary(list(claim.values))
        if claim.experimental:
            text += f" · {', '.join(claim.experimental)} ({t['experimental_short']})"
        return text
    if field == "cuda":
        text = ", ".join(claim.values)
        if claim.experimental:
            text += f" · {', '.join(claim.experimental)} ({t['experimental_short']})"
        return text
    if field == "cxx":
        return f"C++{claim.values[0]}"
    return ", ".join(claim.values)


def _scope(claim: Claim) -> str:
    parts = []
    if claim.torch:
        parts.append(", ".join(claim.torch))
    if claim.channel:
        parts.append(claim.channel)
    return f"{' · '.join(parts)}: " if parts else ""


def claims_cell(release: Release, field: str, lang: str) -> str:
    """Every claim of a field: the first per scope as the value, disagreeing ones marked ⚠ with their sources."""
    t = UI[lang]
    compat = release.pages[lang].compat  # the facts with this language's note texts
    claims = compat.claims(field) if compat else ()
    if compat is None or not claims:
        return f'<span class="gap" title="{esc(t["gap_title"])}">{t["gap"]}</span>'
    shown = {id(c) for c in compat.primary(field)}
    items = []
    for claim in claims:
        css = "claim" if id(claim) in shown else "claim claim-conflict"
        prefix = "" if id(claim) in shown else f'<span class="conflict-mark" title="{esc(t["conflict"])}">⚠</span> '
        note = ""
        if claim.note:
            # Folded, so a cell stays one line at a glance; open by a click, a tap or the keyboard (and in print).
            note = f'<details class="claim-note"><summary>{esc(t["note"])}</summary>{esc(compat.notes.get(claim.note, ""))}</details>'
        items.append(
            f'<li class="{css}">{prefix}{esc(_scope(claim))}<span class="claim-value">{esc(_claim_value(field, claim, lang))}</span> '
            f"{_sources_html(claim, lang, release.source)}{note}</li>"
        )
    return '<ul class="claims">' + "".join(items) + "</ul>"


def matrix_row_id(version: str) -> str:
    """The id of a release's row in the compatibility matrix (other views link to it)."""
    return f"compat-{version.replace('.', '-')}"


def _filter_values(release: Release, verdict: ReleaseVerdict) -> dict[str, list[str]]:
    """What the filters match: the Python verdict (PyPI's Linux x86_64 wheels where PyPI has the release), the CUDA
    variants of the sources, the torchvision a plain pip command pins, and the release itself."""
    compat = release.compat
    values = {
        "release": {release.version},
        "python": set(verdict.python.versions),
        "cuda": set(),
        "torchvision": set(),
    }
    if compat is not None:
        for claim in compat.primary("cuda"):
            values["cuda"].update(claim.values + claim.experimental)
    for _patch, pin in verdict.library_pins["torchvision"]:
        values["torchvision"].add(pin.version)
    return {k: sorted(v, key=_sort_key) for k, v in values.items()}


def _sort_key(version: str) -> tuple:
    return tuple(int(p) for p in version.rstrip("t").split(".")) + ((1,) if version.endswith("t") else (0,))


def _library_verdict(verdict: ReleaseVerdict, name: str, lang: str) -> str:
    """One value where every patch pairs the same release; "1.8.0 → 0.9.0 · 1.8.1 → 0.9.1" where they differ."""
    pins = verdict.library_pins[name]
    if not pins:
        return _gap(lang)
    marks = {pin.version: (" ⚠" if pin.yanked else "") for _, pin in pins}
    versions = list(dict.fromkeys(pin.version for _, pin in pins))
    if len(versions) == 1:
        return f'<span class="verdict-value">{esc(versions[0] + marks[versions[0]])}</span>'
    return (
        '<span class="verdict-value">'
        + " · ".join(f"{esc(patch)} → {esc(pin.version + marks[pin.version])}" for patch, pin in pins)
        + "</span>"
    )


def _gap(lang: str) -> str:
    t = UI[lang]
    return f'<span class="gap" title="{esc(t["gap_title"])}">{t["gap"]}</span>'


def _values_verdict(release: Release, field: str, lang: str) -> str:
    """The first claim of the release-wide scope (or of the newest patch), as one value; experimental marked *."""
    compat = release.compat
    primary = [c for c in compat.primary(field) if c.channel in (None, "pip")] if compat else []
    if not primary:
        return _gap(lang)
    values: list[str] = []
    for claim in primary:
        for value in claim.values:
            if value not in values:
                values.append(value)
        for value in claim.experimental:
            if value + "*" not in values and value not in values:
                values.append(value + "*")
    text = f"C++{values[0]}" if field == "cxx" else ", ".join(values)
    return f'<span class="verdict-value">{esc(text)}</span>'


def _python_cell(release_verdict: ReleaseVerdict, lang: str) -> str:
    verdict = release_verdict.python
    if not verdict.versions:
        return "<td>" + _gap(lang) + "</td>"
    by_platform = {p: python_summary(v) for p, v in verdict.per_platform.items()}
    mark = (
        ""
        if verdict.source == PYPI
        else f' <abbr class="claim-sources" title="{esc(UI[lang]["from_tables"])}">{esc(verdict.source)}</abbr>'
    )
    data = esc(json.dumps(by_platform, sort_keys=True, ensure_ascii=False))
    return f'<td data-label="{esc(UI[lang]["col_python"])}" data-python-by-platform="{data}"><span class="verdict-value">{esc(python_summary(verdict.versions))}</span>{mark}</td>'


def _build_cell(release: Release, verdict: ReleaseVerdict, lang: str) -> str:
    patch = verdict.patch
    builds = verdict.builds
    if not builds:
        claimed = release.compat.versions("pypi_cuda", patch=patch) if release.compat and patch else []
        return f"CUDA {esc(claimed[0])}" if claimed else _gap(lang)
    cuda = builds.get(MAIN_PLATFORM)
    return f'<span class="verdict-value">{esc("CUDA " + cuda if cuda else UI[lang]["cpu_build"])}</span>'


def _sources_list(release: Release, verdict: ReleaseVerdict, lang: str) -> str:
    """Every source's claim for the row: a <dl> of field -> claims, PyPI's wheels last; "" when there is none."""
    t = UI[lang]
    items = []
    compat = release.pages[lang].compat
    for field in COLUMNS:
        if compat and compat.claims(field):
            items.append(f"<dt>{esc(t['col_' + field])}</dt><dd>{claims_cell(release, field, lang)}</dd>")
    if verdict.wheels and verdict.patch:
        wheels = "; ".join(f"{p}: {python_summary(v)}" for p, v in verdict.wheels)
        items.append(f"<dt>PyPI · torch {esc(verdict.patch)}</dt><dd>{esc(wheels)}</dd>")
    return f'<dl class="row-sources-list">{"".join(items)}</dl>' if items else ""


def sources_row_id(version: str) -> str:
    return f"{matrix_row_id(version)}-sources"


def _sources_toggle(release: Release, lang: str, has_sources: bool) -> str:
    """The row's last cell: a button that opens the sources row below it (views.js); without script the
    sources rows are shown open (CSS, `.no-js`), so the button is only drawn where it works."""
    if not has_sources:
        return f'<td data-label="{esc(UI[lang]["col_sources"])}" class="row-sources-cell"></td>'
    target = sources_row_id(release.version)
    label = UI[lang]["sources_toggle"].format(version=release.version)
    return (
        f'<td data-label="{esc(UI[lang]["col_sources"])}" class="row-sources-cell">'
        f'<button type="button" class="row-sources-toggle" aria-expanded="false" aria-controls="{target}" '
        f'aria-label="{esc(label)}">{esc(UI[lang]["sources_short"])}</button></td>'
    )


def _sources_row(release: Release, sources: str) -> str:
    """The sources of a row, as a row of their own under it: full width (one cell spanning every column), so
    opening them never reflows the verdicts above. Hidden until its button opens it."""
    span = len(MATRIX_ORDER) + 2
    return (
        f'<tr class="compat-sources-row" id="{sources_row_id(release.version)}" '
        f'data-sources-for="{esc(release.version)}" hidden><td colspan="{span}">{sources}</td></tr>'
    )


def compat_matrix(catalog: Catalog, lang: str, href, verdicts: Verdicts) -> str:
    """One row per release, newest first, one verdict per cell (every source's claim folded in the row's
    "sources"); filters by release, Python, CUDA and torchvision, and a platform choice for the Python column
    (views.js, install.js), no server. No inner scroll box: the page scrolls and the header row stays in view."""
    t = UI[lang]
    rows = [(release, _filter_values(release, verdicts[release.version])) for release in catalog.releases]
    options = {
        key: sorted({v for _, values in rows for v in values[key]}, key=_sort_key, reverse=True) for key in FILTERS
    }
    out = ['<form class="compat-filters" id="compat-filters" data-target="compat-table">']
    for key in FILTERS:
        # A label and its select stay together on a line (a phone wraps the pairs, not a label from its select).
        out.append(f'<span class="filter-pair"><label for="compat-{key}">{esc(t["filter_" + key])}</label>')
        out.append(
            f'<select id="compat-{key}" name="{key}" data-filter="{key}"><option value="">{esc(t["filter_any"])}</option>'
        )
        out += [f'<option value="{esc(v)}">{esc(v)}</option>' for v in options[key]]
        out.append("</select></span>")
    out.append(
        f'<span class="filter-pair"><label for="compat-platform">{esc(t["filter_platform"])}</label><select id="compat-platform" name="platform">'
    )
    out += [
        f'<option value="{"" if p == MAIN_PLATFORM else esc(p)}">{esc(SYSTEM_NAMES[p][lang])}</option>'
        for p in PLATFORMS
    ]
    out.append("</select></span>")
    out.append(f'<button type="reset" class="md-button">{esc(t["filter_reset"])}</button>')
    out.append("</form>")
    out.append(
        f'<p class="compat-count" id="compat-count" aria-live="polite" data-template="{esc(t["filter_count"])}">{esc(t["filter_count"].format(shown=len(rows), total=len(rows)))}</p>'
    )
    out.append(f'<p class="compat-none" id="compat-none" hidden>{esc(t["filter_none"])}</p>')
    out += [
        '<table class="compat-table" id="compat-table">',
        f'<caption class="visually-hidden">{esc(t["matrix_caption"])}</caption>',
        "<thead><tr>",
    ]
    out.append(f'<th scope="col">{esc(t["col_release"])}</th>')
    out += [f'<th scope="col" class="col-{col}">{esc(t["col_" + col])}</th>' for col in MATRIX_ORDER]
    out.append(f'<th scope="col">{esc(t["col_sources"])}</th>')
    out.append("</tr></thead><tbody>")
    for release, values in rows:
        page = release.pages[lang]
        data = " ".join(f'data-{key}="{esc(" ".join(v))}"' for key, v in values.items())
        out.append(
            f'<tr id="{matrix_row_id(release.version)}" class="compat-row" data-version="{esc(release.version)}" {data} '
            f'data-search-section="{esc(t["row_search_title"].format(version=release.version))}">'
        )
        tags = ""
        if getattr(release, "provisional", False):
            tags += f' <span class="row-tag row-provisional">{esc(t["provisional"])}</span>'
        lts = release.lts
        if lts:
            tags += f' <span class="row-tag row-lts" title="{esc(t["lts_title"].format(patches=", ".join(lts.patches)))}">LTS</span>'
        out.append(
            f'<th scope="row" data-label="{esc(t["col_release"])}"><a href="{esc(href(page, "install"))}">{esc(release.version)}</a>{tags} '
            f'<span class="compat-date">{page.date_iso}</span></th>'
        )
        verdict = verdicts[release.version]
        for col in MATRIX_ORDER:
            if col == "python":
                out.append(_python_cell(verdict, lang))
                continue
            if col == "build":
                cell = _build_cell(release, verdict, lang)
            elif col in ("torchvision", "torchaudio"):
                cell = _library_verdict(verdict, col, lang)
            else:
                cell = _values_verdict(release, col, lang)
            out.append(f'<td data-label="{esc(t["col_" + col])}">{cell}</td>')
        sources = _sources_list(release, verdict, lang)
        out.append(_sources_toggle(release, lang, bool(sources)))
        out.append("</tr>")
        if sources:
            out.append(_sources_row(release, sources))
    out += ["</tbody></table>"]
    out.append(f'<p class="compat-key">{esc(t["matrix_key"])}</p>')
    if verdicts.checked is not None:
        pending = verdicts.pending
        if pending:
            python = python_summary(pending.python)
            out.append(
                f'<p class="compat-pending">{esc(t["pending"].format(version=pending.version, uploaded=pending.uploaded, checked=verdicts.checked, python=python))}</p>'
            )
        out.append(f'<p class="compat-checked">{esc(t["checked"].format(checked=verdicts.checked))}</p>')
    out += [
        f'<h2 id="sources">{esc(t["legend_title"])}</h2>',
        f"<p>{esc(t['legend_intro'])}</p>",
        '<dl class="compat-legend">',
    ]
    for key, source in SOURCES.items():
        link = f' <a href="{esc(source["url"])}">{esc(source["url"].split("://")[-1])}</a>' if source["url"] else ""
        out.append(f"<dt>{esc(key)}</dt><dd>{esc(source[lang])}{link}</dd>")
    out += ["</dl>", ""]
    return "\n".join(out)
