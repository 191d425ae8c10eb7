"""Compatibility facts of a release: Python, CUDA, ROCm and C++ of the official binaries, and the matching
torchvision / torchaudio. Written once, in the Chinese page's front matter under `compat:`.

Every value is a *claim* that names its sources and how well it is known, because the sources disagree
and the site shows disagreements instead of resolving them silently:

    compat:
      python:
        - supported: ["3.9", "3.10", "3.11", "3.12", "3.13"]
          experimental: ["3.13t"]
          sources: [R]
          evidence: copy
        - supported: ["3.9", "3.10", "3.11", "3.12"]     # a second claim for the same scope: a conflict
          sources: [V]
          evidence: copy
          note: torchvision-python                       # a note id, words under compat.notes
      cuda:
        - {stable: ["11.8", "12.4"], experimental: ["12.6"], sources: [R], evidence: copy}
      rocm:
        - {versions: ["6.2.4"], sources: [R], evidence: copy}
      cxx:
        - {standard: "17", sources: [R], evidence: official}
      torchvision:
        - {torch: ["2.6.0"], version: "0.21.0", sources: [P], evidence: official}
      torchaudio:
        - {torch: ["2.6.0"], version: "2.6.0", sources: [P, A], evidence: official}
      pypi_cuda:                  # which CUDA build plain `pip install torch==X` gets from PyPI, where a source
        - {version: "…", sources: [P], evidence: official}   # says so (e.g. 10.2 for 1.5–1.8.0)
      not_on_pypi: ["1.8.2"]   # patch releases PyPI never had (checked by scripts/checks/verify_compat.py)
      notes:
        - {id: torchvision-python, text: "…"}

A claim may be scoped to some patch releases (`torch: ["1.8.1"]`, which must be listed in the page's
`patches`) and to one channel (`channel: conda`). Claims with the same scope and different values are a
conflict; the first is shown as the value, the others beside it with their sources.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import yaml

FIELDS = ("python", "cuda", "rocm", "cxx", "torchvision", "torchaudio", "pypi_cuda")
CHANNELS = ("pip", "conda")

# The sources of ../shared/reference/compatibility.md, by the keys it uses.
SOURCES: dict[str, dict[str, str]] = {
    "R": {
        "zh": "PyTorch RELEASE.md 的兼容性矩阵",
        "en": "PyTorch's RELEASE.md compatibility matrix",
        "url": "https://github.com/pytorch/pytorch/blob/main/RELEASE.md",
    },
    "V": {
        "zh": "torchvision README 的版本对应表",
        "en": "the torchvision README's version table",
        "url": "https://github.com/pytorch/vision#installation",
    },
    "A": {
        "zh": "torchaudio 文档的兼容性矩阵",
        "en": "torchaudio's compatibility matrix",
        "url": "https://docs.pytorch.org/audio/2.11.0/installation.html",
    },
    "P": {
        "zh": "官方“Previous PyTorch Versions”安装页",
        "en": "the official Previous PyTorch Versions install page",
        "url": "https://pytorch.org/get-started/previous-versions/",
    },
    "W": {
        "zh": "PyTorch wiki 的“PyTorch Versions”页（第三方副本）",
        "en": "the PyTorch wiki page PyTorch Versions (third-party copy)",
        "url": "https://github.com/pytorch/pytorch/wiki/PyTorch-Versions",
    },
    "B": {"zh": "该版本的官方发布文章", "en": "the release's own post", "url": ""},
    "PyPI": {"zh": "PyPI 上的 wheel 元数据", "en": "wheel metadata on PyPI", "url": "https://pypi.org/project/torch/"},
    "X": {
        "zh": "第三方项目中的版本固定（旁证）",
        "en": "version pins in third-party projects (corroboration)",
        "url": "",
    },
    "I": {
        "zh": "PyTorch 发布团队在 GitHub 上的 issue 与 PR（例如某一版本的 CUDA 支持矩阵 RFC；说明中写明编号）",
        "en": "the PyTorch release team's issues and pull requests on GitHub (such as a release's CUDA support matrix RFC; the note names them)",
        "url": "",
    },
}
EVIDENCE_KEYS = ("official", "copy", "derived")

PYTHON_VERSIONS = (
    "2.7",
    "3.5",
    "3.6",
    "3.7",
    "3.8",
    "3.9",
    "3.10",
    "3.11",
    "3.12",
    "3.13",
    "3.14",
    "3.15",
    "3.13t",
    "3.14t",
    "3.15t",
)
CUDA_VERSIONS = (
    "7.5", "8.0", "9.0", "9.1", "9.2", "10.0", "10.1", "10.2", "11.0", "11.1", "11.3", "11.5", "11.6", "11.7", "11.8",
    "12.1", "12.4", "12.6", "12.8", "12.9", "13.0", "13.2",
)  # fmt: skip
CXX_STANDARDS = ("14", "17", "20")
# The platforms official wheels are for, and every per-platform answer names (scripts/registry/wheels.py reads
# PyPI's file names into them; docs/.hardware.yml names them).
PLATFORMS = ("linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows")
KNOWN_VERSIONS = {
    "python": ("Python", PYTHON_VERSIONS),
    "cuda": ("CUDA", CUDA_VERSIONS),
    "pypi_cuda": ("CUDA", CUDA_VERSIONS),
}


def python_key(version: str) -> tuple:
    """Sort key of a Python version ("3.9" < "3.10" < "3.13t"); a pure wheel's "py2"/"py3" after every 2.x / 3.x."""
    if version in ("py2", "py3"):
        return (int(version[2]), 99, False)
    major, minor = version.rstrip("t").split(".")
    return int(major), int(minor), version.endswith("t")


ROCM_RE = re.compile(r"^\d\.\d{1,2}(\.\d{1,2}){0,2}$", re.ASCII)
LIBRARY_VERSION_RE = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$", re.ASCII)
NOTE_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")

# What each field's claim holds, and how its values are checked.
_VALUE_KEYS = {
    "python": ("supported", "experimental"),
    "cuda": ("stable", "experimental"),
    "rocm": ("versions",),
    "cxx": ("standard",),
    "torchvision": ("version",),
    "torchaudio": ("version",),
    "pypi_cuda": ("version",),  # the CUDA version of the build PyPI serves by default (`pip install torch==X`)
}
_COMMON_KEYS = ("torch", "channel", "sources", "evidence", "note")


@dataclass(frozen=True)
class Claim:
    values: tuple[
        str, ...
    ]  # python: supported · cuda: stable · rocm: versions · cxx: (standard,) · libraries: (version,)
    sources: tuple[str, ...]
    evidence: str
    line: int
    experimental: tuple[str, ...] = ()  # python: experimental builds (e.g. 3.13t) · cuda: experimental CUDA
    torch: tuple[str, ...] = ()  # the patch releases this claim is about; () = the whole release
    channel: str | None = None  # pip / conda; None = both or not stated
    note: str | None = None  # id of a note under compat.notes

    @property
    def scope(self) -> tuple[tuple[str, ...], str | None]:
        return self.torch, self.channel


@dataclass(frozen=True)
class Compat:
    python: tuple[Claim, ...] = ()
    cuda: tuple[Claim, ...] = ()
    rocm: tuple[Claim, ...] = ()
    cxx: tuple[Claim, ...] = ()
    torchvision: tuple[Claim, ...] = ()
    torchaudio: tuple[Claim, ...] = ()
    pypi_cuda: tuple[Claim, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)  # note id -> text in the page's language
    not_on_pypi: tuple[str, ...] = ()  # patch releases that exist (download.pytorch.org) but never were on PyPI

    def claims(self, name: str) -> tuple[Claim, ...]:
        return getattr(self, name)

    def with_notes(self, notes: dict | None) -> Compat:
        """The same facts with another language's note texts (`{id: {"name": text}}` as read from a page)."""
        if notes is None:
            return self
        return replace(self, notes={nid: words["name"] for nid, words in notes.items()})

    def primary(self, name: str) -> list[Claim]:
        """One claim per scope: the first written. The others for that scope are conflicts."""
        seen: dict = {}
        for claim in self.claims(name):
            seen.setdefault(claim.scope, claim)
        return list(seen.values())

    def conflicts(self, name: str) -> list[tuple[Claim, Claim]]:
        """(shown value, disagreeing claim) pairs: claims of the same scope whose values differ."""
        first: dict = {}
        pairs = []
        for claim in self.claims(name):
            shown = first.setdefault(claim.scope, claim)
            if shown is not claim and (shown.values, shown.experimental) != (claim.values, claim.experimental):
                pairs.append((shown, claim))
        return pairs

    def library_version(self, name: str, patch: str, channel: str = "pip") -> str | None:
        """The torchvision/torchaudio version paired with torch `patch` (a patch-scoped claim first)."""
        for claim in self.primary(name):
            if patch in claim.torch and claim.channel in (None, channel):
                return claim.values[0]
        for claim in self.primary(name):
            if not claim.torch and claim.channel in (None, channel):
                return claim.values[0]
        return None

    def versions(
        self, name: str, patch: str | None = None, channel: str = "pip", experimental: bool = True
    ) -> list[str]:
        """Python/CUDA/ROCm versions of the release's binaries (or of one patch release), first claims only."""
        chosen = [
            c
            for c in self.primary(name)
            if c.channel in (None, channel) and (not c.torch or (patch is not None and patch in c.torch))
        ]
        scoped = [c for c in chosen if c.torch]
        chosen = scoped or chosen  # a patch-scoped claim replaces the release-wide one for that patch
        out: list[str] = []
        for claim in chosen:
            for value in claim.values + (claim.experimental if experimental else ()):
                if value not in out:
                    out.append(value)
        return out


def parse_compat(r, node: yaml.Node, version: str, patches: list[str]) -> Compat | None:
    """Read `compat:` with a frontmatter.Reader; None (problems recorded) when anything is wrong."""
    count = len(r.problems)
    fields = r.fields(node, "compat", FIELDS + ("notes", "not_on_pypi"))
    if fields is None:
        return None
    not_on_pypi: list[str] = []
    if "not_on_pypi" in fields:
        for patch in r.text_list(fields["not_on_pypi"][1], "not_on_pypi") or []:
            if patch not in patches:
                r.problem(r.line(fields["not_on_pypi"][1]), f"not_on_pypi: {patch} is not listed in 'patches'")
            else:
                not_on_pypi.append(patch)
    notes: dict[str, str] = {}
    if "notes" in fields:
        for item in r.sequence(fields["notes"][1], "notes") or []:
            note_fields = r.fields(item, "a compatibility note", ("id", "text"), ("id", "text"))
            if not note_fields or "id" not in note_fields or "text" not in note_fields:
                continue
            nid = r.matching(note_fields["id"][1], "note id", NOTE_ID_RE, "lowercase letters, digits and '-'")
            text = r.text(note_fields["text"][1], "text")
            if nid and nid in notes:
                r.problem(r.line(item), f"duplicate compatibility note id '{nid}'")
            elif nid and text:
                notes[nid] = text
    parsed: dict[str, tuple[Claim, ...]] = {}
    used_notes: set[str] = set()
    for name in FIELDS:
        if name not in fields:
            continue
        claims = []
        for item in r.sequence(fields[name][1], name) or []:
            claim = _parse_claim(r, item, name, version, patches, notes)
            if claim:
                claims.append(claim)
                if claim.note:
                    used_notes.add(claim.note)
        parsed[name] = tuple(claims)
    for nid in notes:
        if nid not in used_notes:
            r.problem(
                r.line(fields["notes"][1]),
                f"compatibility note '{nid}' is not used by any claim (add 'note: {nid}' to one)",
            )
    if len(r.problems) != count:
        return None
    return Compat(notes=notes, not_on_pypi=tuple(not_on_pypi), **parsed)


def _parse_claim(
    r, item: yaml.Node, name: str, version: str, patches: list[str], notes: dict[str, str]
) -> Claim | None:
    value_keys = _VALUE_KEYS[name]
    required = (value_keys[0], "sources", "evidence") + (("torch",) if name in ("torchvision", "torchaudio") else ())
    fields = r.fields(item, f"a {name} claim", value_keys + _COMMON_KEYS, required)
    if fields is None or any(key not in fields for key in required):
        return None
    count = len(r.problems)
    values: dict[str, tuple[str, ...]] = {}
    for key in value_keys:
        if key not in fields:
            continue
        node = fields[key][1]
        if name in KNOWN_VERSIONS:
            what, known = KNOWN_VERSIONS[name]
            items = [r.text(node, key)] if name == "pypi_cuda" else r.text_list(node, key)
            items = None if items is None or None in items else items
            for text in items or []:
                if text not in known:
                    r.problem(r.line(node), f"unknown {what} version '{text}' (known: {', '.join(known)})")
        elif name == "rocm":
            items = r.text_list(node, key, ROCM_RE, "ROCm versions such as '6.2.4'")
        elif name == "cxx":
            one = r.choice(node, key, CXX_STANDARDS, "C++ standard")
            items = [one] if one else None
        else:
            one = r.matching(node, key, LIBRARY_VERSION_RE, "a version such as '0.15.1'")
            items = [one] if one else None
        if items is not None:
            values[key] = tuple(items)
    torch: tuple[str, ...] = ()
    if "torch" in fields:
        node = fields["torch"][1]
        listed = [node.value] if isinstance(node, yaml.ScalarNode) else None
        scope = r.text_list(node, "torch") if listed is None else [r.text(node, "torch")]
        for patch in scope or []:
            if patch is None:
                continue
            if patch not in patches:
                listed_patches = ", ".join(patches) if patches else "none: add 'patches' to the page"
                r.problem(
                    r.line(node),
                    f"torch {patch} is not a patch release of {version} listed in 'patches' ({listed_patches})",
                )
        torch = tuple(p for p in (scope or []) if p)
    channel = r.choice(fields["channel"][1], "channel", CHANNELS, "channel") if "channel" in fields else None
    sources = r.text_list(fields["sources"][1], "sources") or []
    for source in sources:
        if source not in SOURCES:
            r.problem(r.line(fields["sources"][1]), f"unknown source '{source}' (known: {', '.join(SOURCES)})")
    evidence = r.choice(fields["evidence"][1], "evidence", EVIDENCE_KEYS, "evidence")
    note = None
    if "note" in fields:
        note = r.text(fields["note"][1], "note")
        if note and note not in notes:
            r.problem(r.line(fields["note"][1]), f"note '{note}' is not defined under compat.notes")
    if len(r.problems) != count or not sources:
        return None
    return Claim(
        values=values[value_keys[0]],
        experimental=values.get("experimental", ()),
        sources=tuple(sources),
        evidence=evidence,
        line=r.line(item),
        torch=torch,
        channel=channel,
        note=note,
    )
