"""The install section of a release page: the verdict (what the plain PyPI command installs on each system, which
Pythons it works on), the notes under it, and the picker (OS × package manager × compute platform) with every command
listed under its label, so the page answers without script too (docs/assets/javascripts/install.js makes the picker).
Each command is on the page once: the plain one is the picker's first choice, and carries the verdict's data
(`#install-verdict`: the Pythons it works on, its platform) for the checks (scripts/checks/install_resolver.py).
The commands and every answer come from the release's verdict (scripts/verdicts/); this module only words and draws.
Every text is escaped.
"""

from __future__ import annotations

from scripts.catalog.model import Release, version_key
from scripts.verdicts.model import INDEX, MACOS, PLATFORMS, NoWheel, Option, Pins, PythonOn, ReleaseVerdict, Verdicts
from scripts.views.html import esc, text_code_block
from scripts.views.release.platform_lines import platform_lines, resolver_attrs
from scripts.views.words import SYSTEM_NAMES, python_summary

UI = {
    "zh": {
        "install": "安装",
        "colon": "：",
        "sep": "、",
        "verdict": "从 PyPI 安装 PyTorch {patch}（下方选择器中的“pip · PyPI 默认”）：",
        "verdict_builds": "在 {main} 上装到的是 {build}；{others}。",
        "verdict_build_only": "在 {main} 上装到的是 {build}。",
        "verdict_python": "这条命令在 {system} 上可用的 Python（PyPI 上每个包都有 wheel）：{python}。",
        "verdict_narrower": "torch 本身还有 Python {python} 的 wheel，但 {libs} 没有，所以在这些版本上这条命令会失败。",
        "build_cuda": "CUDA {cuda} 构建",
        "build_cpu": "CPU 构建",
        "others_cpu": "其他系统上是 CPU 构建",
        "others_list": "{items}",
        "other_item": "{system}：{build}",
        "no_verdict": "PyPI 上没有这一版的 wheel，下面是官方页面当年给出的命令。",
        "picker_legend_os": "操作系统",
        "picker_legend_pm": "安装方式",
        "picker_legend_compute": "计算平台",
        "default": "PyPI 默认",
        "cpu": "CPU",
        "cuda": "CUDA {v}",
        "rocm": "ROCm {v}",
        "experimental": "（实验性）",
        "systems": "适用于：{systems}",
        "yanked": "⚠ PyPI 已撤回（yanked）{lib} {version}{reason}：精确指定版本时 pip 仍会安装，但会给出警告；PyPI 上没有可代替它的同系列版本。",
        "yanked_reason": "（理由：{reason}）",
        "pin_changed": "资料给出的配套版本是 {lib} {claimed}，但{why}，所以命令固定为 {version}。",
        "why_rejects": "它在 PyPI 上声明的依赖不接受 torch {patch}",
        "why_yanked": "它已被 PyPI 撤回（yanked）",
        "no_pair": "资料中没有与 {patch} 配套的 {lib} 版本，命令中未固定它。",
        "reason_no_wheel": "PyPI 上没有 torch {patch} 的 {system} wheel。{last}",
        "reason_last": "最后一个有 {system} wheel 的版本是 {version}。",
        "reason_first": "第一个有 {system} wheel 的版本是 {version}。",
        "reason_never": "PyPI 上从来没有 {system} 的 torch wheel。",
        "reason_unusable": "torch {patches} 的 {system} wheel 标注为 {tags}，pip 从不安装这种 wheel。",
        "reason_macos": "macOS 只有 PyPI 上的那一种构建（CPU，Apple 芯片上还可用 MPS）；没有 CUDA 或 ROCm 构建。请选“PyPI 默认”。",
        "reason_rocm": "ROCm 构建只有 Linux 版。",
        "reason_aarch64": "资料没有记载 download.pytorch.org 上 Linux aarch64 的各个变体；PyPI 上的 wheel 见“PyPI 默认”。",
        "reason_variant": "PyTorch {patch} 没有这种构建。",
        "reason_conda_late": "Conda：PyTorch 官方频道在 2.5 之后不再发布新包（2.6 官方文章）；社区维护的 conda-forge 仍有构建。",
        "reason_conda_gone": "Conda：官方页面当年给出的 conda 命令已经不能用了：2023 年 PyTorch 问题跟踪器中的报告（#104754）指出，pytorch 频道里早于 1.5.1 的包已被删除。",
        "reason_download": "这一版的 CUDA 构建没有可直接复制的 pip 命令：官方页面让你从 {url} 下载对应的 wheel，再用 pip install 安装下载的文件。",
        "no_pip": "1.0 之前的版本没有 pip 安装命令：官方页面列出了各个 wheel 的下载地址（download.pytorch.org/whl/…），也给出过 conda 命令（如 conda install pytorch=0.4.1 cuda90 -c pytorch），而 pytorch 频道中早于 1.5.1 的包据报告已被删除（#104754）。可以从源码构建：git checkout v{version}.x 后按当时的 README 操作。",
        "other_patches": "这一小版本的其他补丁版本：{patches}。",
        "not_on_pypi": "{patches} 不在 PyPI 上，只能从 download.pytorch.org 安装。",
        "lts_install": "{patches} 是 LTS（长期支持）版本，只在 download.pytorch.org 的 LTS 索引上。",
        "source": "依据：pip 能从 PyPI 装到什么，由 PyPI 上的 wheel 文件及其 Requires-Dist 决定（{checked} 核对）；download.pytorch.org 上的变体与命令格式取自官方“Previous PyTorch Versions”页面和本页的兼容性数据。",
        "all_commands": "全部命令",
        # quick facts
        "qf_title": "速览",
        "qf_date": "发布日期",
        "qf_upload": "首次上传到 PyPI",
        "qf_python": "Python（PyPI）",
        "qf_python_claim": "Python",
        "qf_build": "PyPI 默认构建",
        "qf_libs": "配套",
        "qf_status": "状态",
        "qf_install": "安装命令 ↓",
        "qf_notes": "GitHub 上的完整发布说明 ↗",
        "qf_matrix": "兼容性矩阵中的这一行",
        "on": "（{system}）",
        "month_only": "（只知道月份）",
        "caveat": "关于来源的说明",
    },
    "en": {
        "install": "Install",
        "colon": ": ",
        "sep": ", ",
        "verdict": "PyTorch {patch} from PyPI (the picker's “pip · PyPI default” below):",
        "verdict_builds": "On {main} it installs the {build}; {others}.",
        "verdict_build_only": "On {main} it installs the {build}.",
        "verdict_python": "Python versions this command works on, {system} (PyPI has a wheel of every package): {python}.",
        "verdict_narrower": " torch itself also has Python {python} wheels, but {libs} do not, so the command fails there.",
        "build_cuda": "CUDA {cuda} build",
        "build_cpu": "CPU build",
        "others_cpu": "elsewhere a CPU build",
        "others_list": "{items}",
        "other_item": "{system}: {build}",
        "no_verdict": "PyPI has no wheels of this release; below are the commands the official page gave at the time.",
        "picker_legend_os": "Operating system",
        "picker_legend_pm": "Package manager",
        "picker_legend_compute": "Compute platform",
        "default": "PyPI default",
        "cpu": "CPU",
        "cuda": "CUDA {v}",
        "rocm": "ROCm {v}",
        "experimental": " (experimental)",
        "systems": "For: {systems}",
        "yanked": "⚠ PyPI has yanked {lib} {version}{reason}: pip still installs it when pinned exactly, with a warning; PyPI has no other release of that line to use instead.",
        "yanked_reason": " (reason: {reason})",
        "pin_changed": "Our sources pair {lib} {claimed}, but {why}, so the command pins {version}.",
        "why_rejects": "its Requires-Dist on PyPI does not admit torch {patch}",
        "why_yanked": "PyPI has yanked it",
        "no_pair": "Our sources give no {lib} release for {patch}, so the command does not pin it.",
        "reason_no_wheel": "PyPI has no torch {patch} wheel for {system}. {last}",
        "reason_last": "The last release with one is {version}.",
        "reason_first": "The first release with one is {version}.",
        "reason_never": "PyPI has never had a torch wheel for {system}.",
        "reason_unusable": "torch {patches} has a {system} wheel tagged {tags}, which pip never installs.",
        "reason_macos": 'macOS has only the build on PyPI (CPU, plus MPS on Apple silicon); there is no CUDA or ROCm build. Choose "PyPI default".',
        "reason_rocm": "ROCm builds exist for Linux only.",
        "reason_aarch64": "Our sources do not document download.pytorch.org's variants for Linux aarch64; PyPI's wheel is under \"PyPI default\".",
        "reason_variant": "PyTorch {patch} had no such build.",
        "reason_conda_late": "Conda: PyTorch's own channel published nothing after 2.5 (2.6 post); community builds remain on conda-forge.",
        "reason_conda_gone": "Conda: the conda commands the official page gave at the time no longer work: a 2023 report in PyTorch's issue tracker (#104754) found the pytorch channel's packages older than 1.5.1 deleted.",
        "reason_download": "This release's CUDA builds have no pip command to copy: the official page says to download the matching wheel from {url} and pip install the downloaded file.",
        "no_pip": "Releases before 1.0 have no pip command: the official page lists the wheel URLs (download.pytorch.org/whl/…) and used to give conda commands (such as conda install pytorch=0.4.1 cuda90 -c pytorch), and the pytorch channel's packages older than 1.5.1 were reported deleted (#104754). Building from source works: git checkout v{version}.x and follow that README.",
        "other_patches": "Other patch releases of this minor: {patches}.",
        "not_on_pypi": "{patches} is not on PyPI: install it from download.pytorch.org.",
        "lts_install": "{patches} is the LTS (long-term support) release, on download.pytorch.org's LTS index only.",
        "source": "What pip installs from PyPI is decided by PyPI's wheel files and their Requires-Dist (checked {checked}); the download.pytorch.org variants and the command forms come from the official Previous PyTorch Versions page and this page's compatibility data.",
        "all_commands": "All commands",
        "qf_title": "At a glance",
        "qf_date": "Released",
        "qf_upload": "First upload to PyPI",
        "qf_python": "Python (PyPI)",
        "qf_python_claim": "Python",
        "qf_build": "PyPI default build",
        "qf_libs": "Pairs with",
        "qf_status": "Status",
        "qf_install": "Install commands ↓",
        "qf_notes": "Full release notes on GitHub ↗",
        "qf_matrix": "this release in the compatibility matrix",
        "on": " ({system})",
        "month_only": " (month only)",
        "caveat": "about the sources",
    },
}


# --- words ---------------------------------------------------------------------------------------------------


def build_words(cuda: str | None, lang: str) -> str:
    t = UI[lang]
    return t["build_cuda"].format(cuda=cuda) if cuda else t["build_cpu"]


def compute_label(compute: str, lang: str, experimental: bool = False) -> str:
    t = UI[lang]
    kind, _, version = compute.partition("-")
    text = t[kind].format(v=version) if version else t[kind]
    return text + (t["experimental"] if experimental else "")


def no_wheel_reason(gap: NoWheel, patch: str, lang: str) -> str:
    t = UI[lang]
    name = SYSTEM_NAMES[gap.system][lang]
    if gap.kind == "never":
        return t["reason_never"].format(system=name)
    key = "reason_first" if gap.kind == "before" else "reason_last"
    more = t[key].format(system=name, version=gap.release)
    if gap.unusable:
        patches = t["sep"].join(dict.fromkeys(p for p, _ in gap.unusable))
        tags = t["sep"].join(dict.fromkeys(tag for _, tag in gap.unusable))
        more += " " + t["reason_unusable"].format(patches=patches, system=name, tags=tags)
    return t["reason_no_wheel"].format(patch=patch, system=name, last=more).strip()


def reasons(release: Release, verdict: ReleaseVerdict, p: Pins, lang: str) -> list[tuple[str, str, str, str]]:
    """(systems, manager, compute kind, sentence) for combinations that never existed, most specific first; an
    empty field matches anything, `systems` may name several (space-separated): each sentence is on the page once.
    The picker shows the first that matches a choice without a command."""
    t = UI[lang]
    out: list[tuple[str, str, str, str]] = []
    for gap in verdict.no_wheels:
        out.append((gap.system, "pip", "default", no_wheel_reason(gap, p.patch, lang)))
    if version_key(release.version) > (2, 5):
        out.append(("", "conda", "", t["reason_conda_late"]))
    elif version_key(p.patch) < (1, 5, 1):
        out.append(("", "conda", "", t["reason_conda_gone"]))
    if version_key(release.version) < (1, 2):
        out.append(("", "pip", "", t["reason_download"].format(url=INDEX + "/<cuda>/torch_stable.html")))
    out.append((" ".join(MACOS), "", "", t["reason_macos"]))
    out.append(("windows", "", "rocm", t["reason_rocm"]))
    out.append(("linux-aarch64", "pip", "", t["reason_aarch64"]))
    out.append(("", "", "", t["reason_variant"].format(patch=p.patch)))
    return out


def _notes(release: Release, p: Pins, lang: str) -> list[str]:
    """The sentences under the verdict: changed or yanked pins, missing pairings, other patches."""
    t = UI[lang]
    out = []
    for lib, pin in (("torchvision", p.vision), ("torchaudio", p.audio)):
        if pin is None:
            if lib == "torchvision" and version_key(release.version) >= (1, 1):
                out.append(t["no_pair"].format(lib=lib, patch=p.patch))
            continue
        if pin.yanked:
            reason = t["yanked_reason"].format(reason=pin.yanked_reason) if pin.yanked_reason else ""
            out.append(t["yanked"].format(lib=lib, version=pin.version, reason=reason))
        elif pin.claimed:
            why = t["why_rejects"].format(patch=p.patch) if pin.why == "rejects" else t["why_yanked"]
            out.append(t["pin_changed"].format(lib=lib, claimed=pin.claimed, version=pin.version, why=why))
    patches = list(release.patches)
    if len(patches) > 1:
        out.append(t["other_patches"].format(patches=", ".join(x for x in patches if x != p.patch)))
    lts = getattr(release, "lts", None)
    absent = [x for x in (release.compat.not_on_pypi if release.compat else ()) if not (lts and x in lts.patches)]
    if lts:
        out.append(t["lts_install"].format(patches=", ".join(lts.patches)))
    if absent:
        out.append(t["not_on_pypi"].format(patches=", ".join(absent)))
    return out


def verdict_html(verdict: ReleaseVerdict, p: Pins, lang: str) -> list[str]:
    """The one answer to "how do I install it": what the plain PyPI command installs where, which Pythons. The command
    itself is the picker's first choice, right below (verdict_command)."""
    t = UI[lang]
    command = verdict.command
    if command is None:
        return [f'<p class="install-answer">{esc(t["no_verdict"])}</p>']
    builds = verdict.builds
    main = command.platform
    others = [s for s in verdict.systems if s != main]
    if all(builds.get(s) is None for s in others):
        other_words = t["others_cpu"]
    else:
        other_words = t["sep"].join(
            t["other_item"].format(system=SYSTEM_NAMES[s][lang], build=build_words(builds.get(s), lang)) for s in others
        )
    usable = command.pythons
    narrower = ""
    if command.torch_only:
        lacking = [f"{lib} {version}" for lib, version in command.lacking]
        narrower = t["verdict_narrower"].format(python=python_summary(command.torch_only), libs=t["sep"].join(lacking))
    main_words = {"main": SYSTEM_NAMES[main][lang], "build": build_words(builds.get(main), lang)}
    builds_sentence = (
        t["verdict_builds"].format(others=other_words, **main_words)
        if others
        else t["verdict_build_only"].format(**main_words)
    )
    return [
        '<div class="install-answer">',
        f"<p><strong>{esc(t['verdict'].format(patch=p.patch))}</strong> {esc(builds_sentence)} "
        f"{esc(t['verdict_python'].format(system=SYSTEM_NAMES[main][lang], python=python_summary(usable)))}{esc(narrower)}</p>",
        "</div>",
    ]


def verdict_command(verdict: ReleaseVerdict, text: str) -> list[str]:
    """The plain command's code block, marked as the verdict's (its Pythons and platform as data, for the checks)."""
    command = verdict.command
    block = [text_code_block(text)]
    if command is None or command.text != text:
        return block
    attributes = _verdict_attrs(verdict, text, command.platform, command.pythons)
    return [f'<div class="install-verdict" id="install-verdict" {attributes}>', *block, "</div>"]


def _verdict_attrs(verdict: ReleaseVerdict, text: str, main: str, usable: tuple[str, ...]) -> str:
    """What the install-resolver check resolves for the verdict's command: its Python versions on the main platform
    with the OS their wheels need (the platform's own line of the same command says the same)."""
    build = verdict.machine.pypi.get(main) if verdict.machine else None
    own = next((c for c in build.commands if c.text == text), None) if build else None
    pythons = tuple(p for p in own.pythons if p.version in usable) if own else tuple(PythonOn(v, None) for v in usable)
    return resolver_attrs(text, main, pythons)


def _data(values) -> str:
    return esc(" ".join(values))


def install_section(release: Release, verdicts: Verdicts, lang: str) -> str:
    """The "Install" section (its Markdown heading, then HTML only): the verdict, then the picker. Without script every
    command is listed under its label (print, search, no-JS readers); views' install.js turns the list into the
    OS × package manager × compute platform picker and remembers the choice."""
    t = UI[lang]
    lines = ["", f"## {esc(t['install'])} {{ #install }}", ""]
    if version_key(release.version) < (1, 0):
        return "\n".join(
            lines + [f'<p class="install-note">{esc(t["no_pip"].format(version=release.version))}</p>', ""]
        )
    verdict = verdicts[release.version]
    p = verdict.pins
    if p is None:
        return ""
    lines += verdict_html(verdict, p, lang) + [""]
    lines += [f'<p class="install-note">{esc(note)}</p>' for note in _notes(release, p, lang)] + [""]
    lines += picker(release, verdict, p, lang)
    checked = "—" if verdicts.checked is None else verdicts.checked
    lines += [f'<p class="install-source">{esc(t["source"].format(checked=checked))}</p>', ""]
    return "\n".join(lines)


def picker(release: Release, verdict: ReleaseVerdict, p: Pins, lang: str) -> list[str]:
    t = UI[lang]
    options: tuple[Option, ...] = verdict.options
    # Both managers always: choosing conda on a release without it says why (the channel stopped after 2.5).
    managers = ["pip", "conda"]
    # Every compute platform any command has, in the commands' order, "PyPI default" first even where PyPI has none.
    computes: dict[str, bool] = {"default": False}
    for option in options:
        computes.setdefault(option.compute, option.experimental)
    systems = list(PLATFORMS)
    name = f"install-{release.version.replace('.', '-')}"
    # HTML only, commands included (text_code_block; Material gives them a copy button): the page puts it in after
    # Markdown (scripts/views/release/page.py), which has nothing to parse here.
    out = [f'<div class="install-picker" id="install-picker" data-release="{esc(release.version)}">']
    # The form is hidden until install.js runs: without script the list below is the whole answer.
    out.append('<form class="install-choices" hidden aria-controls="install-options">')
    for group, legend, values in (
        ("os", t["picker_legend_os"], [(s, SYSTEM_NAMES[s][lang]) for s in systems]),
        ("pm", t["picker_legend_pm"], [(m, m) for m in managers]),
        ("compute", t["picker_legend_compute"], [(c, compute_label(c, lang, e)) for c, e in computes.items()]),
    ):
        out.append(f'<fieldset class="install-group" data-group="{group}"><legend>{esc(legend)}</legend>')
        for value, label in values:
            ident = f"{name}-{group}-{value}".replace(".", "-")
            out.append(
                f'<label for="{esc(ident)}"><input type="radio" id="{esc(ident)}" name="{group}" value="{esc(value)}"> {esc(label)}</label>'
            )
        out.append("</fieldset>")
    out.append("</form>")
    out.append('<div class="install-options" id="install-options" aria-live="polite">')
    for option in options:
        label = f"{option.manager} · {compute_label(option.compute, lang, option.experimental)}"
        where = t["systems"].format(systems=t["sep"].join(SYSTEM_NAMES[s][lang] for s in option.systems))
        out.append(
            f'<div class="install-option" data-pm="{esc(option.manager)}" data-compute="{esc(option.compute)}" data-systems="{_data(option.systems)}">'
        )
        out.append(
            f'<p class="install-label"><strong>{esc(label)}</strong> <span class="install-where">{esc(where)}</span></p>'
        )
        if option.manager == "pip" and option.compute == "default":
            out += verdict_command(verdict, option.command)
            main = verdict.command.text if verdict.command else ""
            pypi = verdict.machine.pypi if verdict.machine else {}
            builds = [(pypi[s], build_words(pypi[s].cuda, lang)) for s in option.systems if s in pypi]
            out += platform_lines(builds, option.command, main, lang)
            out.append("")
        else:
            out.append(text_code_block(option.command))
        out.append("</div>")
        out.append("")
    for system, manager, compute, sentence in reasons(release, verdict, p, lang):
        out.append(
            f'<p class="install-reason" hidden data-system="{esc(system)}" data-pm="{esc(manager)}" data-compute="{esc(compute)}">{esc(sentence)}</p>'
        )
    out += ["</div>", "</div>", ""]
    return out
