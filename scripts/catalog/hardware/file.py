"""Reading docs/.hardware.yml: composed strictly like the release pages' front matter (no tags, no aliases, the line
of every value), every value checked, every problem a `Problem` with file:line (`load_hardware`). Sources and
caveats are defined once and must be used; a value that is not official must name its caveat.

`hardware_problems` holds the file to the release pages: a build tag must be one of the CUDA variants the
releases of its range claim (`compat: cuda`; the file does not repeat them), no build is listed twice for a
release and platform, every CUDA version a page claims needs a driver entry, and every release named has a page.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from scripts.catalog.compat import EVIDENCE_KEYS, PLATFORMS
from scripts.catalog.frontmatter import Problem, Reader, compose_document, read_page_text, shown_path
from scripts.catalog.hardware.model import (
    BUILD_RE,
    HARDWARE_FILE,
    ArchList,
    BuildLibraries,
    CondaEnd,
    DriverMinimum,
    Fact,
    Generation,
    Hardware,
    MpsFloor,
    Source,
    Xpu,
    cuda_of_build,
    release_key,
)

LANGS = ("zh", "en")
RELEASE_RE = re.compile(r"^\d+\.\d+$")
CAPABILITY_RE = re.compile(r"^\d{1,2}\.\d$")
GENERATION_RE = re.compile(r"^\d{1,2}\.(\d|x)$")
CUDA_KEY_RE = re.compile(r"^\d{1,2}\.(\d|x)$")
DRIVER_RE = re.compile(r"^\d{3}(\.\d{1,3}){0,2}$")
LIBRARY_RE = re.compile(r"^\d+(\.\d+){1,3}$")
MACOS_RE = re.compile(r"^\d{1,2}\.\d{1,2}$")
KEY_RE = re.compile(r"^[A-Z][A-Z0-9-]*$")
CAVEAT_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
TOP = ("sources", "caveats", "generations", "binary_compatibility", "arch_lists", "drivers", "libraries", "mps")
TOP_ALL = TOP + ("xpu", "conda")
FACT_KEYS = ("sources", "evidence", "caveat")


def load_hardware(docs_dir: Path) -> tuple[Hardware | None, list[Problem]]:
    """docs/.hardware.yml read and checked on its own (None without problems where there is no such file)."""
    path = Path(docs_dir) / HARDWARE_FILE
    if not path.is_file():
        return None, []
    shown = shown_path(path)
    text, problems = read_page_text(path, shown)
    if text is None:
        return None, problems
    root, problems = compose_document(text, shown, 1, "YAML")
    if root is None:
        return None, problems or [Problem(shown, 1, "the file is empty")]
    r = Reader(shown, 1)
    hardware = _Read(r).hardware(root, shown)
    return (None, r.problems) if r.problems or hardware is None else (hardware, [])


class _Read:
    """One pass over the file; every problem is recorded on the Reader, with its line."""

    def __init__(self, r: Reader):
        self.r = r
        self.sources: dict[str, Source] = {}
        self.caveats: dict[str, dict[str, str]] = {}
        self.used_sources: set[str] = set()
        self.used_caveats: set[str] = set()

    def hardware(self, root: yaml.Node, shown: str) -> Hardware | None:
        r = self.r
        fields = r.fields(root, "the hardware file", TOP_ALL, TOP)
        if fields is None or any(name not in fields for name in TOP):
            return None
        self.sources = self._sources(fields["sources"][1])
        self.caveats = self._caveats(fields["caveats"][1])
        one = self.one
        hardware = Hardware(
            path=shown,
            sources=self.sources,
            caveats=self.caveats,
            generations=tuple(self.items(fields["generations"][1], "generations", self._generation)),
            binary_compatibility=one(fields["binary_compatibility"][1], "binary_compatibility", (), lambda n, v, f: f),
            arch_lists=tuple(self.items(fields["arch_lists"][1], "arch_lists", self._arch_list)),
            drivers=tuple(self.items(fields["drivers"][1], "drivers", self._driver)),
            libraries=tuple(self.items(fields["libraries"][1], "libraries", self._libraries)),
            mps=tuple(sorted(self.items(fields["mps"][1], "mps", self._mps), key=lambda m: release_key(m.since))),
            xpu=one(fields["xpu"][1], "xpu", *self._xpu) if "xpu" in fields else None,
            conda=one(fields["conda"][1], "conda", *self._conda) if "conda" in fields else None,
        )
        for key in sorted(set(self.sources) - self.used_sources):
            r.problem(r.line(fields["sources"][1]), f"source '{key}' is not used by any value: remove it")
        for key in sorted(set(self.caveats) - self.used_caveats):
            r.problem(r.line(fields["caveats"][1]), f"caveat '{key}' is not used by any value: remove it")
        return hardware

    # -- the shared parts

    def _sources(self, node: yaml.Node) -> dict[str, Source]:
        r, out = self.r, dict[str, Source]()
        if not isinstance(node, yaml.MappingNode):
            r.problem(r.line(node), "sources is a mapping of KEY: {name: ..., zh: ..., url: https://...}")
            return out
        for key_node, value in node.value:
            key = key_node.value
            if not KEY_RE.match(key):
                r.problem(r.line(key_node), f"bad source key '{key}': capitals, digits and '-' (e.g. GH-182849)")
                continue
            fields = r.fields(value, f"source {key}", ("name", "zh", "url"), ("name", "url"))
            if fields is None:
                continue
            # A page names a source in its own language: a Chinese page never shows the English name.
            zh = r.text(fields["zh"][1], "zh") if "zh" in fields else None
            if "zh" not in fields:
                r.problem(r.line(value), f'source {key} has no Chinese name: add zh: "..." beside its name')
            if "name" in fields and "url" in fields:
                name, url = r.text(fields["name"][1], "name"), r.url(fields["url"][1], "url")
                if name and url:  # kept without its zh (the problem is reported) so its uses are not unknown too
                    out[key] = Source(key, name, url, zh or "")
        return out

    def _caveats(self, node: yaml.Node) -> dict[str, dict[str, str]]:
        r, out = self.r, dict[str, dict[str, str]]()
        if not isinstance(node, yaml.MappingNode):
            r.problem(r.line(node), "caveats is a mapping of id: {zh: ..., en: ...}")
            return out
        for key_node, value in node.value:
            if not CAVEAT_RE.match(key_node.value):
                r.problem(r.line(key_node), f"bad caveat id '{key_node.value}': lowercase letters, digits and '-'")
                continue
            fields = r.fields(value, f"caveat {key_node.value}", LANGS, LANGS)
            words = {lang: r.text(fields[lang][1], lang) for lang in LANGS if fields and lang in fields}
            if len(words) == len(LANGS) and all(words.values()):
                out[key_node.value] = {lang: text for lang, text in words.items() if text}
        return out

    def _fact(self, node: yaml.Node, values: dict) -> Fact | None:
        r = self.r
        count = len(r.problems)
        listed = r.text_list(values["sources"][1], "sources") or []
        for key in listed:
            if key not in self.sources:
                r.problem(r.line(values["sources"][1]), f"unknown source '{key}' (define it under sources)")
            self.used_sources.add(key)
        evidence = r.choice(values["evidence"][1], "evidence", EVIDENCE_KEYS, "evidence")
        caveat = r.text(values["caveat"][1], "caveat") if "caveat" in values else None
        if caveat is not None:
            self.used_caveats.add(caveat)
            if caveat not in self.caveats:
                r.problem(r.line(values["caveat"][1]), f"unknown caveat '{caveat}' (define it under caveats)")
        if evidence and evidence != "official" and caveat is None:
            r.problem(r.line(node), f"a value with evidence '{evidence}' needs a caveat: say why it is not official")
        if len(r.problems) != count or not listed or evidence is None:
            return None
        return Fact(tuple(listed), evidence, caveat, r.line(node))

    def one(self, node: yaml.Node, where: str, own: tuple[str, ...], make, required: tuple[str, ...] | None = None):
        """An entry: its own keys (`own`; all required unless `required` says) and the fact keys."""
        r = self.r
        needed = own if required is None else required
        values = r.fields(node, where, own + FACT_KEYS, needed + ("sources", "evidence"))
        if values is None or any(key not in values for key in needed + ("sources", "evidence")):
            return None
        count = len(r.problems)
        fact = self._fact(node, values)
        made = make(node, values, fact) if fact else None
        return made if len(r.problems) == count else None

    def items(self, node: yaml.Node, name: str, spec) -> list:
        own, make, *required = spec
        return [
            made
            for item in self.r.sequence(node, name) or []
            if (made := self.one(item, f"an entry of {name}", own, make, *required)) is not None
        ]

    def _list(self, values: dict, key: str, pattern: re.Pattern, expected: str) -> tuple[str, ...]:
        return tuple(self.r.text_list(values[key][1], key, pattern, expected) or ())

    def _platforms(self, values: dict) -> tuple[str, ...]:
        listed = self.r.text_list(values["platforms"][1], "platforms") or []
        for platform in listed:
            if platform not in PLATFORMS:
                self.r.problem(
                    self.r.line(values["platforms"][1]),
                    f"unknown platform '{platform}' (known: {', '.join(PLATFORMS)})",
                )
        return tuple(listed)

    def _range(self, values: dict) -> tuple[str, str]:
        """`releases: ["2.9", "2.10"]` (first and last, both included) or `["2.9"]` (that release only)."""
        r, node = self.r, values["releases"][1]
        items = r.sequence(node, "releases") or []
        listed = [r.matching(item, "releases", RELEASE_RE, "minor releases such as '2.9'") for item in items]
        if not listed or len(listed) > 2 or None in listed:
            r.problem(r.line(node), 'releases is [first, last] or [one], e.g. ["2.9", "2.10"] or ["2.8"]')
            return ("0.0", "0.0")
        first, last = listed[0] or "", listed[-1] or ""
        if release_key(first) >= release_key(last) and len(listed) == 2:
            r.problem(
                r.line(node), f"releases [{first}, {last}]: the first comes before the last (one release: [{first}])"
            )
        return first, last

    def _builds(self, values: dict) -> tuple[str, ...]:
        return self._list(values, "builds", BUILD_RE, "CUDA build tags such as cu126")

    def _release(self, values: dict, key: str) -> str:
        return self.r.matching(values[key][1], key, RELEASE_RE, "a minor release such as '2.5'") or ""

    # -- the entries: (own keys, maker[, required own keys])

    @property
    def _generation(self):
        def make(node, values, fact):
            name = self.r.text(values["name"][1], "name") or ""
            capabilities = self._list(
                values, "capabilities", GENERATION_RE, "compute capabilities such as '8.6' or '5.x'"
            )
            return Generation(name, capabilities, fact)

        return ("name", "capabilities"), make

    @property
    def _arch_list(self):
        def make(node, values, fact):
            first, last = self._range(values)
            archs = self._list(values, "archs", CAPABILITY_RE, "compute capabilities such as '8.6'")
            ptx = (
                self._list(values, "ptx", CAPABILITY_RE, "compute capabilities such as '9.0'")
                if "ptx" in values
                else ()
            )
            for value in ptx:
                if value not in archs:
                    self.r.problem(self.r.line(values["ptx"][1]), f"ptx {value} is not one of the build's archs")
            return ArchList(first, last, self._builds(values), self._platforms(values), archs, ptx, fact)

        return ("releases", "builds", "platforms", "archs", "ptx"), make, ("releases", "builds", "platforms", "archs")

    @property
    def _driver(self):
        def make(node, values, fact):
            r = self.r
            cuda = r.matching(values["cuda"][1], "cuda", CUDA_KEY_RE, "a CUDA version such as '10.2' or '12.x'") or ""
            linux = r.matching(values["linux"][1], "linux", DRIVER_RE, "a driver version such as '450.80.02'") or ""
            windows = r.matching(values["windows"][1], "windows", DRIVER_RE, "a driver version such as '452.39'") or ""
            return DriverMinimum(cuda, linux, windows, fact)

        return ("cuda", "linux", "windows"), make

    @property
    def _libraries(self):
        def make(node, values, fact):
            r = self.r
            first, last = self._range(values)
            versions = {
                name: r.matching(values[name][1], name, LIBRARY_RE, "a version such as '9.10.2.21'")
                for name in ("cudnn", "nccl")
                if name in values
            }
            if not versions:
                r.problem(r.line(node), "a libraries entry gives cudnn, nccl or both")
            return BuildLibraries(first, last, self._builds(values), versions.get("cudnn"), versions.get("nccl"), fact)

        return ("releases", "builds", "cudnn", "nccl"), make, ("releases", "builds")

    @property
    def _mps(self):
        def make(node, values, fact):
            r = self.r
            macos = r.matching(values["macos"][1], "macos", MACOS_RE, "a macOS version such as '12.3'") or ""
            raised = (
                r.choice(values["raised_later"][1], "raised_later", ("true", "false"))
                if "raised_later" in values
                else "false"
            )
            return MpsFloor(self._release(values, "since"), macos, raised == "true", fact)

        return ("since", "macos", "raised_later"), make, ("since", "macos")

    @property
    def _xpu(self):
        def make(node, values, fact):
            index = self.r.url(values["index"][1], "index") or ""
            return Xpu(self._release(values, "since"), self._platforms(values), index, fact)

        return ("since", "platforms", "index"), make

    @property
    def _conda(self):
        def make(node, values, fact):
            channel = self.r.text(values["channel"][1], "channel") or ""
            return CondaEnd(self._release(values, "last"), channel, fact)

        return ("last", "channel"), make


# --- against the release pages --------------------------------------------------------------------------------


def _variants(release) -> set[str]:
    """Every CUDA version a release's page claims, any channel or patch, and PyPI's default where a page says."""
    compat = release.compat
    if compat is None:
        return set()
    return {
        value
        for name in ("cuda", "pypi_cuda")
        for claim in compat.claims(name)
        for value in claim.values + claim.experimental
    }


def hardware_problems(hardware: Hardware | None, releases) -> list[Problem]:
    """What the hardware file says that the release pages contradict or lack."""
    if hardware is None:
        return []
    path = hardware.path
    pages = {r.version: r for r in releases}
    problems: list[Problem] = []

    def named(version: str, line: int, what: str) -> None:
        if version and version not in pages:
            problems.append(Problem(path, line, f"{what} {version} has no release page"))

    for entry in list(hardware.arch_lists) + list(hardware.libraries):
        named(entry.first, entry.fact.line, "release")
        named(entry.last, entry.fact.line, "release")
        in_range = [r for v, r in pages.items() if entry.covers(v)]
        for build in entry.builds:
            cuda = cuda_of_build(build)
            if not any(cuda in _variants(r) for r in in_range):
                problems.append(
                    Problem(
                        path,
                        entry.fact.line,
                        f"{build}: no release from {entry.first} to {entry.last} claims CUDA {cuda} "
                        "(the pages' compat: cuda lists the variants)",
                    )
                )
    seen: dict[tuple[str, str, str], int] = {}
    for entry in hardware.arch_lists:
        for version in (v for v in pages if entry.covers(v)):
            for build in entry.builds:
                for platform in entry.platforms:
                    line = seen.setdefault((version, build, platform), entry.fact.line)
                    if line != entry.fact.line:
                        problems.append(
                            Problem(
                                path,
                                entry.fact.line,
                                f"{build} of {version} on {platform} is also listed at line {line}",
                            )
                        )
    for release in sorted(releases, key=lambda r: release_key(r.version)):
        for cuda in sorted(_variants(release), key=release_key):
            if hardware.driver(cuda) is None:
                line = hardware.drivers[0].fact.line if hardware.drivers else 1
                problems.append(
                    Problem(path, line, f"no driver entry covers CUDA {cuda} ({release.facts.path} claims it)")
                )
    for floor in hardware.mps:
        named(floor.since, floor.fact.line, "release")
    if hardware.xpu:
        named(hardware.xpu.since, hardware.xpu.fact.line, "release")
    if hardware.conda:
        named(hardware.conda.last, hardware.conda.fact.line, "release")
    return list(dict.fromkeys(problems))
