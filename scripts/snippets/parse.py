"""Check 1, the syntax tier: every snippet parses. No torch needed.

- python: `ast.parse`
- pycon: `doctest.DocTestParser`, then `ast.parse` of each `>>>` source
- cpp: tree-sitter-cpp with zero ERROR/MISSING nodes (see `cpp.tree_sitter_problems`)
- shell: `bash -n` after stripping `$ ` prompts (and the output lines of a prompted session)
"""

from __future__ import annotations

import ast
import doctest
import re
import subprocess

from scripts.snippets.model import Diagnostic, Snippet

__all__ = [
    "check_syntax",
    "pycon_examples",
    "python_problems",
    "pycon_problems",
    "shell_problems",
    "shell_script",
]

PROMPT_RE = re.compile(r"^\s*\$ ?")
DOCTEST_LINE_RE = re.compile(r"line (\d+) of the docstring")


def python_problems(snippet: Snippet) -> list[Diagnostic]:
    try:
        ast.parse(snippet.code, filename=snippet.page)
    except SyntaxError as exc:
        return [snippet.diag(exc.lineno or 1, exc.offset or 1, f"SyntaxError: {exc.msg}", check="parse")]
    return []


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
        try:
            ast.parse(example.source, filename=snippet.page)
        except SyntaxError as exc:
            line = example.lineno + (exc.lineno or 1)
            col = (exc.offset or 1) + example.indent + 4
            problems.append(snippet.diag(line, col, f"SyntaxError: {exc.msg}", check="parse"))
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
    """The syntax check for one snippet, whatever its language (output blocks have none)."""
    if snippet.lang == "python":
        return python_problems(snippet)
    if snippet.lang == "pycon":
        return pycon_problems(snippet)
    if snippet.lang == "shell":
        return shell_problems(snippet)
    if snippet.lang == "cpp":
        from scripts.snippets.cpp import tree_sitter_problems

        return tree_sitter_problems(snippet)
    return []
