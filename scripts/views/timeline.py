"""The home page timeline (`<!-- timeline -->`): a "latest release" entry, the schedule's next release (a plan, with
its source), then every release newest first with its date, summary and maturity counts, and a line about a release
PyPI has that the site has no page for yet."""

from __future__ import annotations

from scripts.catalog.model import Catalog, Plan, ReleasePage
from scripts.verdicts.model import Verdicts
from scripts.verdicts.support import planned_releases
from scripts.views.html import (
    date_html,
    esc,
    evidence_mark,
    maturity_badge,
    provisional_html,
    relative_link,
    release_src,
    short_url,
)
from scripts.views.words import UI

# The labels a timeline entry always counts, even at zero, so entries compare at a glance.
COUNTED_LABELS = ("Stable", "Beta", "Prototype")
PENDING = {
    "zh": "PyPI 上已有 PyTorch {version}（{uploaded} 首次上传，{checked} 核对），但这里还没有它的官方发布文章，所以暂不收录。",
    "en": "PyPI already lists PyTorch {version} (first uploaded {uploaded}, checked {checked}); its official release post is not available here yet, so it has no page.",
}

PLAN = {
    "zh": {"title": "PyTorch {version}", "mark": "计划（不是事实）", "when": "发布日程排在 {date}", "source": "来源"},
    "en": {"title": "PyTorch {version}", "mark": "plan, not fact", "when": "scheduled for {date}", "source": "source"},
}


def plan_html(plan: Plan, lang: str) -> list[str]:
    """The schedule's next release at the top of the timeline: marked as a plan, its date, its source."""
    w = PLAN[lang]
    return [
        f'<div class="timeline-planned" data-version="{esc(plan.version)}" data-date="{plan.date_iso}">',
        f'<p class="timeline-plan-title"><strong>{esc(w["title"].format(version=plan.version))}</strong> · '
        f'<span class="plan-mark">{esc(w["mark"])}</span></p>',
        f'<p class="timeline-date"><time datetime="{plan.date_iso}">{esc(w["when"].format(date=plan.date_iso))}</time>'
        f' · <a href="{esc(plan.source)}">{esc(w["source"])}: {esc(short_url(plan.source))}</a>'
        f"{evidence_mark(plan.evidence, lang)}</p>",
        "</div>",
        "",
    ]


def maturity_counts_html(page: ReleasePage) -> str:
    """One pill per label the release uses (Stable, Beta, Prototype first, then the rest), none at zero:
    "0 Stable · 0 Beta" on 27 entries of a page was noise, not a comparison."""
    counts = page.maturity_counts()  # holds only labels with at least one feature
    shown = [label for label in COUNTED_LABELS if label in counts] + [
        label for label in counts if label not in COUNTED_LABELS
    ]
    return " ".join(maturity_badge(label, page.lang, counts[label]) for label in shown)


def timeline(
    catalog: Catalog, lang: str, from_src: str = "index.md", pending: str | None = None, plan: Plan | None = None
) -> str:
    """The home page timeline: a "latest release" entry, then every release newest first, each with its
    date, summary and maturity counts. `pending` is HTML about a release that exists but has no page yet;
    `plan`, the schedule's next release, leads the list as a plan."""
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
        f"[{esc(t['release'].format(version=newest.version))}]({relative_link(from_src, release_src(newest.version))})"
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
    if plan is not None:
        lines += plan_html(plan, lang)
    for page in pages:
        anchor = "v" + page.version.replace(".", "-")
        lines += [
            f'<div class="timeline-entry" data-version="{page.version}" data-date="{page.date_iso}" markdown>',
            "",
            f"## [{esc(t['release'].format(version=page.version))}]({relative_link(from_src, release_src(page.version))}) {{ #{anchor} }}",
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


def pending_html(verdicts: Verdicts, lang: str) -> str | None:
    """A line about a release PyPI lists but the site has no page for (from the registry evidence), or None."""
    found = verdicts.pending
    if found is None:
        return None
    return esc(PENDING[lang].format(version=found.version, uploaded=found.uploaded, checked=verdicts.checked))


def home_timeline(catalog: Catalog, verdicts: Verdicts, lang: str, from_src: str) -> str:
    """The home page's timeline (what `<!-- timeline -->` becomes), with the pending release's line."""
    plans = planned_releases(catalog, verdicts)
    return timeline(
        catalog, lang, from_src=from_src, pending=pending_html(verdicts, lang), plan=plans[0] if plans else None
    )
