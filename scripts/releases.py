"""The release data model: one Markdown page per release per language, front matter as the source of truth.

Every generated view (timeline, navigation, lifecycle, topics, feeds) reads releases through
`load_catalog`, which validates all pages and raises `ReleaseDataError` listing every problem as
`path:line: message`. Run it directly to check the pages without building the site:

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

DEFAULT_LANGUAGE = "zh"
LANGUAGES = ("zh", "en")
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}
RELEASES_DIR = "releases"

# Labels exactly as official posts print them. "unlabeled" is for posts that give none (common before
# 1.6); pages show it as "no label" instead of guessing one.
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

def area_slug(area: str) -> str:
    """The topic page name of an area: docs/topics/<slug>.md."""
    return "cpp" if area == "C++" else area.lower()


REQUIRED_FIELDS = ("version", "date", "title", "summary", "source", "features")
OPTIONAL_FIELDS = ("source_note", "description")
FEATURE_FIELDS = ("id", "name", "area", "maturity")
OPTIONAL_FEATURE_FIELDS = ("note",)

VERSION_RE = re.compile(r"^\d+\.\d+$")
DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
FEATURE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class ReleaseDataError(Exception):
    """Raised with every problem found, so one run reports them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.path, p.line, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Feature:
    id: str
    name: str
    area: str
    maturity: str
    line: int
    note: str | None = None


@dataclass
class ReleasePage:
    """One language's page of one release."""

    path: str  # as shown in messages, relative to the project when possible
    src_uri: str  # relative to docs_dir, e.g. "releases/1.6.en.md"
    lang: str
    version: str
    date: dt.date
    title: str
    summary: str
    source: str
    features: tuple[Feature, ...]
    source_note: str | None = None
    description: str | None = None
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """Site-relative URL with directory URLs, e.g. "en/releases/1.6/"."""
        prefix = "" if self.lang == DEFAULT_LANGUAGE else f"{self.lang}/"
        return f"{prefix}{RELEASES_DIR}/{_stem(Path(self.src_uri))}/"

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
    def date(self) -> dt.date:
        return self.pages[DEFAULT_LANGUAGE].date

    @property
    def source(self) -> str:
        return self.pages[DEFAULT_LANGUAGE].source

    @property
    def features(self) -> tuple[Feature, ...]:
        return self.pages[DEFAULT_LANGUAGE].features


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
        """The release before `version` in time, or None for the oldest."""
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


# --- front matter parsing -------------------------------------------------------------------------


class _FrontMatterLoader(yaml.SafeLoader):
    """SafeLoader that leaves dates as strings, so a bad date is reported with its line, not a crash."""


_FrontMatterLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def split_front_matter(text: str) -> tuple[str, str, int] | None:
    """Return (front matter, body, line of the body's first line) or None when not closed."""
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :]), i + 2
    return None


def _scalar_nodes(mapping: yaml.MappingNode) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    return {key.value: (key, value) for key, value in mapping.value if isinstance(key, yaml.ScalarNode)}


def _duplicate_keys(mapping: yaml.MappingNode) -> list[yaml.Node]:
    seen: set[str] = set()
    dupes = []
    for key, _ in mapping.value:
        if isinstance(key, yaml.ScalarNode):
            if key.value in seen:
                dupes.append(key)
            seen.add(key.value)
    return dupes


def _text(node: yaml.Node) -> str | None:
    """A non-empty string scalar, or None."""
    if isinstance(node, yaml.ScalarNode) and node.value.strip():
        return node.value.strip()
    return None


def parse_release_page(path: Path, docs_dir: Path, shown_path: str) -> tuple[ReleasePage | None, list[Problem]]:
    problems: list[Problem] = []

    def problem(line: int, message: str) -> None:
        problems.append(Problem(shown_path, line, message))

    try:
        text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        return None, [Problem(shown_path, 1, f"not valid UTF-8: {exc.reason}")]
    if not text.startswith("---\n"):
        return None, [Problem(shown_path, 1, "missing front matter: a release page must start with a '---' line")]
    split = split_front_matter(text)
    if split is None:
        return None, [Problem(shown_path, 1, "front matter is not closed: add a '---' line after it")]
    front, body, body_line = split
    offset = 2  # line number of the first front matter line

    try:
        loader = _FrontMatterLoader(front)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = offset + (mark.line if mark else 0)
        return None, [Problem(shown_path, line, f"malformed front matter: {exc.problem or exc}")]
    if not isinstance(root, yaml.MappingNode):
        return None, [Problem(shown_path, 1, "malformed front matter: expected 'key: value' lines")]

    def line_of(node: yaml.Node) -> int:
        return offset + node.start_mark.line

    for dupe in _duplicate_keys(root):
        problem(line_of(dupe), f"duplicate field '{dupe.value}'")
    nodes = _scalar_nodes(root)
    lines = {name: line_of(key) for name, (key, _) in nodes.items()}
    for name, (key, _) in nodes.items():
        if name not in REQUIRED_FIELDS + OPTIONAL_FIELDS:
            problem(line_of(key), f"unknown field '{name}' (allowed: {', '.join(REQUIRED_FIELDS + OPTIONAL_FIELDS)})")
    for name in REQUIRED_FIELDS:
        if name not in nodes:
            problem(1, f"missing required field '{name}'")

    values: dict[str, str | None] = {}
    for name in ("version", "title", "summary", "source", "source_note", "description"):
        if name in nodes:
            key, value = nodes[name]
            values[name] = _text(value)
            if values[name] is None:
                problem(line_of(key), f"field '{name}' must be a non-empty text")

    version = values.get("version")
    if version and not VERSION_RE.match(version):
        problem(lines["version"], f"bad version '{version}': expected MAJOR.MINOR, e.g. '1.6'")
        version = None
    source = values.get("source")
    if source and not source.startswith("https://"):
        problem(lines["source"], f"bad source URL '{source}': expected an https:// link to the official post")

    date = None
    if "date" in nodes:
        key, value = nodes["date"]
        raw = value.value if isinstance(value, yaml.ScalarNode) else ""
        date = _parse_date(str(raw))
        if date is None:
            problem(line_of(key), f"bad date '{raw}': expected a real calendar date as YYYY-MM-DD")

    features: list[Feature] = []
    if "features" in nodes:
        key, value = nodes["features"]
        if not isinstance(value, yaml.SequenceNode):
            problem(line_of(key), "field 'features' must be a list of features")
        else:
            features = _parse_features(value, line_of, problem)

    _check_feature_sections(features, body, body_line, problem)
    _check_fences(body, body_line, problem)

    if problems or version is None or date is None:
        return None, problems
    page = ReleasePage(
        path=shown_path,
        src_uri=path.relative_to(docs_dir).as_posix(),
        lang=language_of(path),
        version=version,
        date=date,
        title=values["title"] or "",
        summary=values["summary"] or "",
        source=source or "",
        features=tuple(features),
        source_note=values.get("source_note"),
        description=values.get("description"),
        lines=lines,
    )
    return page, problems


def _parse_date(raw: str) -> dt.date | None:
    match = DATE_RE.match(raw.strip())
    if not match:
        return None
    try:
        return dt.date(*(int(g) for g in match.groups()))
    except ValueError:
        return None


def _parse_features(seq: yaml.SequenceNode, line_of, problem) -> list[Feature]:
    features: list[Feature] = []
    first_line_of_id: dict[str, int] = {}
    for item in seq.value:
        if not isinstance(item, yaml.MappingNode):
            problem(line_of(item), "each feature must be a mapping with id, name, area and maturity")
            continue
        nodes = _scalar_nodes(item)
        for name, (key, _) in nodes.items():
            if name not in FEATURE_FIELDS + OPTIONAL_FEATURE_FIELDS:
                problem(line_of(key), f"unknown feature field '{name}' (allowed: {', '.join(FEATURE_FIELDS + OPTIONAL_FEATURE_FIELDS)})")
        fields: dict[str, str | None] = {}
        for name in FEATURE_FIELDS:
            if name not in nodes:
                problem(line_of(item), f"feature is missing required field '{name}'")
                fields[name] = None
                continue
            key, value = nodes[name]
            fields[name] = _text(value)
            if fields[name] is None:
                problem(line_of(key), f"feature field '{name}' must be a non-empty text")
        fid, area, maturity = fields["id"], fields["area"], fields["maturity"]
        if fid and not FEATURE_ID_RE.match(fid):
            problem(line_of(nodes["id"][0]), f"bad feature id '{fid}': use lowercase letters, digits and '-'")
            fid = None
        if fid and fid in first_line_of_id:
            problem(line_of(nodes["id"][0]), f"duplicate feature id '{fid}' (first used on line {first_line_of_id[fid]})")
            fid = None
        if area and area not in AREAS:
            problem(line_of(nodes["area"][0]), f"unknown area '{area}' (expected one of: {', '.join(AREAS)})")
            area = None
        if maturity and maturity not in MATURITY_LABELS:
            problem(
                line_of(nodes["maturity"][0]),
                f"unknown maturity label '{maturity}' (expected one of: {', '.join(MATURITY_LABELS)})",
            )
            maturity = None
        note = _text(nodes["note"][1]) if "note" in nodes else None
        if fid and fields["name"] and area and maturity:
            first_line_of_id[fid] = line_of(item)
            features.append(Feature(fid, fields["name"], area, maturity, line_of(item), note))
    return features


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
    for line, in_code in zip(lines, scan_fences(lines)[0]):
        heading = None if in_code else re.match(r"^#{2,6}\s.*\{([^}]*)\}\s*$", line)
        if heading:
            anchors.update(re.findall(r"#([\w-]+)", heading.group(1)))
    return anchors


def _check_feature_sections(features: list[Feature], body: str, body_line: int, problem) -> None:
    anchors = heading_anchors(body)
    for feature in features:
        if feature.id not in anchors:
            problem(feature.line, f"feature '{feature.id}' has no section: add a heading ending in '{{ #{feature.id} }}'")


def _check_fences(body: str, body_line: int, problem) -> None:
    """An unclosed fence swallows the rest of the page silently; report where it opened."""
    lines = body.split("\n")
    unclosed = scan_fences(lines)[1]
    if unclosed is not None:
        fence = re.match(r"(`{3,}|~{3,})", lines[unclosed].strip()).group(1)
        problem(body_line + unclosed, f"code fence '{fence}' opened here is never closed")


# --- the whole catalog ----------------------------------------------------------------------------


def _shown(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _stem(path: Path) -> str:
    """`1.6.en.md` -> `1.6`: the name shared by a release's language pages."""
    stem = path.name[: -len(".md")]
    lang = language_of(path)
    return stem[: -len(lang) - 1] if stem.endswith(f".{lang}") else stem


def load_catalog(docs_dir: Path | str) -> Catalog:
    """Read and validate every release page under docs_dir/releases; raise ReleaseDataError on any problem."""
    docs_dir = Path(docs_dir)
    problems: list[Problem] = []
    pages: list[ReleasePage] = []
    broken: set[tuple[str, str]] = set()  # (file stem, language) of pages that failed to parse
    for path in sorted((docs_dir / RELEASES_DIR).glob("*.md")):
        page, found = parse_release_page(path, docs_dir, _shown(path))
        problems.extend(found)
        if page:
            pages.append(page)
        else:
            broken.add((_stem(path), language_of(path)))

    by_version: dict[str, dict[str, ReleasePage]] = {}
    for page in pages:
        same = by_version.setdefault(page.version, {})
        if page.lang in same:
            first = same[page.lang]
            problems.append(
                Problem(page.path, page.lines["version"], f"duplicate version '{page.version}': also declared in {first.path}:{first.lines['version']}")
            )
            continue
        same[page.lang] = page

    releases = []
    for version, per_lang in by_version.items():
        missing = [lang for lang in LANGUAGES if lang not in per_lang]
        for lang in missing:
            present = next(iter(per_lang.values()))
            if (_stem(Path(present.src_uri)), lang) in broken:
                continue  # the other page exists but is already reported as broken
            expected = _shown(docs_dir / RELEASES_DIR / page_file_name(version, lang))
            problems.append(
                Problem(present.path, present.lines["version"], f"release {version} has no {LANGUAGE_NAMES[lang]} page: add {expected}")
            )
        if not missing:
            problems.extend(_parity_problems(per_lang))
            releases.append(Release(version, per_lang))

    if problems:
        raise ReleaseDataError(problems)
    releases.sort(key=lambda r: version_key(r.version), reverse=True)
    return Catalog(releases)


def _parity_problems(per_lang: dict[str, ReleasePage]) -> list[Problem]:
    """The translation must carry the same facts: date, source and features with the same labels."""
    base = per_lang[DEFAULT_LANGUAGE]
    problems = []
    for lang, page in per_lang.items():
        if lang == DEFAULT_LANGUAGE:
            continue
        for name in ("date", "source"):
            if getattr(page, name) != getattr(base, name):
                problems.append(
                    Problem(page.path, page.lines[name], f"{name} '{getattr(page, name)}' differs from {base.path}:{base.lines[name]} ('{getattr(base, name)}')")
                )
        base_ids = [f.id for f in base.features]
        ids = [f.id for f in page.features]
        if ids != base_ids:
            problems.append(
                Problem(page.path, page.lines["features"], f"features {ids} differ from {base.path}:{base.lines['features']} ({base_ids}); translations list the same feature ids in the same order")
            )
            continue
        for mine, theirs in zip(page.features, base.features):
            for attr in ("area", "maturity"):
                if getattr(mine, attr) != getattr(theirs, attr):
                    problems.append(
                        Problem(page.path, mine.line, f"feature '{mine.id}' has {attr} '{getattr(mine, attr)}' but {base.path}:{theirs.line} says '{getattr(theirs, attr)}'")
                    )
    return problems


# --- shared by the build hooks ----------------------------------------------------------------------

_CACHE: dict[str, tuple[tuple, Catalog]] = {}


def cached_catalog(docs_dir: Path | str) -> Catalog:
    """load_catalog, memoised on the release files' names and modification times.

    static-i18n runs a full build per language and `mkdocs serve` rebuilds on every change, so every
    hook asks for the catalog many times; re-parsing only when a file changed keeps that cheap.
    """
    docs_dir = Path(docs_dir)
    files = sorted((docs_dir / RELEASES_DIR).glob("*.md"))
    stamp = tuple((f.name, f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    key = str(docs_dir.resolve())
    hit = _CACHE.get(key)
    if hit and hit[0] == stamp:
        return hit[1]
    catalog = load_catalog(docs_dir)
    _CACHE[key] = (stamp, catalog)
    return catalog


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.releases", description="Validate every release page's front matter and print a summary.")
    parser.add_argument("--docs-dir", default="docs", help="the MkDocs docs_dir (default: docs)")
    args = parser.parse_args(argv)
    try:
        catalog = load_catalog(args.docs_dir)
    except ReleaseDataError as exc:
        print(exc, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s) found", file=sys.stderr)
        return 1
    for release in catalog.releases:
        counts = ", ".join(f"{n} {label}" for label, n in release.pages[DEFAULT_LANGUAGE].maturity_counts().items())
        print(f"{release.version:>5}  {release.date}  {len(release.features)} features ({counts})")
    print(f"{len(catalog.releases)} releases, {len(catalog.releases) * len(LANGUAGES)} pages: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
