"""Check 4, names exist: every `torch.*` name a python/pycon snippet uses resolves in the installed torch.

The AST is walked with the snippet's import aliases in mind (`import torch.nn as nn`,
`from torch import fft`, `from torch.nn import functional as F`); aliases carry over between the blocks
of one `group`. Each attribute chain rooted at an alias (`nn.functional.relu`) becomes a dotted name
(`torch.nn.functional.relu`) that is resolved with getattr from `torch`, falling back to importing the
submodule. A miss is reported with difflib's closest match. Names a page declares with
`<!-- snippet: removed="torch.name@X.Y" -->` are expected to be missing (and reported if they exist).

Runtime registries are not checked below their namespace: `torch.ops.<ns>` for namespaces other than
aten/prims/quantized (snippets register their own custom ops), and `torch.classes`.
"""

from __future__ import annotations

import ast
import difflib
import importlib
from dataclasses import dataclass

from scripts.snippets.directives import removed_names
from scripts.snippets.model import Diagnostic, Snippet
from scripts.snippets.parse import pycon_examples

__all__ = ["NameUse", "collect_names", "names_problems", "resolve"]

BUILTIN_OP_NAMESPACES = {"aten", "prims", "prim", "quantized", "_quantized"}


@dataclass(frozen=True)
class NameUse:
    name: str  # dotted, e.g. "torch.nn.Linear"
    line: int  # 1-based line in the snippet's code
    col: int  # 1-based column in the snippet's code


class _Collector(ast.NodeVisitor):
    def __init__(self, aliases: dict[str, str], line_shift: int, col_shift: int):
        self.aliases = aliases  # local name -> dotted torch name
        self.uses: list[NameUse] = []
        self.line_shift = line_shift
        self.col_shift = col_shift

    def _use(self, name: str, node: ast.AST) -> None:
        self.uses.append(NameUse(name, node.lineno + self.line_shift, node.col_offset + 1 + self.col_shift))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "torch" or alias.name.startswith("torch."):
                self._use(alias.name, node)
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
                else:
                    self.aliases["torch"] = "torch"

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not (module == "torch" or module.startswith("torch.")):
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            full = f"{module}.{alias.name}"
            self._use(full, node)
            self.aliases[alias.asname or alias.name] = full

    def _chain(self, node: ast.AST) -> tuple[str, list[str]] | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            return node.id, list(reversed(parts))
        return None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = self._chain(node)
        if chain is None:
            self.generic_visit(node)
            return
        base, parts = chain
        if base in self.aliases:
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                parts = parts[:-1]  # `torch.backends.cudnn.benchmark = True` sets the last name
            self._use(".".join([self.aliases[base], *parts]), node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.aliases and isinstance(node.ctx, ast.Load):
            self._use(self.aliases[node.id], node)


def collect_names(snippet: Snippet, aliases: dict[str, str] | None = None) -> list[NameUse]:
    """The torch names a python/pycon snippet uses; `aliases` (updated in place) carries a group's imports."""
    aliases = {} if aliases is None else aliases
    aliases.setdefault("torch", "torch")
    uses: list[NameUse] = []
    if snippet.lang == "python":
        try:
            tree = ast.parse(snippet.code)
        except SyntaxError:
            return []
        collector = _Collector(aliases, 0, 0)
        collector.visit(tree)
        uses = collector.uses
    elif snippet.lang == "pycon":
        try:
            examples = pycon_examples(snippet.code)
        except ValueError:
            return []
        for example in examples:
            try:
                tree = ast.parse(example.source)
            except SyntaxError:
                continue
            collector = _Collector(aliases, example.lineno, example.indent + 4)
            collector.visit(tree)
            uses.extend(collector.uses)
    seen: set[str] = set()
    unique = []
    for use in uses:
        if use.name not in seen:
            seen.add(use.name)
            unique.append(use)
    return unique


def resolve(name: str) -> tuple[bool, str | None]:
    """(True, None) when `name` exists in the installed torch; else (False, explanation with a did-you-mean)."""
    parts = name.split(".")
    obj = importlib.import_module(parts[0])
    for i in range(1, len(parts)):
        prefix = ".".join(parts[:i])
        if prefix == "torch.classes" or (
            prefix.startswith("torch.ops.") and i == 3 and parts[2] not in BUILTIN_OP_NAMESPACES
        ):
            return True, None
        part = parts[i]
        try:
            obj = getattr(obj, part)
            continue
        except AttributeError:
            pass
        except Exception as exc:  # a lazy attribute that fails to load
            return False, f"'{prefix}.{part}' failed to load: {type(exc).__name__}: {exc}"
        module = f"{prefix}.{part}"
        try:
            obj = importlib.import_module(module)
            continue
        except ModuleNotFoundError as exc:
            if exc.name and not (module == exc.name or module.startswith(exc.name + ".")):
                # The module is there but needs a package that is not installed (torch.utils.tensorboard
                # needs tensorboard): check the rest of the name in its source instead.
                return _resolve_statically(module, parts[i + 1 :], exc.name)
        except Exception as exc:  # noqa: BLE001 - e.g. an ImportError raised by the module itself
            return False, f"importing '{module}' failed: {type(exc).__name__}: {exc}"
        try:
            candidates = [n for n in dir(obj) if not n.startswith("__")]
        except Exception:
            candidates = []
        close = difflib.get_close_matches(part, candidates, n=1, cutoff=0.6)
        hint = f"; did you mean '{prefix}.{close[0]}'?" if close else ""
        return False, f"'{prefix}' has no attribute '{part}'{hint}"
    return True, None


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _resolve_statically(module: str, rest: list[str], missing: str) -> tuple[bool, str | None]:
    """Resolve the first name after `module` by reading the module's source (it cannot be imported here)."""
    import importlib.util

    if not rest:
        return True, None
    try:
        spec = importlib.util.find_spec(module)
        tree = ast.parse(open(spec.origin, encoding="utf-8").read()) if spec and spec.origin else None
    except (ImportError, OSError, SyntaxError, ValueError):
        tree = None
    if tree is None:
        return False, f"'{module}' needs '{missing}', which is not installed, and its source cannot be read"
    names = _top_level_names(tree)
    if rest[0] in names:
        return True, None  # deeper attributes cannot be checked without importing it
    close = difflib.get_close_matches(rest[0], sorted(names), n=1, cutoff=0.6)
    hint = f"; did you mean '{module}.{close[0]}'?" if close else ""
    return (
        False,
        f"'{module}' has no attribute '{rest[0]}' (read from its source: it needs '{missing}' to import){hint}",
    )


def names_problems(snippets: list[Snippet]) -> tuple[list[Diagnostic], dict[str, list[str]]]:
    """Unresolved names of the page's python/pycon snippets (in page order, groups sharing aliases).

    Also returns, per snippet id, the declared-removed names it uses (for the status file).
    """
    problems: list[Diagnostic] = []
    removed_used: dict[str, list[str]] = {}
    group_aliases: dict[str, dict[str, str]] = {}
    for snippet in snippets:
        if snippet.lang not in ("python", "pycon"):
            continue
        if snippet.directives.get("change") == "before":
            continue  # old code may use names that are gone today: running it records that
        group = snippet.directives.get("group")
        aliases = group_aliases.setdefault(group, {}) if group else {}
        declared = removed_names(snippet.directives)
        for use in collect_names(snippet, aliases):
            ok, why = resolve(use.name)
            if ok:
                continue
            gone = [d for d in declared if use.name == d or use.name.startswith(d + ".")]
            if gone:
                removed_used.setdefault(snippet.id, []).append(use.name)
                continue
            problems.append(
                snippet.diag(
                    use.line,
                    use.col,
                    f"unknown name '{use.name}' in torch {_torch_version()}: {why}"
                    + (
                        f' (if it was removed, declare it: <!-- snippet: removed="{use.name}@X.Y" -->)'
                        if "has no attribute" in why and "did you mean" not in why
                        else ""
                    ),
                    check="names",
                )
            )
        for name, version in declared.items():
            ok, _ = resolve(name)
            if ok:
                problems.append(
                    Diagnostic(
                        snippet.page,
                        snippet.directive_line or snippet.fence_line,
                        1,
                        f"'{name}' is declared removed in {version} but exists in torch {_torch_version()}",
                        "error",
                        snippet.id,
                        "names",
                    )
                )
    return problems, removed_used


def _torch_version() -> str:
    import torch

    return torch.__version__.split("+")[0]
