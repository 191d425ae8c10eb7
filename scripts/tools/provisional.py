"""A provisional release from registry facts alone: what PyPI says about one minor release (`registry_facts`),
the page pair written from it (`provisional_pages`), and where a provisional page and the evidence disagree
(`provisional_problems`). No feature, label or change is written: the catalog refuses them on such a page."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from scripts.catalog.compat import CUDA_VERSIONS, PYTHON_VERSIONS, python_key
from scripts.catalog.model import LANGUAGES, PROVISIONAL_SOURCE_PREFIX
from scripts.registry.wheels import MAIN_PLATFORM, PLATFORMS, version_key
from scripts.verdicts.rules import accepting_libraries  # the one rule for "this library release accepts that torch"
from scripts.views.words import python_summary as summary  # the one rule for "this library release accepts that torch"

LIBRARIES = ("torchvision", "torchaudio")
PLATFORM_NAMES = {
    "linux-x86_64": "Linux x86_64",
    "linux-aarch64": "Linux aarch64",
    "macos-arm64": "macOS arm64",
    "macos-x86_64": "macOS x86_64",
    "windows": "Windows",
}


@dataclass
class RegistryFacts:
    """What PyPI says about one minor release (from the evidence file): everything a provisional page states."""

    version: str
    checked: str  # the day the evidence was fetched
    patches: list[str]  # oldest first
    uploaded: str  # first upload day of any of its files, YYYY-MM-DD
    python: dict[str, tuple[str, ...]]  # patch -> CPython versions of its Linux x86_64 wheels
    other_platforms: dict[str, dict[str, tuple[str, ...]]]  # patch -> {platform: versions} where they differ
    cuda: dict[str, str | None]  # patch -> CUDA of its Linux x86_64 wheel (None: CPU build or not recorded)
    libraries: dict[str, dict[str, list[str]]] = field(
        default_factory=dict
    )  # name -> patch -> accepting releases, newest first
    requires: dict[str, dict[str, list[str]]] = field(
        default_factory=dict
    )  # name -> library release -> its Requires-Dist on torch


class RegistryError(ValueError):
    """The evidence cannot support a provisional page (no such release, a value the catalog does not know)."""


def _pythons(values) -> tuple[str, ...]:
    return tuple(sorted((v for v in values if v not in ("py2", "py3")), key=python_key))


def registry_facts(version: str, evidence: dict) -> RegistryFacts:
    """The registry facts of minor release `version` (e.g. "2.15") from the evidence file's content."""
    torch = evidence.get("torch", {})
    patches = sorted(
        (p for p, record in torch.items() if p.startswith(version + ".") and record.get("files")), key=version_key
    )
    if not patches:
        raise RegistryError(
            f"the evidence (checked {evidence.get('checked')}) lists no torch {version}.x wheels on PyPI: refresh it first (make check-upstream)"
        )
    uploads = sorted(torch[p]["uploaded"] for p in patches if torch[p].get("uploaded"))
    if not uploads:
        raise RegistryError(f"the evidence records no upload day for torch {version}.x")
    facts = RegistryFacts(version, evidence.get("checked", ""), patches, uploads[0], {}, {}, {})
    for patch in patches:
        wheels = {
            platform: _pythons(values)
            for platform, values in torch[patch].get("wheels", {}).items()
            if platform in PLATFORMS
        }
        facts.python[patch] = wheels.get(MAIN_PLATFORM, ())
        facts.other_platforms[patch] = {
            p: v for p, v in wheels.items() if p != MAIN_PLATFORM and v and v != facts.python[patch]
        }
        facts.cuda[patch] = torch[patch].get("cuda", {}).get(MAIN_PLATFORM)
    for name in LIBRARIES:
        facts.libraries[name] = {
            patch: accepting_libraries(evidence, name, patch) for patch in patches
        }  # newest line only
        accepted = {v for versions in facts.libraries[name].values() for v in versions}
        facts.requires[name] = {v: list(evidence[name][v].get("requires", [])) for v in accepted}
    unknown = sorted(
        {v for vs in facts.python.values() for v in vs if v not in PYTHON_VERSIONS}
        | {c for c in facts.cuda.values() if c and c not in CUDA_VERSIONS}
    )
    if unknown:
        raise RegistryError(
            f"PyPI's torch {version} wheels name versions the catalog does not know yet: {', '.join(unknown)} (add them to scripts/catalog/compat.py)"
        )
    return facts


def _grouped(values: Mapping[str, object]) -> list[tuple[list[str], object]]:
    """Patches that share a value, in patch order: [(patches, value)]."""
    groups: dict = {}
    for patch, value in values.items():
        groups.setdefault(repr(value), ([], value))[0].append(patch)
    return list(groups.values())


def _quoted(values) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


def _yaml_text(text: str) -> str:
    """A one-line YAML string (JSON is YAML): quotes and backslashes escaped."""
    return json.dumps(text, ensure_ascii=False)


def python_summary(versions) -> str:
    return summary(list(versions))


def _library_note(facts: RegistryFacts, name: str, lang: str) -> str | None:
    accepted = sorted({v for vs in facts.libraries[name].values() for v in vs}, key=version_key)
    if not accepted:
        return None
    parts = [
        f"{v}（{'、'.join(facts.requires[name][v])}）"
        if lang == "zh"
        else f"{v} ({', '.join(facts.requires[name][v])})"
        for v in accepted
    ]
    newest = accepted[-1]
    patches = ", ".join(facts.patches)
    if lang == "zh":
        return f"PyPI 上 Requires-Dist 接受 torch {patches} 的 {name} 版本：{'；'.join(parts)}。pip 会选其中最新的 {newest}。"
    return f"The {name} releases on PyPI whose Requires-Dist accepts torch {patches}: {'; '.join(parts)}. pip picks the newest, {newest}."


def _platform_note(facts: RegistryFacts, lang: str) -> str | None:
    lines = []
    for patch, platforms in facts.other_platforms.items():
        for platform, versions in platforms.items():
            lines.append(
                f"{patch} {PLATFORM_NAMES[platform]}：{python_summary(versions)}"
                if lang == "zh"
                else f"{patch} {PLATFORM_NAMES[platform]}: {python_summary(versions)}"
            )
    if not lines:
        return None
    if lang == "zh":
        return f"这里是 PyPI 上 Linux x86_64 wheel 的 Python 版本；其他平台不同：{'；'.join(lines)}（{facts.checked} 核对 PyPI）。"
    return f"These are the Python versions of PyPI's Linux x86_64 wheels; other platforms differ: {'; '.join(lines)} (PyPI checked {facts.checked})."


def _notes(facts: RegistryFacts, lang: str) -> dict[str, str]:
    notes = {}
    platform = _platform_note(facts, lang)
    if platform:
        notes["pypi-platforms"] = platform
    for name in LIBRARIES:
        text = _library_note(facts, name, lang)
        if text:
            notes[f"pypi-{name}-requires"] = text
    return notes


def _compat_yaml(facts: RegistryFacts) -> list[str]:
    """The `compat:` block: every claim from PyPI, official, scoped to patches where they differ."""
    notes = _notes(facts, "zh")
    out = ["compat:"]

    def scope(patches: list[str]) -> str:
        return "" if patches == facts.patches else f"torch: {_quoted(patches)}, "

    pythons = [(patches, versions) for patches, versions in _grouped(facts.python) if versions]
    if pythons:
        out.append("  python:")
        for patches, versions in pythons:
            note = ", note: pypi-platforms" if "pypi-platforms" in notes else ""
            out.append(
                f"    - {{{scope(patches)}supported: {_quoted(versions)}, sources: [PyPI], evidence: official{note}}}"
            )
    for name in LIBRARIES:
        newest = {patch: versions[0] for patch, versions in facts.libraries[name].items() if versions}
        if newest:
            out.append(f"  {name}:")
            for patches, version in _grouped(newest):
                out.append(
                    f'    - {{torch: {_quoted(patches)}, version: "{version}", sources: [PyPI], evidence: official, note: pypi-{name}-requires}}'
                )
    cudas = [(patches, cuda) for patches, cuda in _grouped(facts.cuda) if cuda]
    if cudas:
        out.append("  pypi_cuda:")
        out += [
            f'    - {{{scope(patches)}version: "{cuda}", sources: [PyPI], evidence: official}}'
            for patches, cuda in cudas
        ]
    if notes:
        out.append("  notes:")
        out += [f"    - {{id: {nid}, text: {_yaml_text(text)}}}" for nid, text in notes.items()]
    return out if len(out) > 1 else []


WORDS = {
    "zh": {
        "title": "PyTorch {version}（临时条目：官方发布文章尚未收录）",
        "summary": "PyPI 上已有 torch {first}（{uploaded} 首次上传）。本站还没有它的官方发布文章，这里只列出 PyPI 上查得到的事实，不介绍新特性。",
        "date_note": "{uploaded} 是 torch {first} 在 PyPI 上首次上传文件的日期，不是官方宣布的日期：官方发布文章尚未收录。",
        "source_note": "官方发布文章尚未收录，所以这里的来源是 PyPI 上这个版本的页面；页面上的事实都来自 PyPI（{checked} 核对）。",
        "heading": "官方发布文章尚未收录",
        "intro": "PyTorch {version} 已经发布在 PyPI 上，但本站还没有它的官方发布文章，所以本页不介绍新特性、成熟度标签或不兼容变更，也不做推测。页首的速览和下面的安装命令都由 PyPI 上的文件决定；接着是与上一个版本相比 PyPI 上有哪些变化，以及官方来源事先宣布、尚待发布文章确认的变化，每条都附来源。",
        "later": "官方发布文章收录后，本页会换成完整的版本介绍。",
    },
    "en": {
        "title": "PyTorch {version} (provisional: official post not available here yet)",
        "summary": "PyPI has listed torch {first} since {uploaded}. Its official release post is not available here yet, so this page gives only what PyPI says, no features.",
        "date_note": "{uploaded} is the day torch {first} was first uploaded to PyPI, not an announcement date: the official release post is not available here yet.",
        "source_note": "The official release post is not available here yet, so the source is this version's PyPI page; every fact on this page comes from PyPI (checked {checked}).",
        "heading": "Official post not available here yet",
        "intro": "PyTorch {version} is on PyPI, but its official release post is not available here yet: this page has no features, maturity labels or breaking changes, and guesses none. The quick facts at the top and the install commands below are decided by PyPI's files; after this come what changed on PyPI since the release before, and the changes official sources announced ahead of the post, each with its source.",
        "later": "When the official post is available, this page becomes a full release page.",
    },
}


def _body(facts: RegistryFacts, lang: str) -> list[str]:
    """The page's own words: why it has no features. Every fact it shows is computed at build time from the
    evidence (quick facts, install, the registry's changes), so none is written here to go stale."""
    w = WORDS[lang]
    return [
        "",
        f"## {w['heading']} {{ #provisional }}",
        "",
        w["intro"].format(version=facts.version),
        "",
        w["later"],
        "",
    ]


def provisional_pages(facts: RegistryFacts) -> dict[str, str]:
    """The text of both pages of a provisional release."""
    values = {"version": facts.version, "first": facts.patches[0], "uploaded": facts.uploaded, "checked": facts.checked}
    words = {
        lang: {key: WORDS[lang][key].format(**values) for key in ("title", "summary", "date_note", "source_note")}
        for lang in LANGUAGES
    }
    zh = [
        "---",
        f"# 临时条目：只写 PyPI 上的事实（由 python -m scripts.new_release {facts.version} --provisional 从 docs/.pypi-evidence.json 生成）。",
        f"# 官方发布文章收录后运行 python -m scripts.new_release {facts.version}，把本页变成完整页面。",
        f'version: "{facts.version}"',
        "provisional: true",
        f"date: {facts.uploaded}",
        f"date_note: {_yaml_text(words['zh']['date_note'])}",
        f"source: {PROVISIONAL_SOURCE_PREFIX}{facts.patches[0]}/",
        f"source_note: {_yaml_text(words['zh']['source_note'])}",
        f"title: {_yaml_text(words['zh']['title'])}",
        f"summary: {_yaml_text(words['zh']['summary'])}",
        f"patches: {_quoted(facts.patches)}",
        *_compat_yaml(facts),
        "---",
    ]
    en = [
        "---",
        f"# Words only: every fact is written once, in {facts.version}.md (a provisional page: PyPI's facts only).",
        f"title: {_yaml_text(words['en']['title'])}",
        f"summary: {_yaml_text(words['en']['summary'])}",
        f"date_note: {_yaml_text(words['en']['date_note'])}",
        f"source_note: {_yaml_text(words['en']['source_note'])}",
    ]
    notes = _notes(facts, "en")
    if notes and _compat_yaml(facts):
        en.append("compat_notes:")
        en += [f"  {nid}: {_yaml_text(text)}" for nid, text in notes.items()]
    en.append("---")
    return {"zh": "\n".join(zh + _body(facts, "zh")), "en": "\n".join(en + _body(facts, "en"))}


def _documented_pairing(release, evidence: dict, name: str, patch: str, paired: str | None, accepted: list) -> bool:
    """A pairing PyPI's Requires-Dist cannot make but an official document does: no release declares it accepts the
    patch (`accepted` is empty), and the paired release declares no torch requirement at all, is not yanked, and
    the claim names a document beside or instead of PyPI (torchaudio 2.11.0: its docs say it works with 2.11 and
    every later PyTorch)."""
    record = evidence.get(name, {}).get(paired or "")
    if accepted or not record or record.get("requires") or record.get("yanked"):
        return False
    claims = [c for c in release.compat.primary(name) if patch in c.torch or not c.torch] if release.compat else []
    return any(set(c.sources) - {"PyPI"} for c in claims)


def provisional_problems(release, evidence: dict) -> list[str]:
    """Where a provisional release's facts and the registry evidence disagree ("path:line: message" strings):
    date, source, patches, Python set, CUDA of the PyPI wheel, library pairings. Empty when they agree."""
    page = release.facts
    try:
        facts = registry_facts(release.version, evidence)
    except RegistryError as exc:
        return [f"{page.path}:{page.lines.get('version', 1)}: {exc}"]
    problems = []

    def problem(field_name: str, message: str) -> None:
        problems.append(f"{page.path}:{page.lines.get(field_name, 1)}: {message}")

    if release.date_iso != facts.uploaded:
        problem("date", f"date {release.date_iso} is not PyPI's first upload day {facts.uploaded}")
    if release.source != f"{PROVISIONAL_SOURCE_PREFIX}{facts.patches[0]}/":
        problem("source", f"source {release.source} is not {PROVISIONAL_SOURCE_PREFIX}{facts.patches[0]}/")
    if list(release.patches) != facts.patches:
        problem("patches", f"patches {list(release.patches)} are not PyPI's {facts.patches}")
        return problems
    compat = release.compat
    for patch in facts.patches:
        stated = tuple(sorted(compat.versions("python", patch=patch), key=python_key)) if compat else ()
        if stated != facts.python[patch]:
            problem(
                "compat",
                f"torch {patch}: Python {', '.join(stated) or 'none'} here, PyPI's Linux x86_64 wheels: {', '.join(facts.python[patch]) or 'none'}",
            )
        cuda = compat.versions("pypi_cuda", patch=patch) if compat else []
        if (cuda[0] if cuda else None) != facts.cuda[patch]:
            problem(
                "compat",
                f"torch {patch}: pypi_cuda {cuda[0] if cuda else 'none'} here, PyPI's Linux x86_64 wheel: {facts.cuda[patch] or 'none'}",
            )
        for name in LIBRARIES:
            accepted = facts.libraries[name][patch]
            paired = compat.library_version(name, patch) if compat else None
            if paired != (accepted[0] if accepted else None) and not _documented_pairing(
                release, evidence, name, patch, paired, accepted
            ):
                problem(
                    "compat",
                    f"torch {patch}: {name} {paired or 'none'} here; the newest release whose Requires-Dist accepts it is {accepted[0] if accepted else 'none'}",
                )
            note = compat.notes.get(f"pypi-{name}-requires", "") if compat else ""
            for version in accepted:
                if version not in note:
                    problem(
                        "compat",
                        f"torch {patch}: {name} {version} accepts it too: name it in the note pypi-{name}-requires",
                    )
    return problems
