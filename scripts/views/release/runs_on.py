"""The "runs on" quick fact of a release page: the oldest glibc and macOS PyPI's wheels of its plain commands are
tagged for, the GPU architectures of its CUDA builds, the NVIDIA driver its default (PyPI, Linux x86_64) build
needs, and the macOS Apple GPUs (MPS) need, with the sources one click away and a caveat beside every value that is not official. Words only: every
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
        "glibc": "Linux {systems}：glibc {v} 或更高",
        "macos": "macOS（{systems}）：{v} 或更高",
        "macos_more": "macOS（{systems}）：{v} 或更高（部分 Python 版本要求更高，见“安装”）",
        "floors": "glibc 和 macOS 的版本是 PyPI 上这些 wheel 标注的最低版本（pip 按它判断能否安装）",
        "cuda_builds": "CUDA 构建：{groups}",
        "group": "{archs}（{builds}）",
        "driver": "PyPI 默认的 CUDA {cuda} 构建需要 NVIDIA 驱动 {linux} 或更高（Linux）",
        "mps": "Apple GPU（MPS）：macOS {v} 或更高",
        "mps_raised": "Apple GPU（MPS）：macOS {v} 或更高（之后的版本提高了要求；{release} 起为 {later}）",
        "mps_of": "MPS",
        "sources": "来源",
        "archs_of": "GPU 架构",
        "driver_of": "驱动版本",
    },
    "en": {
        "term": "Runs on",
        "sep": ", ",
        "glibc": "Linux {systems}: glibc {v} or later",
        "macos": "macOS ({systems}): {v} or later",
        "macos_more": "macOS ({systems}): {v} or later (some Python versions need a later one, see Install)",
        "floors": "glibc and macOS: the oldest versions PyPI's wheels are tagged for (what pip checks before it installs)",
        "cuda_builds": "CUDA builds: {groups}",
        "group": "{archs} ({builds})",
        "driver": "PyPI's default CUDA {cuda} build needs NVIDIA driver {linux} or later (Linux)",
        "mps": "Apple GPU (MPS): macOS {v} or later",
        "mps_raised": "Apple GPU (MPS): macOS {v} or later (later releases raised it; from {release}, {later})",
        "mps_of": "MPS",
        "sources": "Sources",
        "archs_of": "GPU architectures",
        "driver_of": "driver",
    },
}


def sm(capability: str) -> str:
    """ "8.6" -> "sm_86", "12.0" -> "sm_120"."""
    return "sm_" + capability.replace(".", "")


def arch_range(fact: ArchFact) -> str:
    """ "sm_75–sm_120+PTX": the oldest and newest architecture, +PTX where PTX ships too."""
    first, last = sm(fact.archs[0]), sm(fact.archs[-1])
    return (first if first == last else f"{first}–{last}") + ("+PTX" if fact.ptx else "")


def _os_parts(machine: MachineVerdict, lang: str) -> list[str]:
    w = WORDS[lang]
    parts = []
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
        floors = {p.floor for c in mac.commands for p in c.pythons}
        key = "macos" if len(floors) == 1 else "macos_more"
        parts.append(w[key].format(v=mac.floor, systems=ARCH_NAMES[platform][lang]))
    if "windows" in machine.pypi:
        parts.append(SYSTEM_NAMES["windows"][lang])
    return parts


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


def _sources(items: list[tuple[str, SourcedFact]], lang: str) -> str:
    """One disclosure with the sources of the line's facts, and the caveat of each that is not official."""
    seen: list[str] = []
    rows = [f"<li>{esc(WORDS[lang]['floors'])}</li>"]
    for what, fact in items:
        links = ", ".join(f'<a href="{esc(url)}">{esc(name)}</a>' for _, name, url in fact.sources)
        caveat = f" {esc(fact.caveat[lang])}" if fact.caveat else ""
        row = f"<li>{esc(what)}: {links}{evidence_mark(fact.evidence, lang)}{caveat}</li>"
        if row not in seen:
            seen.append(row)
            rows.append(row)
    if not rows:
        return ""
    return f'<details class="quick-caveat"><summary>{esc(WORDS[lang]["sources"])}</summary><ul>{"".join(rows)}</ul></details>'


def runs_on(machine: MachineVerdict | None, lang: str) -> tuple[str, str] | None:
    """(term, HTML value) of the "runs on" quick fact; None without a machine verdict or anything to say."""
    if machine is None:
        return None
    w = WORDS[lang]
    parts = [esc(p) for p in _os_parts(machine, lang)]
    cuda, arch_facts = _cuda_groups(machine, lang)
    facts = [(w["archs_of"], f.fact) for f in arch_facts]
    if cuda:
        parts.append(cuda)  # already escaped, with its evidence marks
    default = machine.pypi.get(MAIN_PLATFORM)
    if default and default.cuda and default.driver:
        parts.append(esc(w["driver"].format(cuda=default.cuda, linux=default.driver.linux)))
        facts.append((w["driver_of"], default.driver.fact))
    mps = machine.mps
    if mps and "macos-arm64" in machine.pypi:
        key = "mps_raised" if mps.raised_later and mps.next_floor else "mps"
        parts.append(esc(w[key].format(v=mps.macos, release=mps.next_release, later=mps.next_floor)))
        facts.append((w["mps_of"], mps.fact))
    if not parts:
        return None
    return w["term"], " · ".join(parts) + _sources(facts, lang)
