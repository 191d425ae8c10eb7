"""The release catalog: one page pair per release, language-neutral facts written once.

A release is `docs/releases/<version>.md` (Chinese, the default language) and `<version>.en.md` (English).
The **Chinese page's front matter holds every language-neutral fact** — version, date, official source,
patch releases, each feature's id/area/maturity, each breaking change's category/source/code, the
compatibility data — together with its Chinese words. The **English page's front matter holds only words**:
title, summary, notes, and the English name of every feature and text of every change, keyed by id.
So a fact cannot disagree between languages, and a missing translation is an error with its line.

Two facts describe a release as a whole:
- `provisional: true` — the release is on PyPI but its official post is not available yet. Its page pair is
  written from the registry evidence (`python -m scripts.new_release 2.15 --provisional`): `date` is PyPI's
  first upload day (the required `date_note` says so), `source` the version's PyPI page, every compatibility
  claim `sources: [PyPI]`, `evidence: official`; `features` and `changes` are refused on both pages (a registry
  has no labels or highlights). Views mark it (`Release.provisional`); `python -m scripts.new_release 2.15`
  turns it into a full page when the post arrives.
- `lts: {patches: [...], source: <url>, evidence: ..., note: <Chinese words>}` — the release's long-term
  support line (1.8: 1.8.2); the English page translates the note as `lts_note` (`Release.lts`).

Every generated view (timeline, navigation, lifecycle, topics, compare/upgrade, compatibility, feeds,
releases.json) reads releases through `load_catalog`, which validates all pages and raises
`ReleaseDataError` listing every problem as `path:line: message`. Run it directly to check the pages
without building the site:

    python -m scripts.releases [--docs-dir docs]
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from scripts.compat import FIELDS as COMPAT_FIELDS
from scripts.compat import Compat, parse_compat
from scripts.frontmatter import (
    PageDataError,
    Problem,
    Reader,
    parse_front_matter,
    read_page_text,
    shown_path,
    split_front_matter,  # noqa: F401 - re-exported: scripts and tests import it from here
)

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


# --- fields -------------------------------------------------------------------------------------------

FACT_FIELDS = (
    "version",
    "date",
    "source",
    "date_evidence",
    "source_evidence",
    "patches",
    "compat",
    "provisional",
    "lts",
)
WORD_FIELDS = ("title", "summary", "description", "source_note", "date_note")
ZH_REQUIRED = ("version", "date", "title", "summary", "source", "features")
ZH_ALLOWED = FACT_FIELDS + WORD_FIELDS + ("features", "changes")
EN_REQUIRED = ("title", "summary")
EN_ALLOWED = WORD_FIELDS + ("features", "changes", "compat_notes", "lts_note")
# A provisional release (on PyPI, official post not available yet) carries registry facts only: nothing a post
# would have to say. Its `features` list is not required, and these fields are refused on both pages.
PROVISIONAL_REFUSED = ("features", "changes")
# The only host a provisional page's facts may come from, and the only source its compatibility claims may name.
PROVISIONAL_SOURCE_PREFIX = "https://pypi.org/project/torch/"
PROVISIONAL_CLAIM_SOURCES = ("PyPI",)
LTS_FIELDS = ("patches", "source", "evidence", "note")
# Words that, when the Chinese page has them, the English page must translate (and only then).
PAIRED_WORDS = ("description", "source_note", "date_note")
FEATURE_FIELDS = ("id", "name", "area", "maturity", "note")
CHANGE_FIELDS = (
    "id",
    "category",
    "text",
    "source",
    "evidence",
    "affects",
    "follows",
    "ends",
    "last_supported",
    "drops",
    "before",
    "after",
)
DROPS_RE = re.compile(r"^(python|cuda|rocm)-\d+\.\d+t?$")

# No leading zeros: "2.09" would sort and link like a second 2.9.
VERSION_RE = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)$")
PATCH_RE = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
DATE_RE = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
FOLLOWS_RE = re.compile(r"^((?:0|[1-9]\d*)\.(?:0|[1-9]\d*))#([a-z0-9][a-z0-9-]*)$")

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
    def lts(self) -> Lts | None:
        """The release's LTS line, with the Chinese note; `release.pages[lang].lts` has each language's note."""
        return self.facts.lts


@dataclass
class Catalog:
    releases: list[Release]  # newest first

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


def _stem(path: Path) -> str:
    """`1.6.en.md` -> `1.6`: the name shared by a release's language pages."""
    stem = path.name[: -len(".md")]
    lang = language_of(path)
    return stem[: -len(lang) - 1] if stem.endswith(f".{lang}") else stem


# --- body checks ----------------------------------------------------------------------------------------


def scan_fences(lines: list[str]) -> tuple[list[bool], int | None]:
    """Which lines belong to a fenced code block (fence lines included), and the index of a fence that
    is opened but never closed (None if all close).

    A fence opens with 3+ backticks or tildes at any indentation (admonitions and lists indent them) and
    closes with a line of only the same character, at least as many. A shorter inner fence, as in a
    ````markdown block showing ``` code, is content.
    """
    in_code: list[bool] = []
    fence: str | None = None
    opened_at = 0
    for index, line in enumerate(lines):
        stripped = line.strip()
        if fence is None:
            match = re.match(r"(`{3,}|~{3,})", stripped)
            if match:
                fence, opened_at = match.group(1), index
            in_code.append(fence is not None)
        else:
            in_code.append(True)
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                fence = None
    return in_code, (opened_at if fence is not None else None)


def heading_anchors(body: str) -> set[str]:
    """Ids given to headings with attr_list, e.g. `### Title { #amp }`, outside code fences."""
    anchors: set[str] = set()
    lines = body.split("\n")
    for line, in_code in zip(lines, scan_fences(lines)[0], strict=True):
        heading = None if in_code else re.match(r"^#{2,6}\s.*\{([^}]*)\}\s*$", line)
        if heading:
            anchors.update(re.findall(r"#([\w-]+)", heading.group(1)))
    return anchors


def fence_problems(body: str, body_line: int, shown: str) -> list[Problem]:
    """An unclosed fence swallows the rest of the page silently; report where it opened."""
    lines = body.split("\n")
    unclosed = scan_fences(lines)[1]
    if unclosed is None:
        return []
    fence = re.match(r"(`{3,}|~{3,})", lines[unclosed].strip()).group(1)
    return [Problem(shown, body_line + unclosed, f"code fence '{fence}' opened here is never closed")]


# --- parsing one page -------------------------------------------------------------------------------------


def _parse_date(raw: str) -> tuple[dt.date, str] | None:
    match = DATE_RE.match(raw.strip())
    if not match:
        return None
    year, month, day = match.groups()
    try:
        return dt.date(int(year), int(month), int(day or 1)), ("day" if day else "month")
    except ValueError:
        return None


@dataclass
class _Parsed:
    """What one page's front matter says, before the two languages are joined."""

    path: Path
    shown: str
    lang: str
    stem: str
    values: dict
    lines: dict[str, int]
    features: list[dict]
    changes: list[dict]
    body: str
    body_line: int


def _ids_written(node: yaml.Node) -> set[str]:
    """Every `id:` text under a list of items, valid or not: a translation of an item that has a problem
    of its own is not reported again as unknown."""
    ids = set()
    for item in node.value if isinstance(node, yaml.SequenceNode) else []:
        if isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                if key.value == "id" and isinstance(value, yaml.ScalarNode):
                    ids.add(value.value.strip())
    return ids


def _read_features_facts(r: Reader, node: yaml.Node) -> list[dict]:
    features: list[dict] = []
    first_line: dict[str, int] = {}
    for item in r.sequence(node, "features") or []:
        fields = r.fields(item, "a feature", FEATURE_FIELDS, ("id", "name", "area", "maturity"))
        if fields is None:
            continue
        fid = (
            r.matching(fields["id"][1], "feature id", ID_RE, "lowercase letters, digits and '-'")
            if "id" in fields
            else None
        )
        if fid and fid in first_line:
            r.problem(r.line(fields["id"][1]), f"duplicate feature id '{fid}' (first used on line {first_line[fid]})")
            fid = None
        name = r.text(fields["name"][1], "name") if "name" in fields else None
        area = r.choice(fields["area"][1], "area", AREAS, "area") if "area" in fields else None
        maturity = (
            r.choice(fields["maturity"][1], "maturity", MATURITY_LABELS, "maturity label")
            if "maturity" in fields
            else None
        )
        note = r.text(fields["note"][1], "note") if "note" in fields else None
        if fid and name and area and maturity and ("note" not in fields or note):
            first_line[fid] = r.line(item)
            features.append(
                {"id": fid, "name": name, "area": area, "maturity": maturity, "note": note, "line": r.line(item)}
            )
    return features


def _read_changes_facts(r: Reader, node: yaml.Node, version: str | None) -> list[dict]:
    changes: list[dict] = []
    first_line: dict[str, int] = {}
    for item in r.sequence(node, "changes") or []:
        fields = r.fields(item, "a change", CHANGE_FIELDS, ("id", "category", "text", "source", "evidence"))
        if fields is None:
            continue
        ok = all(name in fields for name in ("id", "category", "text", "source", "evidence"))
        value: dict = {"line": r.line(item)}
        getters = {
            "id": lambda n: r.matching(n, "change id", ID_RE, "lowercase letters, digits and '-'"),
            "category": lambda n: r.choice(n, "category", CHANGE_CATEGORIES, "change category"),
            "text": lambda n: r.text(n, "text"),
            "source": lambda n: r.url(n, "source"),
            "evidence": lambda n: r.choice(n, "evidence", EVIDENCE, "evidence"),
            "affects": lambda n: r.text_list(n, "affects", ID_RE, "feature ids"),
            "follows": lambda n: r.matching(
                n, "follows", FOLLOWS_RE, "'<version>#<change id>' of an earlier release, e.g. '2.4#torch-load-warning'"
            ),
            "ends": lambda n: r.choice(n, "ends", SUPPORT_ENDS, "support key"),
            "last_supported": lambda n: r.matching(n, "last_supported", VERSION_RE, "a release version such as '2.2'"),
            "drops": lambda n: r.text_list(n, "drops", DROPS_RE, "items such as 'python-3.7' or 'cuda-11.6'"),
            "before": lambda n: r.code(n, "before"),
            "after": lambda n: r.code(n, "after"),
        }
        for name, (_, node_value) in fields.items():
            if name in getters:
                value[name] = getters[name](node_value)
                ok = ok and value[name] is not None
        if value.get("id") and value["id"] in first_line:
            r.problem(
                r.line(fields["id"][1]),
                f"duplicate change id '{value['id']}' (first used on line {first_line[value['id']]})",
            )
            ok = False
        if ok and ("ends" in value) != ("last_supported" in value):
            r.problem(
                value["line"],
                "a change with 'ends' needs 'last_supported' (the last release that had it), and the other way round",
            )
            ok = False
        if ok and ("ends" in value or "drops" in value) and value["category"] != "dropped-platform":
            r.problem(value["line"], "only a 'dropped-platform' change can say what support it 'ends' or 'drops'")
            ok = False
        if ok and "after" in value and "before" not in value:
            r.problem(value["line"], "a change with 'after' code needs the 'before' code it replaces")
            ok = False
        if (
            ok
            and "follows" in value
            and version
            and version_key(value["follows"].split("#")[0]) >= version_key(version)
        ):
            r.problem(r.line(fields["follows"][1]), f"'follows' must name an earlier release than {version}")
            ok = False
        if ok:
            first_line[value["id"]] = value["line"]
            changes.append(value)
    return changes


def _read_words_by_id(r: Reader, node: yaml.Node, name: str, with_note: bool) -> dict[str, dict]:
    """An English page's `features:`/`changes:`/`compat_notes:` mapping: id -> words (and the line)."""
    out: dict[str, dict] = {}
    if not isinstance(node, yaml.MappingNode):
        r.problem(
            r.line(node),
            f"'{name}' on an English page maps each id to its English words, e.g. 'amp: Automatic mixed precision'",
        )
        return out
    for key, value in node.value:
        if isinstance(value, yaml.MappingNode) and with_note:
            fields = r.fields(value, f"'{key.value}'", ("name", "note"), ("name",), line=r.line(key))
            if fields is None or "name" not in fields:
                continue
            words = {
                "name": r.text(fields["name"][1], "name"),
                "note": r.text(fields["note"][1], "note") if "note" in fields else None,
            }
            if words["name"] is None or ("note" in fields and words["note"] is None):
                continue
        else:
            text = r.text(value, f"{name}: {key.value}")
            if text is None:
                continue
            words = {"name": text, "note": None}
        out[key.value] = {**words, "line": r.line(key)}
    return out


def _read_lts(r: Reader, node: yaml.Node, patches: list[str]) -> dict | None:
    """`lts: {patches: [...], source: <url>, evidence: official|copy|derived, note: <words>}` (Chinese page)."""
    fields = r.fields(node, "lts", LTS_FIELDS, LTS_FIELDS)
    if fields is None or any(name not in fields for name in LTS_FIELDS):
        return None
    value = {
        "patches": r.text_list(fields["patches"][1], "lts.patches", PATCH_RE, "patch versions such as '1.8.2'"),
        "source": r.url(fields["source"][1], "lts.source"),
        "evidence": r.choice(fields["evidence"][1], "lts.evidence", EVIDENCE, "evidence"),
        "note": r.text(fields["note"][1], "lts.note"),
        "line": r.line(node),
    }
    for patch, item in zip(value["patches"] or [], fields["patches"][1].value, strict=True):
        if patch not in patches:
            r.problem(r.line(item), f"lts: patch '{patch}' is not listed in 'patches'")
            return None
    if any(value[name] in (None, []) for name in LTS_FIELDS):
        return None
    return value


def _read_provisional(r: Reader, fields: dict, values: dict, version: str) -> bool | None:
    """`provisional: true`: a release known from PyPI only. Refuse every fact a registry cannot give (features
    and their labels, changes), a source other than the version's PyPI page, a date without the note that says it
    is an upload day, and a compatibility claim that does not rest on PyPI alone."""
    key, node = fields["provisional"]
    if not isinstance(node, yaml.ScalarNode) or node.value != "true":
        r.problem(
            r.line(key),
            "write 'provisional: true' (a release on PyPI whose official post is not available yet), or leave the field out",
        )
        return None
    ok = True
    for name in PROVISIONAL_REFUSED:
        if name in fields:
            r.problem(
                r.line(fields[name][0]),
                f"a provisional release carries registry facts only: remove '{name}' (add it from the official post, with python -m scripts.new_release {version})",
            )
            ok = False
    source = values.get("source")
    expected = f"{PROVISIONAL_SOURCE_PREFIX}{version}."
    if source and not source.startswith(expected):
        r.problem(
            r.line(fields["source"][0]),
            f"a provisional release's source is its PyPI page ({expected}0/), not '{source}'",
        )
        ok = False
    if "date_note" not in fields:
        r.problem(
            r.line(key),
            "a provisional release needs a 'date_note' saying its date is PyPI's first upload day, not an announcement date",
        )
        ok = False
    compat = values.get("compat")
    for name in COMPAT_FIELDS if compat else ():
        for claim in compat.claims(name):
            if claim.sources != PROVISIONAL_CLAIM_SOURCES or claim.evidence != "official":
                r.problem(
                    claim.line,
                    f"a provisional release's {name} claim rests on PyPI alone: 'sources: [PyPI]' and 'evidence: official'",
                )
                ok = False
    return True if ok else None


def _parse_page(path: Path, shown: str, version_of_file: str, lang: str) -> tuple[_Parsed | None, list[Problem]]:
    text, problems = read_page_text(path, shown)
    if text is None:
        return None, problems
    front, problems = parse_front_matter(text, shown, required=True)
    if front is None:
        return None, problems
    r = Reader(shown, front.offset)
    required = ZH_REQUIRED if lang == DEFAULT_LANGUAGE else EN_REQUIRED
    allowed = ZH_ALLOWED if lang == DEFAULT_LANGUAGE else EN_ALLOWED
    fields = {key.value: (key, value) for key, value in front.root.value}
    if lang == DEFAULT_LANGUAGE and "provisional" in fields:
        required = tuple(name for name in required if name not in PROVISIONAL_REFUSED)
    for name, (key, _) in fields.items():
        if name in allowed:
            continue
        if lang != DEFAULT_LANGUAGE and name in ZH_ALLOWED:
            r.problem(
                r.line(key),
                f"'{name}' is a fact, written once in the Chinese page {page_file_name(version_of_file, DEFAULT_LANGUAGE)}: remove it here (an English page carries only words)",
            )
        else:
            r.problem(r.line(key), f"unknown field '{name}' (allowed: {', '.join(allowed)})")
    for name in required:
        if name not in fields:
            r.problem(1, f"missing required field '{name}'")
    lines = {name: r.line(key) for name, (key, _) in fields.items()}
    values: dict = {}

    for name in WORD_FIELDS:
        if name in fields:
            values[name] = r.text(fields[name][1], name)

    features: list[dict] = []
    changes: list[dict] = []
    if lang == DEFAULT_LANGUAGE:
        if "version" in fields:
            version = r.matching(
                fields["version"][1], "version", VERSION_RE, "MAJOR.MINOR without leading zeros, e.g. '1.6'"
            )
            if version and version != version_of_file:
                r.problem(
                    lines["version"],
                    f"version '{version}' does not match the file name {path.name} (expected '{version_of_file}')",
                )
                version = None
            values["version"] = version
        if "date" in fields:
            raw = r.scalar(fields["date"][1], "date")
            parsed = _parse_date(raw) if raw is not None else None
            if raw is not None and parsed is None:
                r.problem(
                    lines["date"],
                    f"bad date '{raw}': expected a real calendar date as YYYY-MM-DD (or YYYY-MM when only the month is known)",
                )
            values["date"] = parsed
        if "source" in fields:
            values["source"] = r.url(fields["source"][1], "source")
        for name in ("date_evidence", "source_evidence"):
            if name in fields:
                values[name] = r.choice(fields[name][1], name, EVIDENCE, "evidence")
        if "patches" in fields:
            patches = r.text_list(fields["patches"][1], "patches", PATCH_RE, "patch versions such as '2.9.1'")
            if patches:
                for patch, item in zip(patches, fields["patches"][1].value, strict=True):
                    if not patch.startswith(version_of_file + "."):
                        r.problem(r.line(item), f"patch '{patch}' is not a {version_of_file} release")
                        patches = None
                        break
            values["patches"] = patches
        if "features" in fields:
            features = _read_features_facts(r, fields["features"][1])
            values["_feature_ids_written"] = _ids_written(fields["features"][1])
        if "changes" in fields:
            changes = _read_changes_facts(r, fields["changes"][1], values.get("version"))
            values["_change_ids_written"] = _ids_written(fields["changes"][1])
        if "compat" in fields:
            values["compat"] = parse_compat(r, fields["compat"][1], version_of_file, values.get("patches") or [])
        if values.get("date") and values["date"][1] == "month" and "date_note" not in fields:
            r.problem(lines["date"], "a date known only to the month needs a 'date_note' saying how it is known")
        if "lts" in fields:
            values["lts"] = _read_lts(r, fields["lts"][1], values.get("patches") or [])
        if "provisional" in fields:
            values["provisional"] = _read_provisional(r, fields, values, version_of_file)
    else:
        if "features" in fields:
            features = list(_read_words_by_id(r, fields["features"][1], "features", with_note=True).items())
        if "changes" in fields:
            changes = list(_read_words_by_id(r, fields["changes"][1], "changes", with_note=False).items())
        if "compat_notes" in fields:
            values["compat_notes"] = _read_words_by_id(r, fields["compat_notes"][1], "compat_notes", with_note=False)
        if "lts_note" in fields:
            values["lts_note"] = r.text(fields["lts_note"][1], "lts_note")

    problems = r.problems + fence_problems(front.body, front.body_line, shown)
    parsed = _Parsed(path, shown, lang, version_of_file, values, lines, features, changes, front.body, front.body_line)
    return parsed, problems


# --- joining the languages -------------------------------------------------------------------------------


def _join(zh: _Parsed, en: _Parsed, docs_dir: Path) -> tuple[Release | None, list[Problem]]:
    """Give the English words to the Chinese page's facts; report what is missing or extra."""
    problems: list[Problem] = []

    def problem(page: _Parsed, line: int, message: str) -> None:
        problems.append(Problem(page.shown, line, message))

    for name in PAIRED_WORDS:
        if name in zh.lines and name not in en.lines:
            problem(en, 1, f"missing '{name}': {zh.shown}:{zh.lines[name]} has one, translate it here")
        if name in en.lines and name not in zh.lines:
            problem(en, en.lines[name], f"'{name}' has nothing to translate: {zh.shown} has none")

    en_features = dict(en.features)
    for feature in zh.features:
        if feature["id"] not in en_features:
            problem(
                en,
                en.lines.get("features", 1),
                f"feature '{feature['id']}' has no English name: add '{feature['id']}: <name>' under features ({zh.shown}:{feature['line']})",
            )
        elif feature["note"] and not en_features[feature["id"]]["note"]:
            words = en_features[feature["id"]]
            problem(
                en,
                words["line"],
                f"feature '{feature['id']}' has a note in {zh.shown}:{feature['line']}: give it 'name' and 'note' here",
            )
        elif not feature["note"] and en_features[feature["id"]]["note"]:
            problem(
                en,
                en_features[feature["id"]]["line"],
                f"feature '{feature['id']}' has a note here but none in {zh.shown}:{feature['line']}",
            )
    zh_ids = {f["id"] for f in zh.features} | zh.values.get("_feature_ids_written", set())
    for fid, words in en_features.items():
        if fid not in zh_ids:
            problem(en, words["line"], f"unknown feature '{fid}': {zh.shown} lists no such feature")
    en_changes = dict(en.changes)
    for change in zh.changes:
        if change["id"] not in en_changes:
            problem(
                en,
                en.lines.get("changes", 1),
                f"change '{change['id']}' has no English text: add '{change['id']}: <text>' under changes ({zh.shown}:{change['line']})",
            )
    zh_change_ids = {c["id"] for c in zh.changes} | zh.values.get("_change_ids_written", set())
    for cid, words in en_changes.items():
        if cid not in zh_change_ids:
            problem(en, words["line"], f"unknown change '{cid}': {zh.shown} lists no such change")
    compat = zh.values.get("compat")
    en_notes = en.values.get("compat_notes", {})
    zh_notes = compat.notes if compat else {}
    for nid in zh_notes:
        if nid not in en_notes:
            problem(
                en,
                en.lines.get("compat_notes", 1),
                f"compatibility note '{nid}' has no English text: add '{nid}: <text>' under compat_notes",
            )
    for nid, words in en_notes.items():
        if nid not in zh_notes:
            problem(
                en, words["line"], f"unknown compatibility note '{nid}': {zh.shown} has no such note under compat.notes"
            )

    if zh.values.get("provisional"):
        for name in PROVISIONAL_REFUSED:
            if name in en.lines:
                problem(
                    en,
                    en.lines[name],
                    f"a provisional release carries registry facts only: remove '{name}' ({zh.shown} has 'provisional: true')",
                )
    if "lts" in zh.lines and "lts_note" not in en.lines:
        problem(en, 1, f"missing 'lts_note': {zh.shown}:{zh.lines['lts']} has an LTS note, translate it here")
    if "lts_note" in en.lines and "lts" not in zh.lines:
        problem(en, en.lines["lts_note"], f"'lts_note' has nothing to translate: {zh.shown} has no 'lts'")

    for page in (zh, en):
        anchors = heading_anchors(page.body)
        for feature in zh.features:
            if feature["id"] not in anchors:
                line = feature["line"] if page is zh else dict(en.features).get(feature["id"], {}).get("line", 1)
                problem(
                    page,
                    line,
                    f"feature '{feature['id']}' has no section: add a heading ending in '{{ #{feature['id']} }}'",
                )

    facts = zh.values
    if (
        problems
        or not facts.get("version")
        or not facts.get("date")
        or any(facts.get(n) is None for n in ("title", "summary", "source"))
    ):
        return None, problems
    if any(en.values.get(n) is None for n in ("title", "summary")):
        return None, problems
    if "compat" in zh.lines and compat is None:
        return None, problems
    if any(name in zh.lines and not facts.get(name) for name in ("lts", "provisional")):
        return None, problems  # its problem is recorded where it was read
    date, precision = facts["date"]
    pages = {}
    for page in (zh, en):
        words = page.values
        if page is zh:
            features = tuple(
                Feature(f["id"], f["name"], f["area"], f["maturity"], f["line"], f["note"]) for f in zh.features
            )
            changes = tuple(_change(c, c["text"], c["line"]) for c in zh.changes)
        else:
            features = tuple(
                Feature(
                    f["id"],
                    en_features[f["id"]]["name"],
                    f["area"],
                    f["maturity"],
                    en_features[f["id"]]["line"],
                    en_features[f["id"]]["note"],
                )
                for f in zh.features
            )
            changes = tuple(_change(c, en_changes[c["id"]]["name"], en_changes[c["id"]]["line"]) for c in zh.changes)
        page_compat = compat.with_notes(en_notes if page is en else None) if compat else None
        pages[page.lang] = ReleasePage(
            path=page.shown,
            src_uri=page.path.relative_to(docs_dir).as_posix(),
            lang=page.lang,
            version=facts["version"],
            date=date,
            date_precision=precision,
            title=words["title"],
            summary=words["summary"],
            source=facts["source"],
            features=features,
            changes=changes,
            compat=page_compat,
            patches=tuple(facts.get("patches") or ()),
            source_note=words.get("source_note"),
            description=words.get("description"),
            date_note=words.get("date_note"),
            date_evidence=facts.get("date_evidence") or "official",
            source_evidence=facts.get("source_evidence") or "official",
            provisional=bool(facts.get("provisional")),
            lts=_lts(facts.get("lts"), en.values.get("lts_note") if page is en else None),
            lines=dict(page.lines),
        )
    return Release(facts["version"], pages), problems


def _lts(facts: dict | None, translated_note: str | None) -> Lts | None:
    if facts is None:
        return None
    note = translated_note or facts["note"]
    return Lts(
        patches=tuple(facts["patches"]),
        source=facts["source"],
        evidence=facts["evidence"],
        note=note,
        line=facts["line"],
    )


def _change(facts: dict, text: str, line: int) -> Change:
    follows = tuple(facts["follows"].split("#")) if facts.get("follows") else None
    return Change(
        id=facts["id"],
        category=facts["category"],
        text=text,
        source=facts["source"],
        evidence=facts["evidence"],
        line=line,
        affects=tuple(facts.get("affects") or ()),
        follows=follows,
        ends=facts.get("ends"),
        last_supported=facts.get("last_supported"),
        drops=tuple(facts.get("drops") or ()),
        before=facts.get("before"),
        after=facts.get("after"),
    )


# --- the whole catalog ----------------------------------------------------------------------------


def _release_files(docs_dir: Path) -> tuple[dict[str, dict[str, Path]], list[Problem]]:
    """docs/releases/*.md grouped by version and language; a file whose name is not a version is a problem."""
    from scripts.pages import unsafe_path_problem

    grouped: dict[str, dict[str, Path]] = {}
    problems: list[Problem] = []
    folder = docs_dir / RELEASES_DIR
    if not folder.is_dir():
        return grouped, problems
    for path in sorted(folder.iterdir()):
        if not path.name.endswith(".md") or path.name.startswith("."):
            continue
        shown = shown_path(path)
        unsafe = unsafe_path_problem(path, docs_dir.parent, shown)
        if unsafe:
            problems.append(unsafe)
            continue
        stem, lang = _stem(path), language_of(path)
        if not VERSION_RE.match(stem):
            problems.append(
                Problem(
                    shown,
                    1,
                    f"a release page is named <version>.md or <version>.en.md (e.g. 2.10.md), not '{path.name}'",
                )
            )
            continue
        grouped.setdefault(stem, {})[lang] = path
    return grouped, problems


def load_catalog(docs_dir: Path | str, today: dt.date | None = None) -> Catalog:
    """Read and validate every release page under docs_dir/releases; raise ReleaseDataError on any problem."""
    docs_dir = Path(docs_dir)
    today = today or dt.date.today()
    grouped, problems = _release_files(docs_dir)
    releases: list[Release] = []
    for version, files in grouped.items():
        parsed: dict[str, _Parsed] = {}
        for lang, path in files.items():
            page, found = _parse_page(path, shown_path(path), version, lang)
            problems.extend(found)
            if page is not None:
                parsed[lang] = page
        missing = [lang for lang in LANGUAGES if lang not in files]
        for lang in missing:
            present = next(iter(files.values()))
            expected = shown_path(docs_dir / RELEASES_DIR / page_file_name(version, lang))
            line = parsed[language_of(present)].lines.get("version", 1) if language_of(present) in parsed else 1
            problems.append(
                Problem(
                    shown_path(present), line, f"release {version} has no {LANGUAGE_NAMES[lang]} page: add {expected}"
                )
            )
        if missing or len(parsed) != len(LANGUAGES):
            continue
        release, found = _join(parsed[DEFAULT_LANGUAGE], parsed["en"], docs_dir)
        problems.extend(found)
        if release:
            releases.append(release)
    releases.sort(key=lambda r: version_key(r.version), reverse=True)
    problems.extend(_catalog_problems(releases, today))
    if problems:
        raise ReleaseDataError(problems)
    return Catalog(releases)


def _catalog_problems(releases: list[Release], today: dt.date) -> list[Problem]:
    """Facts that involve more than one release: dates in order and not in the future, links between
    changes, features named by changes, one area per feature id."""
    problems: list[Problem] = []
    oldest_first = list(reversed(releases))
    for older, newer in zip(oldest_first, oldest_first[1:], strict=False):
        page = newer.facts
        older_day = older.date if older.facts.date_precision == "day" else older.date.replace(day=1)
        newer_last_day = page.date if page.date_precision == "day" else _month_end(page.date)
        if newer_last_day < older_day:
            problems.append(
                Problem(
                    page.path,
                    page.lines["date"],
                    f"date {page.date_iso} is earlier than the release before it ({older.version}: {older.date_iso})",
                )
            )
    for release in releases:
        page = release.facts
        if page.date > today:
            problems.append(
                Problem(
                    page.path,
                    page.lines["date"],
                    f"date {page.date_iso} is in the future (today is {today.isoformat()})",
                )
            )
    by_version = {r.version: r for r in releases}
    feature_ids = {f.id for r in releases for f in r.features}
    area_of: dict[str, tuple[str, Release, Feature]] = {}
    for release in oldest_first:
        for feature in release.features:
            seen = area_of.setdefault(feature.id, (feature.area, release, feature))
            if seen[0] != feature.area:
                problems.append(
                    Problem(
                        release.facts.path,
                        feature.line,
                        f"feature '{feature.id}' is in area '{feature.area}' here but '{seen[0]}' in {seen[1].facts.path}:{seen[2].line}: one id is one feature, in one area",
                    )
                )
        for change in release.changes:
            for fid in change.affects:
                if fid not in feature_ids:
                    problems.append(
                        Problem(
                            release.facts.path,
                            change.line,
                            f"change '{change.id}' affects feature '{fid}', which no release lists",
                        )
                    )
            if change.follows:
                version, cid = change.follows
                target = by_version.get(version)
                if target is None:
                    problems.append(
                        Problem(
                            release.facts.path,
                            change.line,
                            f"change '{change.id}' follows release {version}, which has no page",
                        )
                    )
                elif cid not in {c.id for c in target.changes}:
                    problems.append(
                        Problem(
                            release.facts.path,
                            change.line,
                            f"change '{change.id}' follows '{cid}', which {target.facts.path} does not list under changes",
                        )
                    )
            if change.last_supported and change.last_supported not in by_version:
                problems.append(
                    Problem(
                        release.facts.path,
                        change.line,
                        f"change '{change.id}': last_supported release {change.last_supported} has no page",
                    )
                )
    return problems


def _month_end(day: dt.date) -> dt.date:
    following = day.replace(day=28) + dt.timedelta(days=4)
    return following - dt.timedelta(days=following.day)


# --- shared by the build hooks ----------------------------------------------------------------------

_CACHE: dict[str, tuple[tuple, Catalog]] = {}


def cached_catalog(docs_dir: Path | str) -> Catalog:
    """load_catalog, memoised on the release files' names and modification times.

    static-i18n runs a full build per language and `mkdocs serve` rebuilds on every change, so every
    hook asks for the catalog many times; re-parsing only when a file changed keeps that cheap.
    """
    docs_dir = Path(docs_dir)
    folder = docs_dir / RELEASES_DIR
    files = sorted(folder.glob("*.md")) if folder.is_dir() else []
    stamp = tuple((f.name, f.lstat().st_mtime_ns, f.lstat().st_size) for f in files)
    key = str(docs_dir.resolve())
    hit = _CACHE.get(key)
    if hit and hit[0] == stamp:
        return hit[1]
    catalog = load_catalog(docs_dir)
    _CACHE[key] = (stamp, catalog)
    return catalog


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.releases",
        description="Validate every release page (and every other page's front matter and markers) and print a summary.",
    )
    parser.add_argument("--docs-dir", default="docs", help="the MkDocs docs_dir (default: docs)")
    args = parser.parse_args(argv)
    from scripts.pages import check_site_pages

    docs_dir = Path(args.docs_dir)
    if not docs_dir.is_dir():
        print(f"error: docs dir '{args.docs_dir}' does not exist", file=sys.stderr)
        return 2
    problems = check_site_pages(docs_dir)
    catalog = None
    try:
        catalog = load_catalog(docs_dir)
    except ReleaseDataError as exc:
        problems = problems + exc.problems
    if problems:
        error = ReleaseDataError(problems)
        print(error, file=sys.stderr)
        print(f"{len(error.problems)} problem(s) found", file=sys.stderr)
        return 1
    for release in catalog.releases:
        counts = ", ".join(f"{n} {label}" for label, n in release.facts.maturity_counts().items())
        extra = f", {len(release.changes)} changes" if release.changes else ""
        print(
            f"{release.version:>5}  {release.date_iso:<10}  {len(release.features)} features ({counts or 'none'}){extra}"
        )
    print(f"{len(catalog.releases)} releases, {len(catalog.releases) * len(LANGUAGES)} pages: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
