"""The shape of the code, checked (tests/test_architecture.py; ARCHITECTURE.md says why each rule exists):

- no import circle among the modules of a package, counting imports inside functions too;
- the layers import only downward: catalog → registry → verdicts → views (snippets beside registry, above the
  catalog), with checks, bench and tools on top (LAYERS); views read the verdicts' model, never their rules, so
  nothing is decided while a page is drawn;
- every module under 500 lines, and starting with its docstring (the line that says its job);
- no folder of more than 12 modules.

    python -m scripts.checks.architecture [--root .]      prints every finding; exit 1 if there is one

Imports are read with `ast`, never by importing: `from a.b import c` counts as an import of `a.b.c` where that is a
module, of `a.b` otherwise; relative imports are resolved against the importing module's package.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

MAX_LINES = 500
MAX_MODULES_PER_FOLDER = 12

# What each layer may import (module names or packages; a package allows everything under it). A module of no layer
# listed here (checks, bench, tools, the shims at the top of scripts/) sits on top and may import any of them.
LAYERS: dict[str, tuple[str, ...]] = {
    "scripts.catalog": ("scripts.catalog",),
    "scripts.registry": (
        "scripts.registry",
        "scripts.catalog.model",
        "scripts.catalog.frontmatter",
        "scripts.catalog.compat",
    ),
    "scripts.snippets": ("scripts.snippets", "scripts.catalog.model", "scripts.catalog.frontmatter"),
    "scripts.verdicts": ("scripts.verdicts", "scripts.catalog", "scripts.registry"),
    "scripts.views": (
        "scripts.views",
        "scripts.catalog",
        "scripts.verdicts.model",  # the answers, decided once: views take them and decide nothing
        "scripts.verdicts.support",  # support over time, read from the model
        "scripts.snippets.badges",
        "scripts.snippets.extract",
        "scripts.snippets.status",
    ),
}

# Modules over MAX_LINES whose split belongs to a task under way; each entry says whose. An entry for a module that
# is no longer over the limit is itself a finding, so the list cannot go stale.
PENDING_SPLITS: dict[str, str] = {}
# Folders over MAX_MODULES_PER_FOLDER whose owner is reorganising them, kept honest the same way.
PENDING_FOLDERS: dict[str, str] = {}


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def modules_of(root: Path, package: str) -> dict[str, Path]:
    """Every module of `package` under `root` (a folder holding the package), by dotted name."""
    base = root / package.replace(".", "/")
    found: dict[str, Path] = {}
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports_of(path: Path, name: str, known: Iterable[str]) -> set[str]:
    """The modules of `known` that the module `name` (file `path`) imports anywhere in its body."""
    known = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import a.b.c` of a name inside a module: count the module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports."""
    modules = modules_of(root, package)
    return {name: imports_of(path, name, modules) for name, path in modules.items()}


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every import circle: the strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a long chain of imports cannot exhaust Python's recursion limit.
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def layer_of(name: str, layers: Mapping[str, tuple[str, ...]]) -> str | None:
    return next((layer for layer in layers if _within(name, layer)), None)


def layer_violations(graph: Mapping[str, Iterable[str]], layers: Mapping[str, tuple[str, ...]] = LAYERS) -> list[str]:
    """Each import a layer's rule does not allow, as "importer imports imported (layer may import: ...)"."""
    problems = []
    for name in sorted(graph):
        layer = layer_of(name, layers)
        if layer is None:
            continue
        allowed = layers[layer]
        for target in sorted(graph[name]):
            if not any(_within(target, prefix) for prefix in allowed):
                problems.append(f"{name} imports {target} ({layer} may import: {', '.join(allowed)})")
    return problems


def size_problems(root: Path, package: str, pending: Mapping[str, str] = PENDING_SPLITS) -> list[str]:
    """Modules over MAX_LINES (but those whose split is under way), and pending entries no longer over it."""
    problems = []
    for path in modules_of(root, package).values():
        rel = path.relative_to(root).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and rel not in pending:
            problems.append(f"{rel}: {lines} lines (at most {MAX_LINES}): split it")
        elif lines <= MAX_LINES and rel in pending:
            problems.append(f"{rel}: {lines} lines now: remove it from PENDING_SPLITS")
    return problems


def docstring_problems(paths: Iterable[Path], root: Path) -> list[str]:
    """Modules whose first line is not the start of their docstring."""
    problems = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(text, str(path)))
        if not text.startswith(('"""', "'''")) or not docstring:
            problems.append(f"{path.relative_to(root).as_posix()}:1: the first line is not a docstring saying its job")
    return problems


def folder_problems(
    root: Path, package: str, limit: int = MAX_MODULES_PER_FOLDER, pending: Mapping[str, str] = PENDING_FOLDERS
) -> list[str]:
    """Folders of the package holding more than `limit` modules (`__init__.py` counted), but those being
    reorganised, and pending entries no longer over the limit."""
    base = root / package.replace(".", "/")
    problems = []
    for folder in sorted([base, *(p for p in base.rglob("*") if p.is_dir())]):
        rel = folder.relative_to(root).as_posix()
        count = sum(1 for p in folder.glob("*.py"))
        if count > limit and rel not in pending:
            problems.append(f"{rel}/: {count} modules (at most {limit})")
        elif count <= limit and rel in pending:
            problems.append(f"{rel}/: {count} modules now: remove it from PENDING_FOLDERS")
    return problems


def findings(root: Path, package: str = "scripts", extra_docstring_paths: Iterable[Path] = ()) -> list[str]:
    """Every finding of every rule, for the package under `root`."""
    graph = import_graph(root, package)
    out = [f"import circle: {' -> '.join(cycle)}" for cycle in cycles(graph)]
    out += layer_violations(graph)
    out += size_problems(root, package)
    out += docstring_problems([*modules_of(root, package).values(), *extra_docstring_paths], root)
    out += folder_problems(root, package)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.checks.architecture", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path("."), help="the project root (default: .)")
    args = parser.parse_args(argv)
    found = findings(args.root, extra_docstring_paths=sorted((args.root / "overrides" / "hooks").glob("*.py")))
    for line in found:
        print(line)
    print(f"{len(found)} finding(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
