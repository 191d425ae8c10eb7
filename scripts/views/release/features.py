"""The features of a release page, under its install section: one small table per area, each feature with the one
label this release's post gives it, and where it stands today only where that differs (a later label, or the release
that deprecated or removed it). A long list is folded by area (<details>, closed; no script needed), a short one is
open. Every row carries the id `feature-<id>`, so a link to a folded feature can open its fold (install.js)."""

from __future__ import annotations

from scripts.catalog.history import Status
from scripts.catalog.model import AREAS, Feature, ReleasePage
from scripts.views.html import esc, maturity_badge
from scripts.views.words import UI

# A list longer than this starts folded: 2.14's 32 features took ten phone screens of badges before any prose.
FOLD_AFTER = 8

WORDS = {
    "zh": {
        "title": "本版特性",
        "count": "{count} 项",
        "caption": "PyTorch {version} 的特性：{area}",
        "today_label": "如今：",
    },
    "en": {
        "title": "Features in this release",
        "count": "{count} features",
        "count_one": "1 feature",
        "caption": "Features of PyTorch {version}: {area}",
        "today_label": "today: ",
    },
}


def row_id(feature_id: str) -> str:
    """The id of a feature's row: `#feature-<id>` on a release page leads to its label, opening its fold."""
    return f"feature-{feature_id}"


def differs(feature: Feature, status: Status | None) -> bool:
    """Whether the feature stands somewhere else today than this release's label says."""
    return status is not None and (status.kind != "label" or status.label != feature.maturity)


def today_html(status: Status, lang: str, lifecycle_href: str | None, feature_id: str) -> str:
    """Where a feature stands today: its newest label with the release that gave it, or deprecated/removed in a
    release; a link to the feature's line in the lifecycle view where there is one."""
    t, w = UI[lang], WORDS[lang]
    if status.kind == "label":
        label = status.label or "unlabeled"
        inner = f'{esc(w["today_label"])}{maturity_badge(label, lang)} <span class="status-version">{esc(status.version)}</span>'
    else:
        css = "status-removed" if status.kind == "removed" else "status-deprecated"
        words = t["status_" + status.kind].format(version=status.version)
        inner = f'<span class="status {css}" data-status="{esc(status.kind)}">{esc(words)}</span>'
    if lifecycle_href:
        inner = f'<a class="status-link" href="{esc(lifecycle_href)}#feature-{esc(feature_id)}">{inner}</a>'
    return f'<span class="feature-today">→ {inner}</span>'


def _areas(page: ReleasePage) -> list[tuple[str, list[Feature]]]:
    """The page's features grouped by area, areas in the order the page first lists them."""
    groups: dict[str, list[Feature]] = {}
    for feature in page.features:
        groups.setdefault(feature.area, []).append(feature)
    return list(groups.items())


def _summary(area: str, features: list[Feature], lang: str) -> str:
    w = WORDS[lang]
    count = w["count_one"] if len(features) == 1 and "count_one" in w else w["count"].format(count=len(features))
    labels: dict[str, int] = {}
    for feature in features:
        labels[feature.maturity] = labels.get(feature.maturity, 0) + 1
    badges = " ".join(maturity_badge(label, lang, n) for label, n in labels.items())
    return (
        f'<summary><span class="feature-area-name">{esc(AREAS[area][lang])}</span> '
        f'<span class="feature-area-count">{esc(count)}</span> <span class="feature-area-labels">{badges}</span></summary>'
    )


def _table(page: ReleasePage, area: str, features: list[Feature], statuses: dict, lifecycle_href: str | None) -> str:
    t, w = UI[page.lang], WORDS[page.lang]
    caption = w["caption"].format(version=page.version, area=AREAS[area][page.lang])
    out = [
        '<table class="feature-table">',
        f'<caption class="visually-hidden">{esc(caption)}</caption>',
        f'<thead class="visually-hidden"><tr><th scope="col">{esc(t["feature"])}</th>'
        f'<th scope="col">{esc(t["maturity"])}</th></tr></thead>',
        "<tbody>",
    ]
    for feature in features:
        status = statuses.get(feature.id)
        today = today_html(status, page.lang, lifecycle_href, feature.id) if status and differs(feature, status) else ""
        out += [
            f'<tr id="{esc(row_id(feature.id))}" data-feature="{esc(feature.id)}">',
            f'<th scope="row"><a href="#{esc(feature.id)}">{esc(feature.name)}</a></th>',
            f'<td><span class="feature-label">{maturity_badge(feature.maturity, page.lang)}</span>{today}</td>',
            "</tr>",
        ]
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def features_section(page: ReleasePage, statuses: dict | None = None, lifecycle_href: str | None = None) -> str:
    """The "Features in this release" section (Markdown heading + HTML), or nothing for a page without features."""
    if not page.features:
        return ""
    w = WORDS[page.lang]
    statuses = statuses or {}
    fold = " open" if len(page.features) <= FOLD_AFTER else ""
    # data-search-exclude: the list repeats the sections below it; in the search index it made every release's top
    # result a wall of feature names (scripts/views/search_index.py).
    out = ["", f"## {esc(w['title'])} {{ #features }}", "", '<div class="feature-areas" data-search-exclude>']
    for area, features in _areas(page):
        out.append(f'<details class="feature-area" data-area="{esc(area)}"{fold}>')
        out.append(_summary(area, features, page.lang))
        out.append(_table(page, area, features, statuses, lifecycle_href))
        out.append("</details>")
    out += ["</div>", ""]
    return "\n".join(out)
