"""Check 5, C++ against libtorch, in two tiers.

Tier 1 (every run, milliseconds): tree-sitter-cpp must find no ERROR or MISSING node. A block marked
`<!-- snippet: fragment -->` holds statements and is wrapped in a function first.

Tier 2 (`check` without --no-cpp): `g++ -std=c++20 -fsyntax-only` against the headers shipped in the
installed torch wheel. All cpp blocks of a page go into ONE translation unit (including <torch/torch.h>
costs ~10 s and ~1 GB, so it is paid once per page): each block sits in its own namespace, its
`#include` lines are hoisted to the top, and `#line` directives make g++ report `docs/...md:LINE:COL`.
Results are cached under the cache dir (positions relative to each block) by a hash of the code without
comments, the torch version, the g++ version and the flags: the zh and en page of a release differ only
in comments, so `check` compiles each such pair once. Warnings about deprecated declarations are kept
as the block's deprecation.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import shutil
import subprocess
import sysconfig
import time
from dataclasses import dataclass, field
from pathlib import Path

from scripts.snippets.model import Diagnostic, Snippet
from scripts.snippets.sandbox import python_paths, sandbox_command

__all__ = [
    "CompileResult",
    "apply_record",
    "build_translation_unit",
    "compile_page",
    "compile_record",
    "gxx_flags",
    "page_key",
    "tree_sitter_problems",
]

FRAGMENT_HEAD = "void snippet_fragment() {"
INCLUDE_RE = re.compile(r"^\s*#\s*include\b")
GXX_DIAG_RE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<kind>fatal error|error|warning|note): (?P<msg>.*)$"
)


# --- tier 1: tree-sitter ------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _parser():
    import tree_sitter
    import tree_sitter_cpp

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_cpp.language()))


def _syntax_errors(source: str) -> list[tuple[int, int, str]]:
    """(0-based row, 0-based column in characters, message) of each ERROR/MISSING node."""
    data = source.encode("utf-8")
    tree = _parser().parse(data)
    if not tree.root_node.has_error:
        return []
    lines = data.split(b"\n")
    found: list[tuple[int, int, str]] = []

    def column(row: int, byte_col: int) -> int:
        return len(lines[row][:byte_col].decode("utf-8", errors="replace")) if row < len(lines) else byte_col

    def walk(node) -> None:
        if node.is_missing:
            row, col = node.start_point
            found.append((row, column(row, col), f"expected '{node.type}'"))
            return
        if node.type == "ERROR":
            row, col = node.start_point
            text = data[node.start_byte : node.end_byte].decode("utf-8", errors="replace").strip().split("\n")[0]
            found.append((row, column(row, col), f"syntax error near '{text[:40]}'"))
            return
        if node.has_error:
            for child in node.children:
                walk(child)

    walk(tree.root_node)
    return found


def tree_sitter_problems(snippet: Snippet) -> list[Diagnostic]:
    try:
        _parser()
    except ImportError:
        return [
            snippet.diag(
                1,
                1,
                "tree-sitter is not installed: pip install tree-sitter==0.26.1 tree-sitter-cpp==0.23.4",
                check="parse",
            )
        ]
    fragment = bool(snippet.directives.get("fragment"))
    source = f"{FRAGMENT_HEAD}\n{snippet.code}\n}}\n" if fragment else snippet.code
    shift = 1 if fragment else 0
    errors = _syntax_errors(source)
    problems = []
    seen: set[int] = set()
    for row, col, message in errors:
        code_line = min(max(row + 1 - shift, 1), max(snippet.code.count("\n") + 1, 1))
        if code_line in seen:
            continue
        seen.add(code_line)
        problems.append(snippet.diag(code_line, col + 1, f"C++ syntax (tree-sitter): {message}", check="parse"))
    if problems and not fragment and not _syntax_errors(f"{FRAGMENT_HEAD}\n{snippet.code}\n}}\n"):
        problems = [
            snippet.diag(
                1,
                1,
                "these are C++ statements, not a translation unit: add <!-- snippet: fragment --> before the fence",
                check="parse",
            )
        ]
    return problems


# --- tier 2: g++ --------------------------------------------------------------------------------


@dataclass
class CompileResult:
    page: str
    problems: list[Diagnostic] = field(default_factory=list)
    deprecations: dict[str, str] = field(default_factory=dict)  # snippet id -> message
    compiled: list[str] = field(default_factory=list)  # ids checked by g++
    cached: bool = False
    shared: bool = False  # verdict taken from another page with the same code (zh/en)
    seconds: float = 0.0


@functools.lru_cache(maxsize=1)
def _torch_dir() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).parent


@functools.lru_cache(maxsize=1)
def torch_version() -> str | None:
    """The installed torch's version (read from its version file, without importing torch)."""
    torch_dir = _torch_dir()
    if torch_dir is None:
        return None
    version_file = torch_dir / "version.py"
    if version_file.exists():
        match = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", version_file.read_text(encoding="utf-8"), re.M)
        if match:
            return match.group(1)
    return None


def gxx_flags() -> list[str]:
    torch_dir = _torch_dir()
    if torch_dir is None:
        raise RuntimeError("torch is not installed: the C++ check needs the headers in the torch wheel")
    include = torch_dir / "include"
    return [
        "-std=c++20",
        "-fsyntax-only",
        "-fdiagnostics-color=never",
        "-fno-diagnostics-show-caret",
        "-isystem",
        str(include),
        "-isystem",
        str(include / "torch" / "csrc" / "api" / "include"),
        "-isystem",
        sysconfig.get_paths()["include"],
        "-DTORCH_EXTENSION_NAME=snippet_extension",
        "-D_GLIBCXX_USE_CXX11_ABI=1",
    ]


@functools.lru_cache(maxsize=1)
def _gxx_version() -> str:
    gxx = shutil.which("g++")
    if gxx is None:
        raise RuntimeError("g++ is not installed: the C++ check needs it (or pass --no-cpp)")
    return subprocess.run([gxx, "-dumpfullversion"], capture_output=True, text=True).stdout.strip()


def _line_directive(line: int, page: str) -> str:
    return f'#line {line} "{page}"'


def build_translation_unit(snippets: list[Snippet]) -> str:
    """One C++ translation unit holding every given cpp snippet of a page (see the module docstring)."""
    page = snippets[0].page
    head = [f"// generated by scripts.snippets from {page}: one namespace per code block"]
    if any(s.directives.get("fragment") for s in snippets):
        head += ["#include <torch/torch.h>", "#include <iostream>"]
    body: list[str] = []
    for k, s in enumerate(snippets, start=1):
        lines = s.code.split("\n")
        for n, line in enumerate(lines, start=1):
            if INCLUDE_RE.match(line):
                head.append(_line_directive(s.file_line(n), page))
                head.append(s.prefix + line)
        if s.directives.get("fragment"):
            body.append(f"namespace snippet_{k} {{ {FRAGMENT_HEAD}")
        else:
            body.append(f"namespace snippet_{k} {{")
        body.append(_line_directive(s.line, page))
        for line in lines:
            # Keep the page's indentation so g++ columns match the page; hoisted includes become blank.
            body.append("" if INCLUDE_RE.match(line) else (s.prefix + line if line else ""))
        body.append("} }" if s.directives.get("fragment") else "}")
    return "\n".join(head + body) + "\n"


def page_key(snippets: list[Snippet]) -> str:
    """What g++ sees, without comments and positions: the zh and en page of a release share it (their
    code differs only in comments), and moving a block on the page does not invalidate the cache."""
    from scripts.snippets.parity import strip_comments

    blocks = [
        [bool(s.directives.get("fragment")), [line.rstrip() for line in strip_comments("cpp", s.code)]]
        for s in snippets
    ]
    try:
        flags = gxx_flags()
        portable = [f for f in flags if not f.startswith("/")]  # include paths differ between machines
        version = _gxx_version()
    except RuntimeError:
        portable, version = [], ""
    return hashlib.sha256(json.dumps([blocks, torch_version(), version, portable]).encode()).hexdigest()


def _owner(snippets: list[Snippet], line: int) -> int | None:
    """Index of the snippet whose lines (fence to closing fence) hold `line`."""
    for k, s in enumerate(snippets):
        if s.fence_line <= line <= s.end_line:
            return k
    return None


def _relative_record(stderr: str, returncode: int, snippets: list[Snippet]) -> dict:
    """g++'s verdict with positions relative to each block's code, so it applies to any page with the same key."""
    page = snippets[0].page
    record: dict = {"returncode": returncode, "errors": [], "deprecations": {}, "other": []}
    context: tuple[int, int] | None = None

    def relative(line: int, col: int) -> tuple[int, int, int]:
        k = _owner(snippets, line)
        if k is None:  # a wrapper line: blame the block just before it
            k = max([i for i, s in enumerate(snippets) if s.fence_line <= line] or [0])
        s = snippets[k]
        code_lines = s.code.count("\n") + 1
        return k, min(max(line - s.fence_line, 1), code_lines), max(col - s.indent, 1)

    for raw in stderr.splitlines():
        match = GXX_DIAG_RE.match(raw)
        if not match:
            # "In instantiation of ...", "required from here" lines name page locations too.
            loc = re.match(rf"^{re.escape(page)}:(\d+):(\d+):", raw)
            if loc:
                context = (int(loc.group(1)), int(loc.group(2)))
            continue
        path, line, col, kind, msg = match.group("path", "line", "col", "kind", "msg")
        line, col = int(line), int(col)
        if kind == "note":
            if path == page and "required from" in msg:
                context = (line, col)
            continue
        if path != page:
            if kind == "warning":
                continue
            if context is None:
                record["other"].append(f"{path}:{line}:{col}: {msg}")
                continue
            msg = f"{msg} (in {Path(path).name}:{line})"
            line, col = context
        k, code_line, code_col = relative(line, col)
        if kind == "warning":
            if "deprecated" in msg and str(k) not in record["deprecations"]:
                record["deprecations"][str(k)] = re.sub(r"\s*\[-W[\w-]+\]$", "", msg)
            continue
        record["errors"].append({"block": k, "line": code_line, "col": code_col, "message": msg})
        context = None
    if returncode != 0 and not record["errors"] and not record["other"]:
        record["other"].append("g++ failed: " + stderr.strip()[-500:])
    return record


def apply_record(record: dict, snippets: list[Snippet]) -> CompileResult:
    """Turn a (cached or shared) g++ verdict into diagnostics at this page's lines."""
    page = snippets[0].page
    result = CompileResult(page=page, compiled=[s.id for s in snippets])
    for error in record["errors"]:
        s = snippets[error["block"]]
        result.problems.append(s.diag(error["line"], error["col"], f"g++: {error['message']}", check="cpp"))
    for message in record["other"]:
        first = snippets[0]
        result.problems.append(Diagnostic(page, first.fence_line, 1, f"g++: {message}", "error", first.id, "cpp"))
    for k, message in record["deprecations"].items():
        result.deprecations[snippets[int(k)].id] = message
    return result


def _include_roots(flags: list[str]) -> list[Path]:
    """The folders g++ reads headers from (torch's, inside the virtual environment), plus Python's."""
    roots = {Path(flag[2:]) for flag in flags if flag.startswith("-I") and len(flag) > 2}
    roots |= {Path(b) for a, b in zip(flags, flags[1:], strict=False) if a in ("-I", "-isystem")}
    return [*python_paths(), *sorted(r for r in roots if r.exists())]


def compile_record(snippets: list[Snippet], cache_dir: Path | None, timeout: int = 600) -> tuple[dict, bool, float]:
    """g++'s verdict on one page's cpp snippets: (record, whether it came from the cache, seconds)."""
    started = time.monotonic()
    page = snippets[0].page
    try:
        flags = gxx_flags()
        _gxx_version()
    except RuntimeError as exc:
        return (
            {"returncode": -1, "errors": [], "deprecations": {}, "other": [str(exc)], "uncacheable": True},
            False,
            0.0,
        )
    key = page_key(snippets)
    cache_file = cache_dir / "gxx" / f"{key}.json" if cache_dir else None
    if cache_file and cache_file.exists():
        try:
            return json.loads(cache_file.read_text(encoding="utf-8")), True, time.monotonic() - started
        except ValueError:
            pass
    tu = build_translation_unit(snippets)
    try:
        # Compiling is not running, but a hostile block can still make g++ read and quote a file
        # (#include "/proc/self/environ"): g++ runs in the same sandbox as the python examples.
        command = sandbox_command(
            ["g++", *flags, "-x", "c++", "-"], readonly=_include_roots(flags), env={"LC_ALL": "C"}
        )
        proc = subprocess.run(command, input=tu, capture_output=True, text=True, timeout=timeout)
        record = _relative_record(proc.stderr, proc.returncode, snippets)
    except subprocess.TimeoutExpired:
        return (
            {
                "returncode": -1,
                "errors": [],
                "deprecations": {},
                "other": [f"g++ timed out after {timeout} s on {page}"],
            },
            False,
            float(timeout),
        )
    if cache_file:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        cache_file.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
    return record, False, time.monotonic() - started


def compile_page(snippets: list[Snippet], cache_dir: Path | None, timeout: int = 600) -> CompileResult:
    """Type-check the cpp snippets of one page with g++ (see the module docstring)."""
    record, cached, seconds = compile_record(snippets, cache_dir, timeout)
    result = apply_record(record, snippets)
    if record.get("uncacheable"):
        result.compiled = []
    result.cached, result.seconds = cached, seconds
    return result
