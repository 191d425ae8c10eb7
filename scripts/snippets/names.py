"""Check 4, names exist: every `torch.*` name a python/pycon snippet uses resolves in the installed torch.

The AST is walked with the snippet's import aliases in mind (`import torch.nn as nn`,
`from torch import fft`, `from torch.nn import functional as F`); aliases carry over between the blocks
of one `group`. Each attribute chain rooted at an alias (`nn.functional.relu`) becomes a dotted name
(`torch.nn.functional.relu`). This module only reads code: the names are resolved in a sandbox
(`run.resolve_names`, `inside/snippet_resolve.py`: getattr from `torch`, falling back to importing the
submodule, a miss reported with difflib's closest match), as importing a name runs code. Names a page
declares with `<!-- snippet: removed="torch.name@X.Y" -->` are expected to be missing (and reported if they
exist).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from scripts.snippets.directives import removed_names
from scripts.snippets.model import Diagnostic, Snippet
from scripts.snippets.parse import pycon_examples

__all__ = ["NameUse", "collect_names", "names_problems", "wanted_names"]


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

    def _use(self, name: str, node: ast.expr | ast.stmt) -> None:
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


def wanted_names(snippets: list[Snippet]) -> list[str]:
    """Every name `names_problems` needs resolved for these snippets (used names and declared-removed ones)."""
    wanted: dict[str, None] = {}
    group_aliases: dict[str, dict[str, str]] = {}
    for snippet in snippets:
        if snippet.lang not in ("python", "pycon") or snippet.directives.get("change") == "before":
            continue
        group = snippet.directives.get("group")
        aliases = group_aliases.setdefault(group, {}) if group else {}
        wanted.update(dict.fromkeys(use.name for use in collect_names(snippet, aliases)))
        wanted.update(dict.fromkeys(removed_names(snippet.directives)))
    return list(wanted)


def names_problems(
    snippets: list[Snippet], resolved: dict[str, tuple[bool, str | None]], torch_version: str
) -> tuple[list[Diagnostic], dict[str, list[str]]]:
    """Unresolved names of the page's python/pycon snippets (in page order, groups sharing aliases), given
    whether each name resolves in the installed torch (`resolved`, from `run.resolve_names`: in a sandbox).

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
            ok, why = resolved[use.name]
            if ok:
                continue
            why = why or "it does not resolve"
            gone = [d for d in declared if use.name == d or use.name.startswith(d + ".")]
            if gone:
                removed_used.setdefault(snippet.id, []).append(use.name)
                continue
            problems.append(
                snippet.diag(
                    use.line,
                    use.col,
                    f"unknown name '{use.name}' in torch {torch_version}: {why}"
                    + (
                        f' (if it was removed, declare it: <!-- snippet: removed="{use.name}@X.Y" -->)'
                        if "has no attribute" in why and "did you mean" not in why
                        else ""
                    ),
                    check="names",
                )
            )
        for name, version in declared.items():
            ok, _ = resolved[name]
            if ok:
                problems.append(
                    Diagnostic(
                        snippet.page,
                        snippet.directive_line or snippet.fence_line,
                        1,
                        f"'{name}' is declared removed in {version} but exists in torch {torch_version}",
                        "error",
                        snippet.id,
                        "names",
                    )
                )
    return problems, removed_used
