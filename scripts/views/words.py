"""Words the views share, in both languages: the release pages' and the timeline's (`UI`), the names of the
platforms, and Python versions as a short range ("3.9–3.13, 3.13t")."""

from __future__ import annotations

from scripts.catalog.compat import python_key

UI: dict[str, dict[str, str]] = {
    "zh": {
        "colon": "：",
        "date": "发布日期",
        "source": "官方来源",
        "feature": "特性",
        "area": "领域",
        "maturity": "本版标签",
        "previous": "上一版本",
        "next": "下一版本",
        "none_previous": "这是本站收录的最早版本。",
        "none_next": "这是本站收录的最新版本。",
        "read_source": "阅读官方发布文章",
        "coverage": "本站收录 PyTorch {first}（{first_date}）至 {last}（{last_date}）共 {count} 个小版本。",
        "release": "PyTorch {version}",
        "changes_since": "{previous} → {version} 之间的变化",
        "latest": "最新版本",
        "latest_entry": "最新收录的版本是 PyTorch {version}（{date}）：{summary}",
        "month_only": "（只知道月份）",
        "status_deprecated": "{version} 起弃用",
        "status_removed": "{version} 中移除",
        "status_label": "{label}（{version}）",
        "evidence": "证据",
        "changes": "不兼容变更与弃用",
        "changes_none": "本站依据的资料中没有记载这一版的不兼容变更、弃用或移除。",
        "read_pypi": "在 PyPI 上查看这一版",
        "changes_intro": "升级到 {version} 时需要注意的变化（共 {count} 项）。每项注明来源；◆ 表示来源是官方文字的第三方副本或推断。",
        "before": "以前的写法",
        "after": "{version} 起的写法",
        "follows": "接续",
        "followed_by": "后续",
        "affects": "涉及特性",
        "last_supported": "最后支持的版本：{version}",
    },
    "en": {
        "colon": ": ",
        "date": "Released",
        "source": "Official source",
        "feature": "Feature",
        "area": "Area",
        "maturity": "Label here",
        "previous": "Previous release",
        "next": "Next release",
        "none_previous": "This is the oldest release covered here.",
        "none_next": "This is the newest release covered here.",
        "read_source": "Read the official release post",
        "coverage": "Covers {count} minor releases, from PyTorch {first} ({first_date}) to {last} ({last_date}).",
        "release": "PyTorch {version}",
        "changes_since": "What changed from {previous} to {version}",
        "latest": "Latest release",
        "latest_entry": "The newest release covered here is PyTorch {version} ({date}): {summary}",
        "month_only": " (month only)",
        "status_deprecated": "deprecated in {version}",
        "status_removed": "removed in {version}",
        "status_label": "{label} ({version})",
        "evidence": "Evidence",
        "changes": "Breaking changes and deprecations",
        "changes_none": "Our sources record no breaking change, deprecation or removal for this release.",
        "read_pypi": "See this release on PyPI",
        "changes_intro": "What to watch for when upgrading to {version} ({count} items). Each names its source; ◆ marks a third-party copy of official text or a derived fact.",
        "before": "Before",
        "after": "From {version} on",
        "follows": "Follows",
        "followed_by": "Followed by",
        "affects": "Affects",
        "last_supported": "Last release with it: {version}",
    },
}

SYSTEM_NAMES = {
    "linux-x86_64": {"zh": "Linux x86_64", "en": "Linux x86_64"},
    "linux-aarch64": {"zh": "Linux aarch64 (ARM)", "en": "Linux aarch64 (ARM)"},
    "macos-arm64": {"zh": "macOS（Apple 芯片）", "en": "macOS (Apple silicon)"},
    "macos-x86_64": {"zh": "macOS（Intel）", "en": "macOS (Intel)"},
    "windows": {"zh": "Windows", "en": "Windows"},
}


def python_summary(versions) -> str:
    """ "3.9–3.13, 3.13t": contiguous 3.x versions as a range; free-threaded builds listed after."""
    regular = sorted((v for v in versions if not v.endswith("t")), key=python_key)
    threaded = sorted((v for v in versions if v.endswith("t")), key=python_key)
    parts: list[str] = []
    run: list[str] = []

    def flush():
        if run:
            parts.append(run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}")

    for v in regular:
        if run and (v.split(".")[0] != run[-1].split(".")[0] or int(v.split(".")[1]) != int(run[-1].split(".")[1]) + 1):
            flush()
            run = []
        run.append(v)
    flush()
    return ", ".join(parts + threaded)
