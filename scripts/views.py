"""Views across releases (lifecycle, topics, upgrade), generated into the pages that carry their marker.

They emit HTML, not Markdown links, so they take `href(page, anchor)`: the hook computes each URL from
MkDocs' own file table, which is right for directory URLs and for the offline copy's `.html` URLs.
Every text from the catalog is escaped (`render.esc`); change texts may carry `code spans` (`text_html`).

The upgrade view computes its result in the browser (docs/assets/javascripts/views.js) from JSON embedded
in the page, so it works from disk; `upgrade_items` is its Python twin, which the tests hold it to.
"""

from __future__ import annotations

import json

from scripts.catalog.history import between, feature_history, release_changes
from scripts.catalog.model import AREAS, CHANGE_CATEGORIES, MATURITY_LABELS, Catalog, version_key
from scripts.render import UI, esc, evidence_mark, maturity_badge, text_html

UI["zh"].update(
    {
        "lifecycle_journey": "标签历程",
        "lifecycle_axis": "版本（从旧到新）",
        "lifecycle_filter": "按领域筛选",
        "all_areas": "全部领域",
        "lifecycle_count": "共 {features} 项特性，跨 {releases} 个版本。",
        "lifecycle_shown": "显示 {shown} 项特性",
        "topic_intro": "{area}领域在各版本中的特性，最新版本在前（共 {releases} 个版本、{features} 项）。",
        "topic_empty": "暂无版本在这个领域标注特性。",
        "search_upgrade_title": "升级：PyTorch {from} → {to}",
        "search_upgrade_text": "从 {from} 到 {to} 之间值得注意的弃用、移除、不兼容变更、默认行为变化与停止支持的平台，逐项附来源，并链接各版本完整的发布说明。",
        "compare_from": "从",
        "compare_to": "升级到",
        "compare_button": "查看变化",
        "compare_noscript": "这个视图需要启用 JavaScript；各版本页面末尾的“不兼容变更与弃用”一节列有同样的内容。",
        "compare_unknown": "本站没有 PyTorch {version} 的页面：请在上面选择一个版本。",
        "compare_same": "起始版本和目标版本相同：没有需要注意的变化。",
        "compare_summary": "从 {from_} 升级到 {to}：跨越 {count} 个版本，本站选列 {items} 项值得注意的变化。",
        "compare_notes": "这里只是精选；每个版本全部的不兼容变更与弃用，见它在 GitHub 上的完整发布说明：",
        "compare_reverse": "（你选择的是降级：这里列出的是两个版本之间发生的变化。）",
        "group_errors": "弃用后变成错误或被移除",
        "group_breaking": "不兼容变更",
        "group_defaults": "默认行为变化",
        "group_deprecations": "新的弃用",
        "group_platforms": "停止支持的平台、Python 与 CUDA",
        "group_features": "新增或改变成熟度的特性",
        "group_empty": "这一区间没有：{groups}",
        "deprecated_in": "{version} 中弃用",
        "removed_later": "后来：{version}",
        "dropped_python": "官方二进制包不再提供 Python {value}（最后支持的版本：{last}）",
        "dropped_cuda": "官方二进制包不再提供 CUDA {value}（最后提供的版本：{last}）",
        "feature_new": "新增",
        "upgrade_table_release": "版本",
        "upgrade_table_item": "变化",
    }
)
UI["en"].update(
    {
        "lifecycle_journey": "Label journey",
        "lifecycle_axis": "Releases, oldest to newest",
        "lifecycle_filter": "Filter by area",
        "all_areas": "All areas",
        "lifecycle_count": "{features} features across {releases} releases.",
        "lifecycle_shown": "Showing {shown} features",
        "topic_intro": "Features in the {area} area, release by release, newest first ({releases} releases, {features} features).",
        "topic_empty": "No release lists a feature in this area yet.",
        "search_upgrade_title": "Upgrade: PyTorch {from} → {to}",
        "search_upgrade_text": "Notable deprecations, removals, breaking changes, changed defaults and dropped platforms between {from} and {to}, item by item, with sources and links to each release's full release notes.",
        "compare_from": "From",
        "compare_to": "Upgrade to",
        "compare_button": "Show changes",
        "compare_noscript": 'This view needs JavaScript; the section "Breaking changes and deprecations" at the end of each release page lists the same items.',
        "compare_unknown": "There is no page for PyTorch {version}: pick a release above.",
        "compare_same": "From and to are the same release: nothing to watch for.",
        "compare_summary": "Upgrading from {from_} to {to}: {count} releases, {items} notable changes selected here.",
        "compare_notes": "This is a selection; every backwards-incompatible change and deprecation of each release is in its full release notes on GitHub:",
        "compare_reverse": " (You picked a downgrade: these are the changes between the two releases.)",
        "group_errors": "Deprecations that became errors, and removals",
        "group_breaking": "Breaking changes",
        "group_defaults": "Changed defaults",
        "group_deprecations": "New deprecations",
        "group_platforms": "Dropped platforms, Python and CUDA",
        "group_features": "Features added or relabeled",
        "group_empty": "Nothing in this range under: {groups}",
        "deprecated_in": "deprecated in {version}",
        "removed_later": "later: {version}",
        "dropped_python": "Official binaries no longer ship Python {value} (last: {last})",
        "dropped_cuda": "Official binaries no longer ship CUDA {value} (last: {last})",
        "feature_new": "new",
        "upgrade_table_release": "Release",
        "upgrade_table_item": "Change",
    }
)
GROUPS = ("errors", "breaking", "defaults", "deprecations", "platforms", "features")


# --- lifecycle ------------------------------------------------------------------------------------------


def journey_html(steps: list[tuple[str, str]], lang: str, link) -> str:
    """Prototype 2.5 → Beta 2.6 → …: one step per release where the label changed, as text (screen readers
    and paper read it; the arrows are CSS), each step linking to that release's section on the feature."""
    parts = [
        f'<a class="journey-step" href="{esc(link(version))}">{maturity_badge(label, lang)} <span class="journey-version">{esc(version)}</span></a>'
        for version, label in steps
    ]
    return '<span class="journey">' + " ".join(parts) + "</span>"


def _axis_labels(versions: list[str]) -> set[str]:
    """The releases the axis names: the first, every X.0 and the newest; the others are ticks."""
    return {versions[0], versions[-1]} | {v for v in versions if v.endswith(".0")}


def lifecycle_axis(versions: list[str], lang: str) -> str:
    """The shared release axis, oldest on the left, drawn once above the strips (hidden from screen readers:
    each strip's journey says the same in words)."""
    named = _axis_labels(versions)
    ticks = "".join(f'<span class="lifecycle-tick">{esc(v) if v in named else ""}</span>' for v in versions)
    return f'<div class="lifecycle-axis" aria-hidden="true"><span class="lifecycle-axis-title">{esc(UI[lang]["lifecycle_axis"])}</span><span class="lifecycle-ticks">{ticks}</span></div>'


def lifecycle_strip(row: dict, versions: list[str]) -> str:
    """One feature on the shared axis: a thin line from its first to its last mention, a block in its label's
    colour for each release whose post mentions it. Only mentions are drawn: no empty cells."""
    column = {v: i for i, v in enumerate(versions)}
    mentioned = sorted(column[v] for v in row["cells"])
    first, last = mentioned[0], mentioned[-1]
    parts = (
        [f'<rect class="lifecycle-span" x="{first + 0.5}" y="1.6" width="{last - first}" height="0.8"/>']
        if last > first
        else []
    )
    for version, label in sorted(row["cells"].items(), key=lambda item: column[item[0]]):
        x = column[version]
        parts.append(
            f'<rect class="maturity-{esc(label.lower())}" data-version="{esc(version)}" data-maturity="{esc(label)}" x="{x + 0.1:.1f}" y="0" width="0.8" height="4" fill="currentColor"/>'
        )
    return (
        f'<svg class="lifecycle-strip" viewBox="0 0 {len(versions)} 4" preserveAspectRatio="none" aria-hidden="true" focusable="false">'
        + "".join(parts)
        + "</svg>"
    )


def _section_link(href, pages: dict, feature_id: str):
    """version -> URL of the feature's section on that release's page."""
    return lambda version: href(pages[version], feature_id)


def lifecycle(catalog: Catalog, lang: str, href) -> str:
    """Every feature, newest first, with its label journey in words and drawn on a release axis shared by
    all features (in the manner of caniuse's support tables): no grid of mostly empty release columns, no
    sideways scrolling. The area filter (views.js) is kept in the URL (?area=Compiler)."""
    t = UI[lang]
    rows = feature_history(catalog, lang)
    releases = catalog.releases  # newest first
    versions = [r.version for r in reversed(releases)]  # the axis runs oldest → newest
    pages = {r.version: r.pages[lang] for r in releases}
    areas = [a for a in AREAS if any(r["area"] == a for r in rows)]
    out = [
        f'<p class="lifecycle-count">{esc(t["lifecycle_count"].format(features=len(rows), releases=len(releases)))} '
        f'<span id="lifecycle-shown" data-template="{esc(t["lifecycle_shown"])}"></span></p>',
        '<div class="lifecycle-filter">',
        f'<label for="lifecycle-area">{esc(t["lifecycle_filter"])}</label> ',
        '<select id="lifecycle-area" data-filter-target="lifecycle-list">',
        f'<option value="">{esc(t["all_areas"])}</option>',
    ]
    out += [f'<option value="{esc(area)}">{esc(AREAS[area][lang])}</option>' for area in areas]
    out += [
        "</select>",
        "</div>",
        '<div class="lifecycle" id="lifecycle-list">',
        lifecycle_axis(versions, lang),
        '<ol class="lifecycle-features">',
    ]
    for row in rows:
        newest = max(row["cells"], key=version_key)
        link = _section_link(href, pages, row["id"])
        out.append(
            f'<li class="lifecycle-feature" id="feature-{esc(row["id"])}" data-area="{esc(row["area"])}" data-feature="{esc(row["id"])}">'
            f'<p class="lifecycle-name"><a href="{esc(link(newest))}">{esc(row["name"])}</a> <span class="lifecycle-area">{esc(AREAS[row["area"]][lang])}</span></p>'
            f"{lifecycle_strip(row, versions)}"
            f'<p class="lifecycle-journey"><span class="visually-hidden">{esc(t["lifecycle_journey"])}{t["colon"]}</span>{journey_html(row["steps"], lang, link)}</p>'
            "</li>"
        )
    out += ["</ol>", "</div>", ""]
    return "\n".join(out)


def topic(catalog: Catalog, area: str, lang: str, href) -> str:
    """Every release that lists a feature in `area`, newest first like every list on the site, with those features."""
    t = UI[lang]
    releases = [r for r in catalog.releases if any(f.area == area for f in r.pages[lang].features)]
    if not releases:
        return f'<p class="topic-empty">{esc(t["topic_empty"])}</p>\n'
    count = sum(1 for r in releases for f in r.pages[lang].features if f.area == area)
    out = [
        f'<p class="topic-intro">{esc(t["topic_intro"].format(area=AREAS[area][lang], releases=len(releases), features=count))}</p>',
        '<div class="timeline topic-timeline">',
    ]
    for release in releases:
        page = release.pages[lang]
        out += [
            f'<div class="timeline-entry" data-version="{esc(release.version)}" data-date="{page.date_iso}">',
            f'<h2 id="v{release.version.replace(".", "-")}"><a href="{esc(href(page))}">{esc(t["release"].format(version=release.version))}</a></h2>',
            f'<p class="timeline-date"><time datetime="{page.date_iso}">{page.date_iso}</time></p>',
            '<ul class="topic-features">',
        ]
        for feature in page.features:
            if feature.area == area:
                out.append(
                    f'<li data-feature="{esc(feature.id)}"><a href="{esc(href(page, feature.id))}">{esc(feature.name)}</a> '
                    f"{maturity_badge(feature.maturity, lang)}</li>"
                )
        out += ["</ul>", "</div>"]
    out += ["</div>", ""]
    return "\n".join(out)


# --- upgrade: what changes between two releases ----------------------------------------------------------------


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

    The Python twin of views.js's upgrade view: items are {"version", "id"} (a change id, "python-3.7" /
    "cuda-11.6" for a computed drop, or a feature id for a feature that was added or relabeled)."""
    groups: dict[str, list[dict]] = {g: [] for g in GROUPS}
    for release in between(catalog, from_version, to_version):
        for change in release.changes:
            groups[_group_of(change)].append({"version": release.version, "id": change.id})
        for drop in dropped_versions(catalog, release):
            groups["platforms"].append({"version": release.version, "id": f"{drop['field']}-{drop['value']}"})
    for change in release_changes(catalog, from_version, to_version, lang):
        groups["features"].append({"version": change["version"], "id": change["id"]})
    return groups


def release_notes_url(version: str) -> str | None:
    """The full GitHub release notes of a release (every backwards-incompatible change and deprecation, where
    the site carries a selection); releases before 1.0 are not linked."""
    if version_key(version) < version_key("1.0"):
        return None
    return f"https://github.com/pytorch/pytorch/releases/tag/v{version}.0"


def upgrade_data(catalog: Catalog, lang: str, href) -> list[dict]:
    """What the upgrade view's script needs: releases oldest first, with features, changes and drops."""
    t = UI[lang]
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
                    "evidence": evidence_mark(change.evidence, lang),
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
                        "area": esc(AREAS[f.area][lang]),
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
        "feature_new",
        "upgrade_table_release",
        "upgrade_table_item",
        "area",
        "feature",
    ]
    keys += [f"group_{g}" for g in GROUPS]
    strings = json.dumps({k: t[k] for k in keys}, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    return "\n".join(
        [
            '<form class="compare-form" id="compare-form">',
            f'<span class="filter-pair"><label for="compare-from">{esc(t["compare_from"])}</label> <select id="compare-from" name="from">{options(default_from)}</select></span> ',
            f'<span class="filter-pair"><label for="compare-to">{esc(t["compare_to"])}</label> <select id="compare-to" name="to">{options(default_to)}</select></span> ',
            f'<button type="submit" class="md-button md-button--primary">{esc(t["compare_button"])}</button>',
            "</form>",
            f"<noscript><p>{esc(t['compare_noscript'])}</p></noscript>",
            '<p class="compare-message" id="compare-message" hidden></p>',
            '<div id="compare-result" aria-live="polite"></div>',
            f'<script type="application/json" id="compare-data">{payload}</script>',
            f'<script type="application/json" id="compare-strings">{strings}</script>',
            "",
        ]
    )
