"""The "runs on" quick fact of a release page, short enough for the first screen: the oldest glibc and macOS PyPI's
wheels of its plain commands are tagged for, the GPU architectures of its CUDA builds, the NVIDIA driver its default
(PyPI, Linux x86_64) build needs and the macOS Apple GPUs (MPS) need, on one line; what qualifies them and their
sources (with a caveat beside every value that is not official) in one disclosure under it. Words only: every
answer is the release's machine verdict (scripts/verdicts/hardware.py)."""

from __future__ import annotations

from scripts.verdicts.model import MAIN_PLATFORM, ArchFact, MachineVerdict, SourcedFact
from scripts.views.html import esc, evidence_mark
from scripts.views.words import SYSTEM_NAMES

ARCH_NAMES = {
    "linux-x86_64": {"zh": "x86_64", "en": "x86_64"},
    "linux-aarch64": {"zh": "aarch64", "en": "aarch64"},
    "macos-arm64": {"zh": "Apple 芯片", "en": "Apple silicon"},
    "macos-x86_64": {"zh": "Intel", "en": "Intel"},
}
WORDS = {
    "zh": {
        "term": "运行环境",
        "sep": "、",
        "colon": "：",
        "glibc": "Linux {systems}：glibc ≥ {v}",
        "macos": "macOS（{systems}）≥ {v}",
        "cuda_builds": "CUDA 构建：{groups}",
        "group": "{archs}（{builds}）",
        "driver": "NVIDIA 驱动 ≥ {linux}",
        "driver_more": "NVIDIA 驱动：PyPI 默认的 CUDA {cuda} 构建在 Linux 上需要的最低版本。",
        "mps": "Apple GPU（MPS）：macOS ≥ {v}",
        "mps_raised": "Apple GPU（MPS）：macOS ≥ {v}（之后的版本提高了要求；{release} 起为 {later}）",
        "more": "详情与来源",
        "floors": "glibc 和 macOS 的版本是 PyPI 上这些 wheel 标注的最低版本（pip 按它判断能否安装）。",
        "macos_more": "macOS（{systems}）：部分 Python 版本的 wheel 要求更高的版本，见“安装”。",
        "mps_of": "MPS",
        "archs_of": "GPU 架构",
        "driver_of": "驱动版本",
    },
    "en": {
        "term": "Runs on",
        "sep": ", ",
        "colon": ": ",
        "glibc": "Linux {systems}: glibc ≥ {v}",
        "macos": "macOS ({systems}) ≥ {v}",
        "cuda_builds": "CUDA builds: {groups}",
        "group": "{archs} ({builds})",
        "driver": "NVIDIA driver ≥ {linux}",
        "driver_more": "NVIDIA driver: the oldest that PyPI's default CUDA {cuda} build loads with, on Linux.",
        "mps": "Apple GPU (MPS): macOS ≥ {v}",
        "mps_raised": "Apple GPU (MPS): macOS ≥ {v} (later releases raised it; from {release}, {later})",
        "more": "Details and sources",
        "floors": "glibc and macOS: the oldest versions PyPI's wheels are tagged for (what pip checks before it installs).",
        "macos_more": "macOS ({systems}): some Python versions have wheels that need a later one, see Install.",
        "mps_of": "MPS",
        "archs_of": "GPU architectures",
        "driver_of": "Driver",
    },
}


def sm(capability: str) -> str:
    """ "8.6" -> "sm_86", "12.0" -> "sm_120"."""
    return "sm_" + capability.replace(".", "")


def arch_range(fact: ArchFact) -> str:
    """ "sm_75–sm_120+PTX": the oldest and newest architecture, +PTX where PTX ships too."""
    first, last = sm(fact.archs[0]), sm(fact.archs[-1])
    return (first if first == last else f"{first}–{last}") + ("+PTX" if fact.ptx else "")


def _os_parts(machine: MachineVerdict, lang: str) -> tuple[list[str], list[str]]:
    """(the systems with their oldest glibc/macOS, shown; what qualifies them, one click away)."""
    w = WORDS[lang]
    parts: list[str] = []
    notes: list[str] = []
    linux: dict[str, list[str]] = {}
    for platform, build in machine.pypi.items():
        if platform.startswith("linux") and build.floor:
            linux.setdefault(build.floor, []).append(ARCH_NAMES[platform][lang])
    for floor, systems in sorted(linux.items(), key=lambda item: _key(item[0])):
        parts.append(w["glibc"].format(v=floor, systems=w["sep"].join(systems)))
    for platform in ("macos-arm64", "macos-x86_64"):
        mac = machine.pypi.get(platform)
        if mac is None or mac.floor is None:
            continue
        parts.append(w["macos"].format(v=mac.floor, systems=ARCH_NAMES[platform][lang]))
        if len({p.floor for c in mac.commands for p in c.pythons}) > 1:
            notes.append(w["macos_more"].format(systems=ARCH_NAMES[platform][lang]))
    if parts:
        notes.insert(0, w["floors"])
    if "windows" in machine.pypi:
        parts.append(SYSTEM_NAMES["windows"][lang])
    return parts, notes


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


def _cuda_groups(machine: MachineVerdict, lang: str) -> tuple[str | None, list[ArchFact]]:
    """ "sm_50–sm_90 (cu126), sm_75–sm_120+PTX (cu130, cu132)" for the Linux x86_64 CUDA builds whose lists are known."""
    w = WORDS[lang]
    groups: dict[tuple, list[str]] = {}
    facts: dict[tuple, ArchFact] = {}
    for variant in machine.variants:
        fact = variant.archs.get(MAIN_PLATFORM)
        if variant.kind == "cuda" and fact:
            key = (fact.archs, fact.ptx)
            groups.setdefault(key, []).append(variant.tag)
            facts.setdefault(key, fact)
    default = machine.pypi.get(MAIN_PLATFORM)
    if default and default.archs and not any(default.archs.build in tags for tags in groups.values()):
        key = (default.archs.archs, default.archs.ptx)  # PyPI's own build where the picker has no variant of it
        groups.setdefault(key, []).append(default.archs.build)
        facts.setdefault(key, default.archs)
    if not groups:
        return None, []
    text = w["sep"].join(
        w["group"].format(archs=arch_range(facts[key]), builds=w["sep"].join(tags))
        + evidence_mark(facts[key].fact.evidence, lang)
        for key, tags in groups.items()
    )
    return w["cuda_builds"].format(groups=text), list(facts.values())


def _details(notes: list[str], items: list[tuple[str, SourcedFact]], lang: str) -> str:
    """One disclosure under the line: what qualifies its values, then the sources of its facts, each with its
    evidence and the caveat of a value that is not official."""
    w = WORDS[lang]
    rows = [f"<li>{esc(note)}</li>" for note in notes]
    # One row per kind of fact and evidence: two CUDA builds' lists name their sources once, together.
    grouped: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for what, fact in items:
        links = grouped.setdefault((what, fact.evidence, fact.caveat[lang] if fact.caveat else ""), [])
        links += [link for link in fact.links(lang) if link not in links]
    for (what, evidence, caveat), links in grouped.items():
        names = w["sep"].join(f'<a href="{esc(url)}">{esc(name)}</a>' for name, url in links)
        rows.append(
            f"<li>{esc(what + w['colon'])}{names}{evidence_mark(evidence, lang)}{' ' + esc(caveat) if caveat else ''}</li>"
        )
    if not rows:
        return ""
    return f'<details class="quick-caveat quick-more"><summary>{esc(w["more"])}</summary><ul>{"".join(rows)}</ul></details>'


def runs_on(machine: MachineVerdict | None, lang: str) -> tuple[str, str] | None:
    """(term, HTML value) of the "runs on" quick fact: the systems, GPU architectures, driver and MPS in short
    words on one line, what qualifies them and their sources one click away; None without a machine verdict or
    anything to say."""
    if machine is None:
        return None
    w = WORDS[lang]
    shown, notes = _os_parts(machine, lang)
    parts = [esc(p) for p in shown]
    cuda, arch_facts = _cuda_groups(machine, lang)
    facts = [(w["archs_of"], f.fact) for f in arch_facts]
    if cuda:
        parts.append(cuda)  # already escaped, with its evidence marks
    default = machine.pypi.get(MAIN_PLATFORM)
    if default and default.cuda and default.driver:
        parts.append(esc(w["driver"].format(linux=default.driver.linux)))
        notes.append(w["driver_more"].format(cuda=default.cuda))
        facts.append((w["driver_of"], default.driver.fact))
    mps = machine.mps
    if mps and "macos-arm64" in machine.pypi:
        key = "mps_raised" if mps.raised_later and mps.next_floor else "mps"
        parts.append(esc(w[key].format(v=mps.macos, release=mps.next_release, later=mps.next_floor)))
        facts.append((w["mps_of"], mps.fact))
    if not parts:
        return None
    line = '<span class="runs-on-line">' + " · ".join(parts) + "</span>"
    return w["term"], line + _details(notes, facts, lang)
