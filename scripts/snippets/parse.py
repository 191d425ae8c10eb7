"""Check 1, the syntax tier: every snippet parses. No torch needed.

- every block: no bidirectional or invisible control character (Trojan Source: code that reads one way
  and runs another), whatever its language
- python: `ast.parse`, nested at most MAX_NESTING deep (what the later checks and the runner walk)
- pycon: `doctest.DocTestParser`, then the same for each `>>>` source
- cpp: tree-sitter-cpp with zero ERROR/MISSING nodes (see `cxx.syntax.tree_sitter_problems`)
- shell: `bash -n` after stripping `$ ` prompts (and the output lines of a prompted session)

Code nested thousands deep makes Python's parser raise RecursionError or MemoryError: that is this
block's syntax problem at its `file:line`, like any other.
"""

from __future__ import annotations

import ast
import doctest
import functools
import re
import subprocess

from scripts.snippets.model import Diagnostic, Snippet

__all__ = [
    "MAX_NESTING",
    "check_syntax",
    "hidden_control_problems",
    "python_syntax",
    "pycon_examples",
    "python_problems",
    "pycon_problems",
    "shell_problems",
    "shell_script",
]

PROMPT_RE = re.compile(r"^\s*\$ ?")
DOCTEST_LINE_RE = re.compile(r"line (\d+) of the docstring")
MAX_NESTING = 100  # levels of the syntax tree; the site's deepest block has 15
# Bidirectional embeddings, overrides and isolates, zero-width characters, LRM/RLM and U+FEFF.
HIDDEN_CONTROLS = {
    **{chr(c): "bidirectional control" for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]},
    **{chr(c): "invisible character" for c in [*range(0x200B, 0x2010), 0xFEFF]},
}


def hidden_control_problems(snippet: Snippet) -> list[Diagnostic]:
    """One error per line holding a character that makes code read differently from how it runs."""
    problems = []
    for number, line in enumerate(snippet.code.split("\n"), start=1):
        col = next((k for k, ch in enumerate(line, start=1) if ch in HIDDEN_CONTROLS), None)
        if col is None:
            continue
        ch = line[col - 1]
        message = (
            f"{HIDDEN_CONTROLS[ch]} U+{ord(ch):04X} in a code block: code can read differently from how it runs "
            "(Trojan Source); remove it"
        )
        problems.append(snippet.diag(number, col, message, check="parse"))
    return problems


def _nesting(tree: ast.AST) -> tuple[int, int]:
    """(depth, line) of the syntax tree's deepest node, counting at most MAX_NESTING + 1 levels (no recursion)."""
    deepest, line = 0, 1
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest, line = depth, getattr(node, "lineno", line)
        if depth <= MAX_NESTING:
            stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest, line


def python_syntax(source: str, filename: str) -> tuple[int, int, str] | None:
    """(line, column, message) of what keeps `source` from being checked and run, or None."""
    del filename  # named nowhere in the answer: the source alone decides it
    return _python_syntax(source)


@functools.lru_cache(maxsize=4096)  # a page's two languages share their examples: each is parsed once
def _python_syntax(source: str) -> tuple[int, int, str] | None:
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        return exc.lineno or 1, exc.offset or 1, f"SyntaxError: {exc.msg}"
    except (RecursionError, MemoryError):
        return 1, 1, f"nested too deeply for Python's parser: at most {MAX_NESTING} levels are checked"
    except ValueError as exc:  # null bytes
        return 1, 1, f"cannot be parsed: {exc}"
    depth, line = _nesting(tree)
    if depth > MAX_NESTING:
        return line, 1, f"nested more than {MAX_NESTING} levels deep: at most {MAX_NESTING} are checked"
    return None


def python_problems(snippet: Snippet) -> list[Diagnostic]:
    problem = python_syntax(snippet.code, snippet.page)
    return [snippet.diag(*problem, check="parse")] if problem else []


def pycon_examples(code: str) -> list[doctest.Example]:
    """The `>>>` examples of a pycon block (raises ValueError on a malformed session)."""
    return doctest.DocTestParser().get_examples(code, name="snippet")


def pycon_problems(snippet: Snippet) -> list[Diagnostic]:
    try:
        examples = pycon_examples(snippet.code)
    except ValueError as exc:
        match = DOCTEST_LINE_RE.search(str(exc))
        line = int(match.group(1)) if match else 1
        message = re.sub(r"line \d+ of the docstring for \S+ ", "", str(exc))
        return [snippet.diag(line, 1, f"malformed pycon session: {message}", check="parse")]
    if not examples:
        return [
            snippet.diag(
                1, 1, "pycon block has no '>>> ' prompt: tag it python (or text if it is output)", check="parse"
            )
        ]
    problems = []
    for example in examples:
        problem = python_syntax(example.source, snippet.page)
        if problem:
            line, col, message = problem
            problems.append(snippet.diag(example.lineno + line, col + example.indent + 4, message, check="parse"))
    return problems


def shell_script(code: str) -> tuple[str, list[int]]:
    """The bash a shell block runs: `$ ` prompts stripped; in a prompted session, output lines dropped.

    Returns the script and, for each of its lines, the 1-based line of the block it came from.
    """
    lines = code.split("\n")
    prompted = any(PROMPT_RE.match(line) and line.lstrip().startswith("$") for line in lines)
    script: list[str] = []
    origin: list[int] = []
    continuing = False
    for number, line in enumerate(lines, start=1):
        if not prompted:
            script.append(line)
            origin.append(number)
            continue
        if line.lstrip().startswith("$"):
            line = PROMPT_RE.sub("", line, count=1)
        elif not continuing:
            continue  # output of the previous command
        script.append(line)
        origin.append(number)
        continuing = line.rstrip().endswith("\\")
    return "\n".join(script) + "\n", origin


def shell_problems(snippet: Snippet) -> list[Diagnostic]:
    script, origin = shell_script(snippet.code)
    try:
        result = subprocess.run(["bash", "-n"], input=script, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [snippet.diag(1, 1, f"could not run bash -n: {exc}", check="parse")]
    if result.returncode == 0:
        return []
    problems = []
    messages: dict[int, list[str]] = {}
    for raw in result.stderr.splitlines():
        match = re.match(r"^bash: line (\d+): (.*)$", raw)
        if match:
            messages.setdefault(int(match.group(1)), []).append(match.group(2))
    if not messages:
        return [snippet.diag(1, 1, f"bash -n: {result.stderr.strip() or 'syntax error'}", check="parse")]
    for line, texts in messages.items():
        code_line = origin[min(line, len(origin)) - 1] if origin else 1
        problems.append(snippet.diag(code_line, 1, "bash: " + "; ".join(texts), check="parse"))
    return problems


def check_syntax(snippet: Snippet) -> list[Diagnostic]:
    """The syntax check for one snippet, whatever its language (output blocks are only checked for hidden
    control characters)."""
    hidden = hidden_control_problems(snippet)
    if hidden:
        return hidden
    if snippet.lang == "python":
        return python_problems(snippet)
    if snippet.lang == "pycon":
        return pycon_problems(snippet)
    if snippet.lang == "shell":
        return shell_problems(snippet)
    if snippet.lang == "cpp":
        from scripts.snippets.cxx.syntax import tree_sitter_problems

        return tree_sitter_problems(snippet)
    return []
