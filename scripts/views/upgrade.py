"""The upgrade view (docs/compare.md): what to watch for between two releases, computed in the browser
(docs/assets/javascripts/views.js) from JSON embedded in the page, so it works from disk; `upgrade_items` is its
Python twin, which the tests hold it to. Breaking first: changed defaults (the same code behaves differently), then
removals and other breaking changes, dropped platforms, and only then deprecations (which still work) and the
features added or relabeled (folded). An area filter (with a count per area) and a search box narrow the list; the
choice lives in the query (?from=&to=&area=&q=). Provenance is said once, above the list, and marked ◆ per item.
Every text from the catalog is escaped; change texts may carry `code spans` (`text_html`). Its `search_upgrade_*`
words are what search offers for "upgrade X to Y".
"""

from __future__ import annotations

import json
import re

from scripts.catalog.history import between, release_changes
from scripts.catalog.model import (
    AREAS,
    CHANGE_CATEGORIES,
    EVIDENCE,
    MATURITY_LABELS,
    Catalog,
    Change,
    Release,
    version_key,
)
from scripts.views.html import esc, text_html
from scripts.views.words import UI as BASE_UI

UI: dict[str, dict[str, str]] = {
    "zh": {
        **BASE_UI["zh"],
        "search_upgrade_title": "升级：PyTorch {from} → {to}",
        "search_upgrade_text": "从 {from} 到 {to} 之间值得注意的弃用、移除、不兼容变更、默认行为变化与停止支持的平台，逐项附来源，并链接各版本完整的发布说明。",
        "compare_from": "从",
        "compare_to": "升级到",
        "compare_button": "查看变化",
        "compare_noscript": "这个视图需要启用 JavaScript；各版本页面末尾的“不兼容变更与弃用”一节列有同样的内容。",
        "compare_unknown": "本站没有 PyTorch {version} 的页面：请在上面选择一个版本。",
        "compare_same": "起始版本和目标版本相同：没有需要注意的变化。",
        "compare_summary": "从 {from_} 升级到 {to}：跨越 {count} 个版本，本站选列 {items} 项值得注意的变化要检查，另有 {features} 项新增或改变成熟度的特性列在最后。",
        "compare_notes": "这里只是精选；每个版本全部的不兼容变更与弃用，见它在 GitHub 上的完整发布说明：",
        "compare_reverse": "（你选择的是降级：这里列出的是两个版本之间发生的变化。）",
        "group_errors": "被移除，或弃用后变成错误",
        "group_breaking": "其他不兼容变更",
        "group_defaults": "默认行为变化：同样的代码，结果不同",
        "group_deprecations": "新的弃用（仍能运行，但会警告）",
        "group_platforms": "停止支持的平台、Python 与 CUDA",
        "group_features": "新增或改变成熟度的特性",
        "group_empty": "这一区间没有：{groups}",
        "group_count": "（{shown}）",
        "group_count_filtered": "（{shown} / {total}）",
        "filter_area": "领域",
        "all_areas": "全部领域",
        "filter_all_areas": "全部领域（{count}）",
        "filter_area_count": "{area}（{count}）",
        "filter_search": "查找",
        "filter_search_hint": "例如 torch.load、onnx、CUDA",
        "filter_none": "没有符合这些条件的变化。",
        "evidence_key": "标 ◆ 的条目来自{copy}或{derived}；其余都来自官方来源。每一项都链接到它所在版本页面上的条目与来源。",
        "deprecated_in": "{version} 中弃用",
        "removed_later": "后来：{version}",
        "dropped_python": "官方二进制包不再提供 Python {value}（最后支持的版本：{last}）",
        "dropped_cuda": "官方二进制包不再提供 CUDA {value}（最后提供的版本：{last}）",
        "feature_new": "新增",
        "upgrade_table_release": "版本",
        "upgrade_table_item": "变化",
    },
    "en": {
        **BASE_UI["en"],
        "search_upgrade_title": "Upgrade: PyTorch {from} → {to}",
        "search_upgrade_text": "Notable deprecations, removals, breaking changes, changed defaults and dropped platforms between {from} and {to}, item by item, with sources and links to each release's full release notes.",
        "compare_from": "From",
        "compare_to": "Upgrade to",
        "compare_button": "Show changes",
        "compare_noscript": 'This view needs JavaScript; the section "Breaking changes and deprecations" at the end of each release page lists the same items.',
        "compare_unknown": "There is no page for PyTorch {version}: pick a release above.",
        "compare_same": "From and to are the same release: nothing to watch for.",
        "compare_summary": "Upgrading from {from_} to {to}: {count} releases, {items} notable changes selected here to check, and {features} features added or relabeled, listed last.",
        "compare_notes": "This is a selection; every backwards-incompatible change and deprecation of each release is in its full release notes on GitHub:",
        "compare_reverse": " (You picked a downgrade: these are the changes between the two releases.)",
        "group_errors": "Removed, or deprecated and now an error",
        "group_breaking": "Other breaking changes",
        "group_defaults": "Changed defaults: the same code now behaves differently",
        "group_deprecations": "New deprecations (still work, with a warning)",
        "group_platforms": "Dropped platforms, Python and CUDA",
        "group_features": "Features added or relabeled",
        "group_empty": "Nothing in this range under: {groups}",
        "group_count": "({shown})",
        "group_count_filtered": "({shown} of {total})",
        "filter_area": "Area",
        "all_areas": "All areas",
        "filter_all_areas": "All areas ({count})",
        "filter_area_count": "{area} ({count})",
        "filter_search": "Find",
        "filter_search_hint": "e.g. torch.load, onnx, CUDA",
        "filter_none": "No change matches these filters.",
        "evidence_key": "Items marked ◆ come from a {copy} or are {derived}; the others come from official sources. Each item links to its entry, with its source, on its release page.",
        "deprecated_in": "deprecated in {version}",
        "removed_later": "later: {version}",
        "dropped_python": "Official binaries no longer ship Python {value} (last: {last})",
        "dropped_cuda": "Official binaries no longer ship CUDA {value} (last: {last})",
        "feature_new": "new",
        "upgrade_table_release": "Release",
        "upgrade_table_item": "Change",
    },
}
# Breaking first: what changes under working code, then what stops it, then what only warns; features last.
GROUPS = ("defaults", "errors", "breaking", "platforms", "deprecations", "features")


# --- the area of a change ------------------------------------------------------------------------------------
# The catalog gives features an area but not changes: a change takes the area of a feature it affects, else the first
# area whose words its English text names (the rules below, most specific first: a removed ONNX option is Export even
# though its text names `torch.onnx.export`'s argument), else Frontend. A dropped Python, CUDA, OS or channel is
# Platform. Both languages use the English text, so a change has one area on both pages.

# (area, pattern over the change's English text), first match wins.
RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (area, re.compile(pattern))
    for area, pattern in (
        ("C++", r"^C\+\+"),  # a text that starts by saying it is about C++
        ("Export", r"\bonnx\b|ONNX|torch\.export|export_for_|ExportedProgram|dynamic_dim|\bexport\b"),
        ("Quantization", r"[Qq]uantiz|\bpt2e\b|PT2E|torch\.ao\b|\bquint8\b|\bqint"),
        ("Profiler", r"[Pp]rofiler|key_averages"),
        ("JIT", r"torch\.jit|TorchScript|nvFuser|\bfuser\b"),
        (
            "Platform",
            r"[Bb]uild(?:ing|s)? (?:PyTorch )?from source|[Ss]ource build|setup\.py|CMake|Bazel|[Cc]onda|Manylinux|glibc|"
            r"macOS x86|Python \d|\bbuilds\b",
        ),
        ("C++", r"C\+\+|libtorch|isIntegral|\bABI\b"),
        (
            "Distributed",
            r"torch\.distributed|ProcessGroup|process.group|\bNCCL\b|torchrun|[Cc]ollectives|\bFSDP|\bTHD\b|split_group|"
            r"new_group|c10d|\brank\b|torchcomms",
        ),
        ("Compiler", r"torch\.compile|[Dd]ynamo|Inductor|max_autotune|[Tt]riton|fullgraph|[Cc]ustom ops?\b"),
        ("Frontend", r"[Oo]ptimizers?\b|[Ss]chedulers?\b"),
        ("Hardware", r"\bMPS\b|\bCUDA\b|ROCm|MAGMA|green context|TF32|\bGPUs?\b"),
        (
            "Autograd",
            r"[Aa]utograd|\bgrad(?:ient)?s?\b|backward|checkpoint|Variable|volatile|saved_tensors_hooks|functorch|torch\.func",
        ),
        ("Ecosystem", r"\b[Hh]ub\b"),
    )
)
DEFAULT_AREA = "Frontend"


def feature_areas(catalog: Catalog) -> dict[str, str]:
    """Every feature id's area (a feature keeps one id, and one area, across releases)."""
    return {f.id: f.area for release in catalog.releases for f in release.features}


def change_area(release: Release, change: Change, areas: dict[str, str]) -> str:
    """The area of one of `release`'s changes (see the module docstring); `areas` is `feature_areas(catalog)`."""
    if change.category == "dropped-platform":
        return "Platform"
    for feature_id in change.affects:
        if feature_id in areas:
            return areas[feature_id]
    text = next((c.text for c in release.pages["en"].changes if c.id == change.id), change.text)
    for area, pattern in RULES:
        if pattern.search(text):
            return area
    return DEFAULT_AREA


def _release_set(release, field: str) -> set[str] | None:
    compat = release.compat
    if compat is None or not compat.claims(field):
        return None
    values: set[str] = set()
    for claim in compat.primary(field):
        values.update(claim.values + claim.experimental)
    return values


def dropped_versions(catalog: Catalog, release) -> list[dict]:
    """Python/CUDA versions the release before offered and this one does not, unless one of this release's
    changes already names them (`drops`), so each drop is listed once."""
    previous = catalog.previous(release.version)
    if previous is None:
        return []
    named = {d for change in release.changes for d in change.drops}
    out = []
    for field in ("python", "cuda"):
        before, after = _release_set(previous, field), _release_set(release, field)
        if before is None or after is None:
            continue
        for value in sorted(before - after, key=lambda v: tuple(int(p) for p in v.rstrip("t").split("."))):
            if f"{field}-{value}" not in named:
                out.append({"field": field, "value": value, "last": previous.version})
    return out


def _group_of(change) -> str:
    if change.category == "removal" or (change.category == "bc-breaking" and change.follows):
        return "errors"
    return {
        "bc-breaking": "breaking",
        "default-change": "defaults",
        "deprecation": "deprecations",
        "dropped-platform": "platforms",
    }[change.category]


def upgrade_items(catalog: Catalog, from_version: str, to_version: str, lang: str) -> dict[str, list[dict]]:
    """Everything to watch for between two releases, cumulative, by group; each item once, oldest first.

    The Python twin of views.js's upgrade view: items are {"version", "id", "area"} (a change id, "python-3.7" /
    "cuda-11.6" for a computed drop, or a feature id for a feature that was added or relabeled)."""
    groups: dict[str, list[dict]] = {g: [] for g in GROUPS}
    areas = feature_areas(catalog)
    for release in between(catalog, from_version, to_version):
        for change in release.changes:
            area = change_area(release, change, areas)
            groups[_group_of(change)].append({"version": release.version, "id": change.id, "area": area})
        for drop in dropped_versions(catalog, release):
            drop_id = f"{drop['field']}-{drop['value']}"
            groups["platforms"].append({"version": release.version, "id": drop_id, "area": "Platform"})
    for relabel in release_changes(catalog, from_version, to_version, lang):
        groups["features"].append({"version": relabel["version"], "id": relabel["id"], "area": areas[relabel["id"]]})
    return groups


def release_notes_url(version: str) -> str | None:
    """The full GitHub release notes of a release (every backwards-incompatible change and deprecation, where
    the site carries a selection); releases before 1.0 are not linked."""
    if version_key(version) < version_key("1.0"):
        return None
    return f"https://github.com/pytorch/pytorch/releases/tag/v{version}.0"


def _evidence(evidence: str, lang: str) -> str:
    """The ◆ of a copied or derived item; what it means is said once, above the list (`evidence_key`)."""
    if evidence == "official":
        return ""
    meaning = EVIDENCE[evidence][lang]
    return f' <abbr class="evidence evidence-{evidence}" title="{esc(meaning)}">{EVIDENCE[evidence]["mark"]}</abbr>'


def upgrade_data(catalog: Catalog, lang: str, href) -> list[dict]:
    """What the upgrade view's script needs: releases oldest first, with features, changes and drops."""
    t = UI[lang]
    areas = feature_areas(catalog)
    followers: dict[tuple[str, str], str] = {}
    for release in catalog.releases:
        for change in release.changes:
            if change.follows:
                followers.setdefault(change.follows, release.version)
    data = []
    for release in reversed(catalog.releases):
        page = release.pages[lang]
        changes = []
        for change in page.changes:
            note = ""
            if change.follows:
                note = t["deprecated_in"].format(version=change.follows[0])
            later = followers.get((release.version, change.id))
            if later:
                note = (note + "; " if note else "") + t["removed_later"].format(version=later)
            changes.append(
                {
                    "id": change.id,
                    "group": _group_of(change),
                    "category": change.category,
                    "label": CHANGE_CATEGORIES[change.category][lang],
                    "html": text_html(change.text),
                    "anchor": change.anchor,
                    "area": change_area(release, change, areas),
                    "evidence": _evidence(change.evidence, lang),
                    "note": note,
                }
            )
        drops = []
        for drop in dropped_versions(catalog, release):
            text = t["dropped_" + drop["field"]].format(value=drop["value"], last=drop["last"])
            # A computed drop is a dropped platform like any filed one: same category, same badge.
            drops.append(
                {
                    "id": f"{drop['field']}-{drop['value']}",
                    "html": esc(text),
                    "anchor": "install",
                    "area": "Platform",
                    "category": "dropped-platform",
                    "label": CHANGE_CATEGORIES["dropped-platform"][lang],
                }
            )
        data.append(
            {
                "version": release.version,
                "date": page.date_iso,
                "url": href(page),
                "notes": release_notes_url(release.version),
                "features": [
                    {
                        "id": f.id,
                        "name": esc(f.name),
                        "area": f.area,
                        "area_label": esc(AREAS[f.area][lang]),
                        "maturity": f.maturity,
                        "label": esc(MATURITY_LABELS[f.maturity][lang]),
                    }
                    for f in page.features
                ],
                "changes": changes,
                "drops": drops,
            }
        )
    return data


def compare(catalog: Catalog, lang: str, href) -> str:
    """The upgrade view: two pickers (from, to), the result computed by views.js from the embedded JSON."""
    t = UI[lang]
    data = upgrade_data(catalog, lang, href)
    versions = [r["version"] for r in data]
    default_from = versions[-2] if len(versions) > 1 else versions[0]
    default_to = versions[-1]

    def options(selected: str) -> str:
        return "".join(
            f'<option value="{esc(v)}"{" selected" if v == selected else ""}>PyTorch {esc(v)}</option>'
            for v in reversed(versions)
        )

    payload = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    keys = [
        "compare_unknown",
        "compare_same",
        "compare_summary",
        "compare_notes",
        "compare_reverse",
        "group_empty",
        "group_count",
        "group_count_filtered",
        "filter_all_areas",
        "filter_area_count",
        "feature_new",
        "upgrade_table_release",
        "upgrade_table_item",
        "area",
        "feature",
    ]
    keys += [f"group_{g}" for g in GROUPS]
    words = {k: t[k] for k in keys} | {"areas": {area: names[lang] for area, names in AREAS.items()}}
    strings = json.dumps(words, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    evidence_key = t["evidence_key"].format(copy=EVIDENCE["copy"][lang], derived=EVIDENCE["derived"][lang])
    area_options = "".join(f'<option value="{esc(area)}">{esc(names[lang])}</option>' for area, names in AREAS.items())
    return "\n".join(
        [
            '<form class="compare-form" id="compare-form">',
            f'<span class="filter-pair"><label for="compare-from">{esc(t["compare_from"])}</label> <select id="compare-from" name="from">{options(default_from)}</select></span> ',
            f'<span class="filter-pair"><label for="compare-to">{esc(t["compare_to"])}</label> <select id="compare-to" name="to">{options(default_to)}</select></span> ',
            f'<span class="filter-pair"><label for="compare-area">{esc(t["filter_area"])}</label> <select id="compare-area" name="area"><option value="">{esc(t["all_areas"])}</option>{area_options}</select></span> ',
            f'<span class="filter-pair compare-search"><label for="compare-q">{esc(t["filter_search"])}</label> <input type="search" id="compare-q" name="q" placeholder="{esc(t["filter_search_hint"])}" autocomplete="off"></span> ',
            f'<button type="submit" class="md-button md-button--primary">{esc(t["compare_button"])}</button>',
            "</form>",
            f"<noscript><p>{esc(t['compare_noscript'])}</p></noscript>",
            '<p class="compare-message" id="compare-message" hidden></p>',
            f'<p class="compare-evidence-key">{esc(evidence_key)}</p>',
            '<div id="compare-result" aria-live="polite"></div>',
            f'<p class="compare-none" id="compare-none" hidden>{esc(t["filter_none"])}</p>',
            f'<script type="application/json" id="compare-data">{payload}</script>',
            f'<script type="application/json" id="compare-strings">{strings}</script>',
            "",
        ]
    )
