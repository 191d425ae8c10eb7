"""Views of the compatibility facts: the install box of a release page, the compatibility matrix and the
end-of-support timeline. Pure functions of the catalog (and the PyPI evidence file); every text escaped.

Install commands follow the forms of the official "Previous PyTorch Versions" page, which changed over time:
- from 2.0: `pip install torch==X torchvision==Y torchaudio==Z --index-url https://download.pytorch.org/whl/<variant>`
  (2.0 itself wrote local version tags, `torch==2.0.1+cu118`);
- 1.11 – 1.13: local tags with `--extra-index-url https://download.pytorch.org/whl/<variant>`;
- 1.2 – 1.10: local tags with `-f https://download.pytorch.org/whl/torch_stable.html`, except the build PyPI
  serves by default (a claim `pypi_cuda` says which CUDA that is), installed plainly;
- 1.0 – 1.1: the page tells you to download the wheel from a per-variant `torch_stable.html` page;
- before 1.0: no pip command; the page lists wheel URLs and conda commands.
Conda commands are shown for 1.5.1 – 2.5 only: the PyTorch channel published nothing after 2.5 (2.6 post), and
a 2023 report in PyTorch's tracker found its packages older than 1.5.1 gone.
"""

from __future__ import annotations

import json

from scripts.compat import SOURCES, Claim
from scripts.releases import EVIDENCE, Catalog, Release, version_key
from scripts.render import esc, evidence_mark

UI = {
    "zh": {
        "install": "安装",
        "install_intro": "PyTorch {patch} 的安装命令，torchvision 与 torchaudio 已固定到与之配套的版本（对应关系已与 PyPI 上的 wheel 元数据核对）。命令格式取自官方“Previous PyTorch Versions”页面。",
        "python_line": "官方二进制包支持的 Python：{python}",
        "no_python": "资料中没有这一版支持哪些 Python 的记载。",
        "default": "PyPI 默认",
        "default_cuda": "PyPI 默认（CUDA {cuda}）",
        "cpu": "仅 CPU",
        "cuda": "CUDA {v}",
        "rocm": "ROCm {v}（Linux）",
        "experimental": "（实验性）",
        "conda": "Conda",
        "conda_note": "Conda：PyTorch 官方频道在 2.5 之后不再发布新包（2.6 官方文章）；社区维护的 conda-forge 仍有构建。",
        "conda_gone": "Conda：官方页面当年给出的 conda 命令已经不能用了：2023 年 PyTorch 问题跟踪器中的报告（#104754）指出，pytorch 频道里早于 1.5.1 的包已被删除。",
        "download_wheel": "这一版的 CUDA 构建没有可直接复制的 pip 命令：官方页面让你从 {url} 下载对应的 wheel，再用 pip install 安装下载的文件。",
        "no_pip": "1.0 之前的版本没有 pip 安装命令：官方页面列出了各个 wheel 的下载地址（download.pytorch.org/whl/…），也给出过 conda 命令（如 conda install pytorch=0.4.1 cuda90 -c pytorch），而 pytorch 频道中早于 1.5.1 的包据报告已被删除（#104754）。可以从源码构建：git checkout v{version}.x 后按当时的 README 操作。",
        "other_patches": "这一小版本的其他补丁版本：{patches}。",
        "not_on_pypi": "{patches} 不在 PyPI 上，只能从 download.pytorch.org 安装。",
        "source": "依据：官方“Previous PyTorch Versions”页面的命令格式，以及本页的兼容性数据。",
        "no_pair": "资料中没有与 {patch} 配套的 {lib} 版本，命令中未固定它。",
    },
    "en": {
        "install": "Install",
        "install_intro": "Commands to install PyTorch {patch}, with torchvision and torchaudio pinned to the matching releases (the pairings are checked against the wheel metadata on PyPI). The command forms are those of the official Previous PyTorch Versions page.",
        "python_line": "Python versions of the official binaries: {python}",
        "no_python": "Our sources do not say which Python versions this release supports.",
        "default": "PyPI default",
        "default_cuda": "PyPI default (CUDA {cuda})",
        "cpu": "CPU only",
        "cuda": "CUDA {v}",
        "rocm": "ROCm {v} (Linux)",
        "experimental": " (experimental)",
        "conda": "Conda",
        "conda_note": "Conda: PyTorch's own channel published nothing after 2.5 (2.6 post); community builds remain on conda-forge.",
        "conda_gone": "Conda: the conda commands the official page gave at the time no longer work: a 2023 report in PyTorch's issue tracker (#104754) found the pytorch channel's packages older than 1.5.1 deleted.",
        "download_wheel": "This release's CUDA builds have no pip command to copy: the official page says to download the matching wheel from {url} and pip install the downloaded file.",
        "no_pip": "Releases before 1.0 have no pip command: the official page lists the wheel URLs (download.pytorch.org/whl/…) and used to give conda commands (such as conda install pytorch=0.4.1 cuda90 -c pytorch), and the pytorch channel's packages older than 1.5.1 were reported deleted (#104754). Building from source works: git checkout v{version}.x and follow that README.",
        "other_patches": "Other patch releases of this minor: {patches}.",
        "not_on_pypi": "{patches} is not on PyPI: install it from download.pytorch.org.",
        "source": "Based on the command forms of the official Previous PyTorch Versions page and this page's compatibility data.",
        "no_pair": "Our sources give no {lib} release for {patch}, so the command does not pin it.",
    },
}

INDEX = "https://download.pytorch.org/whl"


def cuda_tag(version: str) -> str:
    """"12.6" -> "cu126", "9.2" -> "cu92"."""
    return "cu" + version.replace(".", "")


def rocm_tag(version: str) -> str:
    return "rocm" + version


def _pins(release: Release, patch: str, channel: str = "pip") -> tuple[str | None, str | None]:
    compat = release.compat
    if compat is None:
        return None, None
    return compat.library_version("torchvision", patch, channel), compat.library_version("torchaudio", patch, channel)


def _packages(patch: str, vision: str | None, audio: str | None, local: str | None = None, conda: bool = False) -> str:
    torch_name = "pytorch" if conda else "torch"
    tag = f"+{local}" if local else ""
    parts = [f"{torch_name}=={patch}{tag}"]
    if vision:
        parts.append(f"torchvision=={vision}{tag}")
    if audio:
        parts.append(f"torchaudio=={audio}")  # torchaudio wheels never carried the local tag in these commands
    return " ".join(parts)


def pip_commands(release: Release, patch: str) -> list[tuple[str, str, str]]:
    """(variant key, variant value, command) for one patch release, in the official form of its era."""
    v = version_key(release.version)
    if v < (1, 2):
        return []
    compat = release.compat
    vision, audio = _pins(release, patch)
    cudas = compat.versions("cuda", patch=patch, channel="pip") if compat else []
    experimental = set()
    if compat:
        for claim in compat.primary("cuda"):
            experimental.update(claim.experimental)
    rocms = compat.versions("rocm", patch=patch, channel="pip") if compat else []
    default_cuda = compat.versions("pypi_cuda", patch=patch) if compat else []
    default_cuda = default_cuda[0] if default_cuda else None
    # (where the variants come from, whether wheels carry the local tag) by era of the official page
    if v >= (2, 0):
        where, local = (lambda tag: f"--index-url {INDEX}/{tag}"), v < (2, 1)
    elif v >= (1, 11):
        where, local = (lambda tag: f"--extra-index-url {INDEX}/{tag}"), True
    else:
        where, local = (lambda tag: f"-f {INDEX}/torch_stable.html"), True

    def command(tag: str) -> str:
        return f"pip install {_packages(patch, vision, audio, tag if local else None)} {where(tag)}"

    out: list[tuple[str, str, str]] = [("default", default_cuda or "", f"pip install {_packages(patch, vision, audio)}"), ("cpu", "", command("cpu"))]
    for cuda in cudas:
        if cuda == default_cuda and v < (1, 11):
            continue  # before 1.11 that build is only the plain PyPI one
        out.append(("cuda", cuda, command(cuda_tag(cuda))))
    out += [("rocm", rocm, command(rocm_tag(rocm))) for rocm in rocms]
    for index, (kind, value, command) in enumerate(out):
        if kind == "cuda" and value in experimental:
            out[index] = ("cuda-experimental", value, command)
    return out


def conda_commands(release: Release, patch: str) -> list[tuple[str, str, str]]:
    """Conda commands where PyTorch's channel still has the packages (1.5.1 – 2.5)."""
    v = version_key(patch)
    if v < (1, 5, 1) or version_key(release.version) > (2, 5) or release.compat is None:
        return []
    vision, audio = _pins(release, patch, "conda")
    packages = _packages(patch, vision, audio, conda=True)
    out = [("cpu", "", f"conda install {packages} cpuonly -c pytorch")]
    for cuda in release.compat.versions("cuda", patch=patch, channel="conda", experimental=False):
        if version_key(release.version) >= (1, 13):
            out.append(("cuda", cuda, f"conda install {packages} pytorch-cuda={cuda} -c pytorch -c nvidia"))
        else:
            forge = any(c.channel == "conda" and cuda in c.values for c in release.compat.primary("cuda"))
            out.append(("cuda", cuda, f"conda install {packages} cudatoolkit={cuda} -c pytorch" + (" -c conda-forge" if forge else "")))
    return out


def _label(kind: str, value: str, lang: str) -> str:
    t = UI[lang]
    if kind == "default":
        return t["default_cuda"].format(cuda=value) if value else t["default"]
    if kind == "cpu":
        return t["cpu"]
    if kind.startswith("cuda"):
        return t["cuda"].format(v=value) + (t["experimental"] if kind == "cuda-experimental" else "")
    return t["rocm"].format(v=value)


def python_summary(versions: list[str]) -> str:
    """"3.9–3.13, 3.13t": contiguous 3.x versions as a range; free-threaded builds listed after."""
    regular = [v for v in versions if not v.endswith("t")]
    threaded = [v for v in versions if v.endswith("t")]
    parts: list[str] = []
    run: list[str] = []

    def flush():
        if run:
            parts.append(run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}")

    for v in sorted(regular, key=lambda x: tuple(int(p) for p in x.split("."))):
        if run and (v.split(".")[0] != run[-1].split(".")[0] or int(v.split(".")[1]) != int(run[-1].split(".")[1]) + 1):
            flush()
            run = []
        run.append(v)
    flush()
    return ", ".join(parts + threaded)


def install_box(release: Release, lang: str) -> str:
    """The "Install" section of a release page (Markdown: content tabs of code blocks with copy buttons)."""
    t = UI[lang]
    patches = list(release.patches)
    lines = ["", f"## {esc(t['install'])} {{ #install }}", ""]
    if version_key(release.version) < (1, 0):
        return "\n".join(lines + [f'<p class="install-note">{esc(t["no_pip"].format(version=release.version))}</p>', ""])
    if not patches:
        return ""
    absent = release.compat.not_on_pypi if release.compat else ()
    # The newest patch pip can install: one PyPI never had (1.8.2 LTS) would fail as a plain `pip install`.
    patch = ([p for p in patches if p not in absent] or patches)[-1]
    lines += [f'<p class="install-intro">{esc(t["install_intro"].format(patch=patch))}</p>', ""]
    python = release.compat.versions("python", patch=patch) if release.compat else []
    lines += [f'<p class="install-python">{esc(t["python_line"].format(python=python_summary(python))) if python else esc(t["no_python"])}</p>', ""]
    vision, audio = _pins(release, patch)
    if release.compat and version_key(release.version) >= (1, 0):
        if vision is None and version_key(release.version) >= (1, 1):
            lines += [f'<p class="install-note">{esc(t["no_pair"].format(lib="torchvision", patch=patch))}</p>', ""]
    commands = pip_commands(release, patch)
    if version_key(release.version) < (1, 2):
        vision, audio = _pins(release, patch)
        commands = [("default", "", f"pip install {_packages(patch, vision, audio)}")]
    for kind, value, command in commands:
        # `text`, not `shell`: a one-line command gains nothing from highlighting, and pygments would cost a
        # tenth of the build for these hundreds of blocks.
        lines += [f'=== "pip · {esc(_label(kind, value, lang))}"', "", "    ```text", f"    {command}", "    ```", ""]
    for kind, value, command in conda_commands(release, patch):
        lines += [f'=== "conda · {esc(_label(kind, value, lang))}"', "", "    ```text", f"    {command}", "    ```", ""]
    if version_key(release.version) < (1, 2):
        lines += [f'<p class="install-note">{esc(t["download_wheel"].format(url=INDEX + "/<cuda>/torch_stable.html"))}</p>', ""]
    if version_key(release.version) > (2, 5):
        lines += [f'<p class="install-note">{esc(t["conda_note"])}</p>', ""]
    elif version_key(patch) < (1, 5, 1):
        lines += [f'<p class="install-note">{esc(t["conda_gone"])}</p>', ""]
    if len(patches) > 1:
        lines += [f'<p class="install-note">{esc(t["other_patches"].format(patches=", ".join(p for p in patches if p != patch)))}</p>', ""]
    if absent:
        lines += [f'<p class="install-note">{esc(t["not_on_pypi"].format(patches=", ".join(absent)))}</p>', ""]
    lines += [f'<p class="install-source">{esc(t["source"])}</p>', ""]
    return "\n".join(lines)


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
        "legend_intro": "The letters after each value name its sources; ◆ marks a third-party copy of official text or a derived value (official values carry no mark); ⚠ marks a disagreement between sources, both shown; a \"note\" opens on a click.",
        "pending": "PyPI already lists {version} (first upload {uploaded}, checked {checked}), but its official release post is not available here yet, so it has no page; PyPI shows Python {python}.",
        "conflict": "another source",
        "note": "note",
        "checked": "Checked against PyPI: {checked}",
    }
)

COLUMNS = ("python", "cuda", "rocm", "cxx", "torchvision", "torchaudio")


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
    compat = release.compat
    claims = compat.claims(field) if compat else ()
    if not claims:
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


def _filter_values(release: Release) -> dict[str, list[str]]:
    compat = release.compat
    if compat is None:
        return {"python": [], "cuda": [], "torchvision": []}
    values = {"python": set(), "cuda": set(), "torchvision": set()}
    for claim in compat.primary("python"):
        values["python"].update(claim.values + claim.experimental)
    for claim in compat.primary("cuda"):
        values["cuda"].update(claim.values + claim.experimental)
    for claim in compat.primary("torchvision"):
        values["torchvision"].update(claim.values)
    return {k: sorted(v, key=_sort_key) for k, v in values.items()}


def _sort_key(version: str) -> tuple:
    return tuple(int(p) for p in version.rstrip("t").split(".")) + ((1,) if version.endswith("t") else (0,))


def compat_matrix(catalog: Catalog, lang: str, href, evidence: dict | None = None) -> str:
    """One row per release, newest first; filters by Python, CUDA and torchvision (views.js), no server."""
    t = UI[lang]
    rows = [(release, _filter_values(release)) for release in catalog.releases]
    options = {key: sorted({v for _, values in rows for v in values[key]}, key=_sort_key, reverse=True) for key in ("python", "cuda", "torchvision")}
    out = ['<form class="compat-filters" id="compat-filters" data-target="compat-table">']
    for key in ("python", "cuda", "torchvision"):
        # A label and its select stay together on a line (a phone wraps the pairs, not a label from its select).
        out.append(f'<span class="filter-pair"><label for="compat-{key}">{esc(t["filter_" + key])}</label>')
        out.append(f'<select id="compat-{key}" name="{key}" data-filter="{key}"><option value="">{esc(t["filter_any"])}</option>')
        out += [f'<option value="{esc(v)}">{esc(v)}</option>' for v in options[key]]
        out.append("</select></span>")
    out.append(f'<button type="reset" class="md-button">{esc(t["filter_reset"])}</button>')
    out.append("</form>")
    out.append(f'<p class="compat-count" id="compat-count" aria-live="polite" data-template="{esc(t["filter_count"])}">{esc(t["filter_count"].format(shown=len(rows), total=len(rows)))}</p>')
    out.append(f'<p class="compat-none" id="compat-none" hidden>{esc(t["filter_none"])}</p>')
    out += ['<div class="compat-scroll">', '<table class="compat-table" id="compat-table">', "<thead><tr>"]
    out.append(f'<th scope="col">{esc(t["col_release"])}</th>')
    out += [f'<th scope="col">{esc(t["col_" + col])}</th>' for col in COLUMNS]
    out.append("</tr></thead><tbody>")
    for release, values in rows:
        page = release.pages[lang]
        data = " ".join(f'data-{key}="{esc(" ".join(v))}"' for key, v in values.items())
        out.append(f'<tr id="{matrix_row_id(release.version)}" data-version="{esc(release.version)}" {data}>')
        out.append(f'<th scope="row" data-label="{esc(t["col_release"])}"><a href="{esc(href(page, "install"))}">{esc(release.version)}</a> <span class="compat-date">{page.date_iso}</span></th>')
        for col in COLUMNS:
            out.append(f'<td data-label="{esc(t["col_" + col])}">{claims_cell(release, col, lang)}</td>')
        out.append("</tr>")
    out += ["</tbody></table>", "</div>"]
    if evidence:
        from scripts.verify_compat import pending_release

        pending = pending_release(catalog, evidence)
        if pending:
            version, uploaded = pending
            python = python_summary(evidence["torch"][version]["python"])
            out.append(f'<p class="compat-pending">{esc(t["pending"].format(version=version, uploaded=uploaded, checked=evidence["checked"], python=python))}</p>')
        out.append(f'<p class="compat-checked">{esc(t["checked"].format(checked=evidence["checked"]))}</p>')
    out += [f'<h2 id="sources">{esc(t["legend_title"])}</h2>', f"<p>{esc(t['legend_intro'])}</p>", '<dl class="compat-legend">']
    for key, source in SOURCES.items():
        link = f' <a href="{esc(source["url"])}">{esc(source["url"].split("://")[-1])}</a>' if source["url"] else ""
        out.append(f"<dt>{esc(key)}</dt><dd>{esc(source[lang])}{link}</dd>")
    out += ["</dl>", ""]
    return "\n".join(out)


# --- the end-of-support timeline ---------------------------------------------------------------------------

# PyTorch's published schedule (RELEASE.md, "Release Cadence"), known here from a third-party copy: a plan,
# shown as a plan, and only for releases that PyPI does not list yet.
RELEASE_PLAN = (("2.15", "2026-10-28"), ("2.16", "2026-12-22"))
RELEASE_PLAN_SOURCE = "R"

UI["zh"].update(
    {
        "eos_python": "Python 版本",
        "eos_cuda": "CUDA 版本",
        "eos_platforms": "平台与发布渠道",
        "eos_cadence": "发布节奏与下一个版本",
        "eos_col_what": "对象",
        "eos_col_first": "首个支持的版本",
        "eos_col_last": "最后支持的版本",
        "eos_col_change": "变化出现在",
        "eos_current": "至今仍支持（{version}）",
        "eos_other_sources": "⚠ {version}（另据：{sources}）",
        "eos_disputed": "标 ⚠ 的是只有另一来源才算入的版本，链接到兼容性矩阵中并列各方说法的那一行。",
        "eos_python_intro": "官方二进制包支持过的每个 Python 版本：从哪个 PyTorch 版本开始支持，最后支持到哪个版本（之后的版本停止支持、不再提供）。数据来自各版本的兼容性信息；实验性构建也算在内。{disputed}",
        "eos_cuda_intro": "官方 pip/conda 二进制包提供过的每个 CUDA 版本：首个和最后一个提供它的 PyTorch 版本，其后不再提供（稳定与实验性构建都算在内）。{disputed}",
        "eos_platform_intro": "资料记载的其他支持终止：",
        "cadence": "本站收录的 {count} 个小版本中，{first} 到 {last} 之间平均每 {days} 天发布一个小版本；最近四个版本的间隔是 {recent} 天。",
        "plan": "计划（不是事实）：RELEASE.md 的发布日程（第三方副本 ◆）把 PyTorch {version} 排在 {date}。",
        "plan_none": "资料中没有比 PyPI 上已有版本更晚的计划日期。",
    }
)
UI["en"].update(
    {
        "eos_python": "Python versions",
        "eos_cuda": "CUDA versions",
        "eos_platforms": "Platforms and channels",
        "eos_cadence": "Release cadence and the next release",
        "eos_col_what": "What",
        "eos_col_first": "First release",
        "eos_col_last": "Last release",
        "eos_col_change": "Changed in",
        "eos_current": "still supported ({version})",
        "eos_other_sources": "⚠ {version} according to {sources}",
        "eos_disputed": "⚠ marks a release that only a disagreeing source counts, linked to its row of the compatibility matrix, where the claims stand side by side.",
        "eos_python_intro": "Every Python version the official binaries supported: the first PyTorch release that supported it and the last one before support was dropped (from each release's compatibility data; experimental builds count). {disputed}",
        "eos_cuda_intro": "Every CUDA version the official pip/conda binaries offered: the first and the last release that shipped it, after which it was dropped (stable and experimental builds count). {disputed}",
        "eos_platform_intro": "Other ends of support our sources record:",
        "cadence": "Across the {count} minor releases covered here, {first} to {last}, a minor release shipped every {days} days on average; the last four came {recent} days apart.",
        "plan": "Plan, not fact: RELEASE.md's release schedule (third-party copy ◆) puts PyTorch {version} on {date}.",
        "plan_none": "Our sources give no planned date later than the releases PyPI already lists.",
    }
)


def support_ranges(catalog: Catalog, field: str) -> list[tuple[str, Release, Release]]:
    """(version, first release, last release) for each Python/CUDA version any release supports."""
    first: dict[str, Release] = {}
    last: dict[str, Release] = {}
    for release in reversed(catalog.releases):  # oldest first
        if release.compat is None:
            continue
        values = set()
        for claim in release.compat.primary(field):
            values.update(claim.values + claim.experimental)
        for value in values:
            first.setdefault(value, release)
            last[value] = release
    return sorted(((v, first[v], last[v]) for v in first), key=lambda item: _sort_key(item[0]), reverse=True)


def _other_sources(item: tuple[Release, tuple[str, ...]], lang: str, href) -> str:
    """"⚠ 2.12 according to …": a release only a disagreeing source counts, linked to its matrix row, where
    the claims stand side by side with their notes."""
    release, sources = item
    names = ("、" if lang == "zh" else ", ").join(SOURCES[s][lang] for s in sources)
    target = href.view("compatibility", matrix_row_id(release.version))
    text = UI[lang]["eos_other_sources"].format(sources=esc(names), version=f'<a href="{esc(target)}">{esc(release.version)}</a>')
    return f'<span class="claim-conflict support-disputed" data-disputed="{esc(release.version)}">{text}</span>'


def disputed_support(catalog: Catalog, field: str) -> dict[str, list[tuple[Release, tuple[str, ...]]]]:
    """Releases where only a disagreeing claim lists a Python/CUDA version: {version: [(release, sources)]},
    oldest first. The support table shows them beside the tables' range instead of silently dropping them."""
    disputed: dict[str, list[tuple[Release, tuple[str, ...]]]] = {}
    for release in reversed(catalog.releases):  # oldest first
        if release.compat is None:
            continue
        shown = {v for claim in release.compat.primary(field) for v in claim.values + claim.experimental}
        others: dict[str, list[str]] = {}
        for _, claim in release.compat.conflicts(field):
            for value in set(claim.values + claim.experimental) - shown:
                others.setdefault(value, [])
                others[value] += [s for s in claim.sources if s not in others[value]]
        for value, sources in others.items():
            disputed.setdefault(value, []).append((release, tuple(sources)))
    return disputed


def support_timeline(catalog: Catalog, lang: str, href, evidence: dict | None = None) -> str:
    t = UI[lang]
    newest = catalog.releases[0]
    from scripts.releases import SUPPORT_ENDS

    def link(release: Release, anchor: str | None = None) -> str:
        return f'<a href="{esc(href(release.pages[lang], anchor))}">{esc(release.version)}</a>'

    out = []
    for field, title, intro in (("python", "eos_python", "eos_python_intro"), ("cuda", "eos_cuda", "eos_cuda_intro")):
        out += [f'<h2 id="{field}">{esc(t[title])}</h2>', f"<p>{esc(t[intro].format(disputed=t['eos_disputed']))}</p>", f'<table class="support-table" id="support-{field}">']
        out.append(f'<thead><tr><th scope="col">{esc(t["eos_col_what"])}</th><th scope="col">{esc(t["eos_col_first"])}</th><th scope="col">{esc(t["eos_col_last"])}</th></tr></thead><tbody>')
        disputed = disputed_support(catalog, field)
        for value, first, last in support_ranges(catalog, field):
            label = f"Python {value}" if field == "python" else f"CUDA {value}"
            ended = last is not newest
            last_cell = link(last, "install") if ended else esc(t["eos_current"].format(version=newest.version))
            earlier = [(r, src) for r, src in disputed.get(value, []) if version_key(r.version) < version_key(first.version)]
            later = [(r, src) for r, src in disputed.get(value, []) if version_key(r.version) > version_key(last.version)]
            first_cell = link(first, "install") + (_other_sources(earlier[0], lang, href) if earlier else "")
            last_cell += _other_sources(later[-1], lang, href) if later else ""
            out.append(
                f'<tr data-{field}="{esc(value)}" data-last="{esc(last.version)}"><th scope="row">{esc(label)}</th>'
                f"<td>{first_cell}</td><td>{last_cell}</td></tr>"
            )
        out.append("</tbody></table>")
    out += [f'<h2 id="platforms">{esc(t["eos_platforms"])}</h2>', f"<p>{esc(t['eos_platform_intro'])}</p>", '<table class="support-table" id="support-platforms">']
    out.append(f'<thead><tr><th scope="col">{esc(t["eos_col_what"])}</th><th scope="col">{esc(t["eos_col_last"])}</th><th scope="col">{esc(t["eos_col_change"])}</th></tr></thead><tbody>')
    by_version = catalog.by_version()
    for release in catalog.releases:
        for change in release.pages[lang].changes:
            if not change.ends:
                continue
            last = by_version[change.last_supported]
            out.append(
                f'<tr data-ends="{esc(change.ends)}" data-last="{esc(last.version)}"><th scope="row">{esc(SUPPORT_ENDS[change.ends][lang])}</th>'
                f'<td>{link(last)}</td><td>{link(release, change.anchor)}{evidence_mark(change.evidence, lang)}</td></tr>'
            )
    out.append("</tbody></table>")
    dated = [r for r in reversed(catalog.releases) if r.facts.date_precision == "day"]
    out += [f'<h2 id="cadence">{esc(t["eos_cadence"])}</h2>']
    if len(dated) > 4:
        days = (dated[-1].date - dated[0].date).days / (len(dated) - 1)
        recent = [(b.date - a.date).days for a, b in zip(dated[-5:], dated[-4:])]
        out.append(
            f'<p class="cadence">{esc(t["cadence"].format(count=len(catalog.releases), first=dated[0].version, last=dated[-1].version, days=round(days), recent=", ".join(str(d) for d in recent)))}</p>'
        )
    released = set()
    if evidence:
        released = {".".join(v.split(".")[:2]) for v, r in evidence.get("torch", {}).items() if r.get("files")}
    released |= {r.version for r in catalog.releases}
    plans = [(version, date) for version, date in RELEASE_PLAN if version not in released]
    if plans:
        for version, date in plans:
            out.append(f'<p class="release-plan" data-version="{esc(version)}">{esc(t["plan"].format(version=version, date=date))}</p>')
    else:
        out.append(f'<p class="release-plan">{esc(t["plan_none"])}</p>')
    out.append("")
    return "\n".join(out)
