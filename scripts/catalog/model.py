"""The release catalog's model: the language-neutral vocabulary (languages, areas, maturity labels, evidence,
change categories, support ends) and the typed records a loaded catalog is made of (Catalog > Release >
ReleasePage > Feature / Change / Lts), with the small helpers every layer uses on versions and page names.

Nothing here reads a file; scripts/catalog/loader.py builds these records from the pages.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from scripts.catalog.compat import Compat
from scripts.catalog.frontmatter import PageDataError
from scripts.catalog.hardware.model import Hardware

DEFAULT_LANGUAGE = "zh"
LANGUAGES = ("zh", "en")
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}
RELEASES_DIR = "releases"

# Labels exactly as official posts print them. "unlabeled" is for posts that give none (common before
# 1.6, and every 2.12 feature); pages show it as "no label" instead of guessing one.
MATURITY_LABELS: dict[str, dict[str, str]] = {
    "Stable": {"zh": "Stable", "en": "Stable"},
    "Beta": {"zh": "Beta", "en": "Beta"},
    "Prototype": {"zh": "Prototype", "en": "Prototype"},
    "Experimental": {"zh": "Experimental", "en": "Experimental"},
    "API-Stable": {"zh": "API-Stable", "en": "API-Stable"},
    "API-Unstable": {"zh": "API-Unstable", "en": "API-Unstable"},
    "Deprecated": {"zh": "已弃用", "en": "Deprecated"},
    "unlabeled": {"zh": "无标签", "en": "no label"},
}

# Areas group features into sections and topic pages. Keys are what front matter uses.
AREAS: dict[str, dict[str, str]] = {
    "Frontend": {"zh": "前端 API", "en": "Frontend API"},
    "Autograd": {"zh": "自动微分", "en": "Autograd"},
    "JIT": {"zh": "TorchScript / JIT", "en": "TorchScript / JIT"},
    "Compiler": {"zh": "编译器", "en": "Compiler"},
    "Export": {"zh": "模型导出", "en": "Export"},
    "Distributed": {"zh": "分布式", "en": "Distributed"},
    "Performance": {"zh": "性能", "en": "Performance"},
    "Profiler": {"zh": "性能分析", "en": "Profiler"},
    "Quantization": {"zh": "量化", "en": "Quantization"},
    "Mobile": {"zh": "移动端", "en": "Mobile"},
    "C++": {"zh": "C++ 前端与扩展", "en": "C++ frontend and extensions"},
    "Bindings": {"zh": "其他语言绑定", "en": "Language bindings"},
    "Hardware": {"zh": "硬件支持", "en": "Hardware"},
    "Platform": {"zh": "平台与发布", "en": "Platform and packaging"},
    "Tooling": {"zh": "工具", "en": "Tooling"},
    "Domains": {"zh": "领域库", "en": "Domain libraries"},
    "Ecosystem": {"zh": "生态", "en": "Ecosystem"},
}

# How a fact is known (the legend of ../shared/reference): an official source, or a faithful copy of
# official text / a value derived from other facts. Shown next to dates, sources and compatibility values.
EVIDENCE: dict[str, dict[str, str]] = {
    "official": {"mark": "✅", "zh": "官方来源", "en": "official source"},
    "copy": {
        "mark": "◆",
        "zh": "官方文字的忠实副本（非官方页面本身）",
        "en": "faithful copy of official text (not the official page itself)",
    },
    "derived": {"mark": "◆", "zh": "推断或间接印证", "en": "derived or corroborated indirectly"},
}

# What kind of upgrade hazard a change is (../shared/reference/breaking-changes.md).
CHANGE_CATEGORIES: dict[str, dict[str, str]] = {
    "bc-breaking": {"zh": "不兼容变更", "en": "Breaking change"},
    "deprecation": {"zh": "弃用", "en": "Deprecation"},
    "removal": {"zh": "移除", "en": "Removal"},
    "default-change": {"zh": "默认行为变化", "en": "Changed default"},
    "dropped-platform": {"zh": "停止支持", "en": "Dropped support"},
}

# Support that a change ends, for the end-of-support timeline; Python and CUDA versions come from the
# compatibility data instead. `last_supported` on the change names the last release that had it.
SUPPORT_ENDS: dict[str, dict[str, str]] = {
    "macos-x86": {"zh": "macOS（Intel x86）二进制包", "en": "macOS on Intel (x86) binaries"},
    "conda": {"zh": "PyTorch 官方 Anaconda 频道的 Conda 包", "en": "Conda packages on PyTorch's Anaconda channel"},
    "glibc-pre-2.28": {"zh": "glibc 早于 2.28 的 Linux 发行版", "en": "Linux distributions with glibc older than 2.28"},
    "mps-macos-13": {"zh": "macOS 13（Ventura）上的 MPS 后端", "en": "the MPS backend on macOS 13 (Ventura)"},
    "gpu-sm50-sm60-cuda12.8": {
        "zh": "CUDA 12.8/12.9 构建中的 Maxwell、Pascal GPU",
        "en": "Maxwell and Pascal GPUs in the CUDA 12.8/12.9 builds",
    },
    "gpu-sm70-cuda12.8": {"zh": "CUDA 12.8/12.9 构建中的 Volta GPU", "en": "Volta GPUs in the CUDA 12.8/12.9 builds"},
    "gpu-maxwell-pascal-default-wheel": {
        "zh": "PyPI 默认 wheel 上的 Maxwell、Pascal GPU",
        "en": "Maxwell and Pascal GPUs with the default PyPI wheel",
    },
    "bazel-build": {"zh": "Bazel 构建", "en": "the Bazel build"},
}


def area_slug(area: str) -> str:
    """The topic page name of an area: docs/topics/<slug>.md."""
    return "cpp" if area == "C++" else area.lower()


# No leading zeros: "2.09" would sort and link like a second 2.9.
VERSION_RE = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)$", re.ASCII)
PATCH_RE = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$", re.ASCII)
# The only host a provisional page's facts may come from (its source is the version's PyPI page).
PROVISIONAL_SOURCE_PREFIX = "https://pypi.org/project/torch/"

ReleaseDataError = PageDataError  # the name the hooks and tools use


@dataclass(frozen=True)
class Feature:
    id: str
    name: str
    area: str
    maturity: str
    line: int  # of this feature in this page's front matter
    note: str | None = None


@dataclass(frozen=True)
class Change:
    id: str
    category: str
    text: str
    source: str
    evidence: str
    line: int
    affects: tuple[str, ...] = ()  # ids of the features this change deprecates or removes (their "status today")
    follows: tuple[str, str] | None = None  # (version, change id) of the earlier step, e.g. the deprecation
    ends: str | None = None  # a SUPPORT_ENDS key
    last_supported: str | None = None  # the last release that still had what `ends` names
    drops: tuple[str, ...] = ()  # the Python/CUDA/ROCm versions this change stops shipping, e.g. ("python-3.7",)
    before: str | None = None  # code that the change affects, as it was written before
    after: str | None = None  # the same code written for the release and later

    @property
    def anchor(self) -> str:
        return f"change-{self.id}"


@dataclass(frozen=True)
class Lts:
    """A long-term support line of a release (1.8: 1.8.2 on the LTS index, never on PyPI), from `lts:`."""

    patches: tuple[str, ...]  # the LTS patch releases, each listed in the page's `patches`
    source: str
    evidence: str  # an EVIDENCE key
    note: str  # in the page's language (the Chinese page's `lts.note`, the English page's `lts_note`)
    line: int


@dataclass(frozen=True)
class Announcement:
    """A change an official source announced for a provisional release before its post exists (`announced:`): shown
    as announced, with its source, never as a feature or a label."""

    id: str
    text: str  # in the page's language (the Chinese page's `text`, the English page's words by id)
    source: str
    evidence: str  # an EVIDENCE key
    line: int


@dataclass(frozen=True)
class Plan:
    """The next release as the release schedule plans it (`next_release:` on the newest release's page): a plan with
    its source, not a fact about a release; the release page and the timeline say so."""

    version: str
    date: dt.date
    source: str
    evidence: str  # an EVIDENCE key
    line: int

    @property
    def date_iso(self) -> str:
        return self.date.isoformat()


@dataclass
class ReleasePage:
    """One language's page of one release: the release's facts with this language's words."""

    path: str  # as shown in messages, relative to the project when possible
    src_uri: str  # relative to docs_dir, e.g. "releases/1.6.en.md"
    lang: str
    version: str
    date: dt.date  # the first of the month when only the month is known
    date_precision: str  # "day" or "month"
    title: str
    summary: str
    source: str
    features: tuple[Feature, ...]
    changes: tuple[Change, ...] = ()
    compat: Compat | None = None
    patches: tuple[str, ...] = ()
    source_note: str | None = None
    description: str | None = None
    date_note: str | None = None
    date_evidence: str = "official"
    source_evidence: str = "official"
    provisional: bool = False  # on PyPI, but its official post is not available here yet: registry facts only
    lts: Lts | None = None
    announced: tuple[Announcement, ...] = ()  # a provisional release's announced changes, in this page's language
    next_release: Plan | None = None  # the newest release's page: the release schedule's next one
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """Site-relative URL with directory URLs, e.g. "en/releases/1.6/"."""
        prefix = "" if self.lang == DEFAULT_LANGUAGE else f"{self.lang}/"
        return f"{prefix}{RELEASES_DIR}/{self.version}/"

    @property
    def date_iso(self) -> str:
        """ "2017-08-05", or "2017-01" when only the month is known (a valid HTML <time> value too)."""
        return self.date.isoformat() if self.date_precision == "day" else self.date.strftime("%Y-%m")

    def maturity_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for label in MATURITY_LABELS:
            n = sum(1 for f in self.features if f.maturity == label)
            if n:
                counts[label] = n
        return counts


@dataclass
class Release:
    version: str
    pages: dict[str, ReleasePage]

    @property
    def facts(self) -> ReleasePage:
        return self.pages[DEFAULT_LANGUAGE]

    @property
    def date(self) -> dt.date:
        return self.facts.date

    @property
    def date_iso(self) -> str:
        return self.facts.date_iso

    @property
    def source(self) -> str:
        return self.facts.source

    @property
    def features(self) -> tuple[Feature, ...]:
        return self.facts.features

    @property
    def changes(self) -> tuple[Change, ...]:
        return self.facts.changes

    @property
    def compat(self) -> Compat | None:
        return self.facts.compat

    @property
    def patches(self) -> tuple[str, ...]:
        return self.facts.patches

    @property
    def provisional(self) -> bool:
        """True for a release known from PyPI only (`provisional: true`): its date is the first upload day, its
        facts are registry facts; the views mark it."""
        return self.facts.provisional

    @property
    def next_release(self) -> Plan | None:
        """The next release as the schedule plans it, named on the newest release's page (None elsewhere)."""
        return self.facts.next_release

    @property
    def lts(self) -> Lts | None:
        """The release's LTS line, with the Chinese note; `release.pages[lang].lts` has each language's note."""
        return self.facts.lts


@dataclass
class Catalog:
    releases: list[Release]  # newest first
    hardware: Hardware | None = None  # docs/.hardware.yml: the machine facts (None where there is no such file)

    def page(self, version: str, lang: str) -> ReleasePage:
        return self.by_version()[version].pages[lang]

    def by_version(self) -> dict[str, Release]:
        return {r.version: r for r in self.releases}

    def pages(self, lang: str) -> list[ReleasePage]:
        return [r.pages[lang] for r in self.releases]

    def previous(self, version: str) -> Release | None:
        """The release before `version`, or None for the oldest."""
        versions = [r.version for r in self.releases]
        i = versions.index(version)
        return self.releases[i + 1] if i + 1 < len(self.releases) else None

    def next(self, version: str) -> Release | None:
        versions = [r.version for r in self.releases]
        i = versions.index(version)
        return self.releases[i - 1] if i > 0 else None


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def language_of(path: Path) -> str:
    """`1.6.md` is the default language; `1.6.en.md` is English."""
    parts = path.name[: -len(".md")].rsplit(".", 1)
    if len(parts) == 2 and parts[1] in LANGUAGES:
        return parts[1]
    return DEFAULT_LANGUAGE


def page_file_name(version: str, lang: str) -> str:
    return f"{version}.md" if lang == DEFAULT_LANGUAGE else f"{version}.{lang}.md"
