"""What a provisional release page adds after its own words: what PyPI's files say changed since the release
before (two columns, computed from the registry evidence), the changes official sources announced (each with its
source, marked as announced), and the schedule's next release (a plan, with its source). Also the "next release"
part alone, for the newest release once its post exists."""

from __future__ import annotations

from scripts.catalog.model import Plan, ReleasePage
from scripts.verdicts.model import RegistryChange, RegistryDelta, ReleaseVerdict
from scripts.views.html import esc, evidence_mark, short_url
from scripts.views.words import SYSTEM_NAMES, python_summary

UI = {
    "zh": {
        "changes": "与 {previous} 相比：PyPI 上的变化",
        "changes_intro": "下表比较 PyPI 上 {previous_patch} 与 {patch} 的 wheel 文件（{checked} 核对），每一行都由文件本身算出。",
        "fact": "事实",
        "platforms": "有 torch wheel 的平台",
        "python": "Python · {platform}",
        "cuda": "PyPI wheel 的 CUDA · {platform}",
        "cpu": "CPU 构建",
        "none": "没有",
        "same": "不变",
        "added": "新增 {values}",
        "removed": "去掉 {values}",
        "sep": "、",
        "announced": "已宣布的变化",
        "announced_intro": "下面这些变化由官方来源事先宣布，发布文章出来前无法逐条核对；每条都附来源。",
        "announced_mark": "已宣布",
        "next": "下一个版本",
        "plan": "计划（不是事实）：PyTorch 的发布日程把 PyTorch {version} 排在 {date}。",
        "source": "来源",
    },
    "en": {
        "changes": "Compared with {previous}: what changed on PyPI",
        "changes_intro": "The table compares PyPI's wheel files of {previous_patch} and {patch} (checked {checked}); every row is computed from the files themselves.",
        "fact": "Fact",
        "platforms": "Platforms with torch wheels",
        "python": "Python · {platform}",
        "cuda": "CUDA of the PyPI wheel · {platform}",
        "cpu": "CPU build",
        "none": "none",
        "same": "unchanged",
        "added": "added {values}",
        "removed": "removed {values}",
        "sep": ", ",
        "announced": "Announced changes",
        "announced_intro": "Official sources announced these changes ahead of the release; until its post exists they cannot be checked one by one. Each comes with its source.",
        "announced_mark": "announced",
        "next": "Next release",
        "plan": "Plan, not fact: PyTorch's release schedule puts PyTorch {version} on {date}.",
        "source": "source",
    },
}


def _values(delta: RegistryDelta, values: tuple[str, ...], lang: str) -> str:
    t = UI[lang]
    if delta.fact == "platforms":
        return t["sep"].join(SYSTEM_NAMES[p][lang] for p in values) or t["none"]
    if delta.fact == "cuda":
        return values[0] if values else t["cpu"]
    return python_summary(list(values)) if values else t["none"]


def _change_words(delta: RegistryDelta, lang: str) -> str:
    t = UI[lang]
    if not delta.changed:
        return t["same"]
    if delta.fact == "cuda":
        return f"{_values(delta, delta.before, lang)} → {_values(delta, delta.now, lang)}"
    name = (lambda v: SYSTEM_NAMES[v][lang]) if delta.fact == "platforms" else str
    parts = []
    if delta.added:
        parts.append(t["added"].format(values=t["sep"].join(name(v) for v in delta.added)))
    if delta.removed:
        parts.append(t["removed"].format(values=t["sep"].join(name(v) for v in delta.removed)))
    return "; ".join(parts) if lang == "en" else "；".join(parts)


def _label(delta: RegistryDelta, lang: str) -> str:
    t = UI[lang]
    if delta.fact == "platforms":
        return t["platforms"]
    return t[delta.fact].format(platform=SYSTEM_NAMES[delta.platform or ""][lang])


def changes_table(change: RegistryChange, checked: str | None, lang: str) -> list[str]:
    """The "compared with the release before" part: one row per fact, both columns, what changed."""
    t = UI[lang]
    rows = []
    for delta in change.deltas:
        if delta.fact == "cuda" and not delta.before and not delta.now:
            continue  # a CPU build on both sides: the platforms row already says the wheels exist
        css = ' class="registry-changed"' if delta.changed else ""
        if delta.changed:
            values = (
                f"<td>{esc(_values(delta, delta.before, lang))}</td><td>{esc(_values(delta, delta.now, lang))}</td>"
            )
        else:  # the same on both sides: said once, across both columns
            values = f'<td colspan="2">{esc(_values(delta, delta.now, lang))}</td>'
        rows.append(
            f'<tr{css}><th scope="row">{esc(_label(delta, lang))}</th>{values}'
            f"<td>{esc(_change_words(delta, lang))}</td></tr>"
        )
    heading = t["changes"].format(previous=change.previous)
    intro = t["changes_intro"].format(previous_patch=change.previous_patch, patch=change.patch, checked=checked or "?")
    head = f'<tr><th scope="col">{esc(t["fact"])}</th><th scope="col">{esc(change.previous_patch)}</th><th scope="col">{esc(change.patch)}</th><th scope="col"></th></tr>'
    return [
        "",
        f"### {esc(heading)} {{ #registry-changes }}",
        "",
        f'<p class="registry-changes-intro">{esc(intro)}</p>',
        "",
        f'<div class="registry-changes-wrap"><table class="registry-changes"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table></div>',
        "",
    ]


def announced_list(page: ReleasePage) -> list[str]:
    """The changes official sources announced for a provisional release, each with its source."""
    if not page.announced:
        return []
    t = UI[page.lang]
    items = "".join(
        f'<li id="announced-{esc(a.id)}"><span class="announced-mark">{esc(t["announced_mark"])}</span> {esc(a.text)} '
        f'(<a href="{esc(a.source)}">{esc(short_url(a.source))}</a>{evidence_mark(a.evidence, page.lang)})</li>'
        for a in page.announced
    )
    return [
        "",
        f"### {esc(t['announced'])} {{ #announced }}",
        "",
        f'<p class="announced-intro">{esc(t["announced_intro"])}</p>',
        "",
        f'<ul class="announced">{items}</ul>',
        "",
    ]


def next_release(page: ReleasePage) -> list[str]:
    """The schedule's next release, on the newest release's page: a plan with its source."""
    plan = page.next_release
    if plan is None:
        return []
    t = UI[page.lang]
    words = t["plan"].format(version=plan.version, date=plan.date_iso)
    return [
        "",
        f"### {esc(t['next'])} {{ #next-release }}",
        "",
        f'<p class="release-plan" data-version="{esc(plan.version)}">{esc(words)} '
        f'<a href="{esc(plan.source)}">{esc(t["source"])}: {esc(short_url(plan.source))}</a>{evidence_mark(plan.evidence, page.lang)}</p>',
        "",
    ]


def provisional_section(page: ReleasePage, verdict: ReleaseVerdict, checked: str | None, plans: list[Plan]) -> str:
    """What follows a release page's own words: the registry's changes and the announcements (provisional
    pages), and the next release where this page names the plan still shown (`planned_releases`: the newest
    release's, while that release does not exist). Empty for every other page."""
    lines: list[str] = []
    if page.provisional and verdict.since_previous is not None:
        lines += changes_table(verdict.since_previous, checked, page.lang)
    if page.provisional:
        lines += announced_list(page)
    if page.next_release is not None and page.next_release in plans:
        lines += next_release(page)
    return "\n".join(lines)
