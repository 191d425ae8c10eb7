"""What a supervisor's reply means for a block: its status, its problems at page lines, its deprecations.

A reply speaks of UNIT_FILE's lines (`units.Layout`); every line shown is the block's page line. pycon
output is compared with what the page shows by `outputcheck.output_matches`. A snippet that leaves
processes running or prints more than the runner keeps fails itself.
"""

from __future__ import annotations

import doctest
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field

from scripts.snippets.model import Diagnostic, Snippet
from scripts.snippets.parse import pycon_examples
from scripts.snippets.running.outputcheck import TooCostly, explain, output_matches

__all__ = ["RunOutcome", "about_snippet", "clean_message", "interpret"]

DEPRECATED_SUBJECT_RE = re.compile(
    r"`?([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)`?(?:\(\))? (?:is|are|has been|have been) (?:now )?deprecated"
)


@dataclass
class RunOutcome:
    id: str
    status: str  # ran | output-matched | failed | raised (the "before" code of a change fails today: recorded, not an error)
    problems: list[Diagnostic] = field(default_factory=list)
    deprecations: list[str] = field(default_factory=list)
    seconds: float = 0.0
    failure: str | None = None  # for "raised": the exception, one line


def clean_message(message: str) -> str:
    """One line, without machine-specific paths, so the status file is reproducible."""
    first = message.strip().split("\n")[0]
    first = re.sub(r"(/[^\s:'\"]+)+/(site|dist)-packages/", "", first)
    first = re.sub(re.escape(tempfile.gettempdir()) + r"/[^\s:'\"]+", "<tmp>", first)
    return re.sub(r"\s+", " ", first)


def about_snippet(snippet: Snippet, warning: dict) -> bool:
    """Is a deprecation warning about what the snippet does, not torch calling its own deprecated code?

    When the message names its subject (`torch.jit.script` is deprecated), the snippet must use that
    name (through its imports, or spelled in its code); Python's attribution is not enough, as torch
    raises some of these while importing its own modules. Otherwise, Python must attribute the warning
    to the snippet's lines.
    """
    subjects = DEPRECATED_SUBJECT_RE.findall(warning.get("message", ""))
    if not subjects:
        return warning.get("line") is not None
    from scripts.snippets.names import collect_names

    used = {u.name for u in collect_names(snippet, {})}
    for subject in subjects:
        if any(u == subject or u.startswith(subject + ".") for u in used):
            return True
        first, last = subject.split(".")[0], subject.split(".")[-1]
        if re.search(rf"\b{re.escape(first)}\b", snippet.code) and re.search(rf"\b{re.escape(last)}\b", snippet.code):
            return True
    return False


def interpret(snippet: Snippet, reply: dict, page_line: Callable[[int], int]) -> RunOutcome:
    """The outcome of one block from its supervisor's reply; `page_line` maps a line of the unit's file
    to the page."""
    examples = pycon_examples_of(snippet)
    outcome = _interpret_result(snippet, reply, examples, page_line)
    misbehaved = []
    if reply.get("strays"):
        misbehaved.append(f"it left {reply['strays']} process(es) running after it finished (they were killed)")
    if reply.get("overflow"):
        misbehaved.append(f"it printed {reply['overflow'] / (1 << 20):.1f} MB, more than the 1 MB a snippet may print")
    for message in misbehaved:
        outcome.status = "failed"
        outcome.problems.append(Diagnostic(snippet.page, snippet.line, 1, message, "error", snippet.id, "run"))
    return outcome


def pycon_examples_of(snippet: Snippet) -> list[doctest.Example]:
    return pycon_examples(snippet.code) if snippet.lang == "pycon" else []


def _deprecations(snippet: Snippet, reply: dict) -> list[str]:
    found: list[str] = []
    before_code = snippet.directives.get("change") == "before"
    for warning in reply.get("warnings", []):
        # The old code of a change is there to show what today's torch says about it: any warning counts.
        if not (
            before_code or warning.get("deprecation", warning["category"] in ("DeprecationWarning", "FutureWarning"))
        ):
            continue
        if not about_snippet(snippet, warning):
            continue
        message = f"{warning['category']}: {clean_message(warning['message'])}"
        if message not in found:
            found.append(message)
    return found


def _compare(example: doctest.Example, result: dict) -> tuple[str | None, bool]:
    """(the problem, or None; whether shown output was compared) for one `>>>` example."""
    normalize = bool(example.options.get(doctest.NORMALIZE_WHITESPACE))
    try:
        if example.exc_msg is not None:
            if result["exc"] is None:
                return "expected an exception, but it ran without one" + explain(example.exc_msg, result["got"]), False
            if not output_matches(example.exc_msg, result["exc"], normalize):
                return "raised a different exception" + explain(example.exc_msg, result["exc"]), False
            return None, True
        if result["exc"] is not None:
            where = f" (raised in {result['origin']})" if result.get("origin") else ""
            return f"running it raised {result['exc'].strip()}{where}", False
        if not output_matches(example.want, result["got"], normalize):
            return "output differs from the page" + explain(example.want, result["got"]), False
    except TooCostly as exc:
        return f"cannot compare the output with the page: {exc}; use fewer '...' or show less output", False
    return None, bool(example.want.strip())


def _interpret_result(
    snippet: Snippet, reply: dict, examples: list[doctest.Example], page_line: Callable[[int], int]
) -> RunOutcome:
    outcome = RunOutcome(snippet.id, "ran", seconds=reply.get("seconds", 0.0))
    outcome.deprecations = _deprecations(snippet, reply)
    if snippet.lang == "python":
        error = reply.get("error")
        if error and snippet.directives.get("change") == "before":
            # Old code that no longer runs is what this block documents: record how it fails today.
            outcome.status = "raised"
            outcome.failure = clean_message(error["message"])
        elif error:
            outcome.status = "failed"
            line = page_line(error["line"])
            message = f"running it raised {error['message']}"
            outcome.problems.append(Diagnostic(snippet.page, line, 1, message, "error", snippet.id, "run"))
        return outcome
    compared = False
    for example, result in zip(examples, reply.get("examples", []), strict=False):
        if result.get("skipped"):
            continue
        problem, matched = _compare(example, result)
        compared = compared or matched
        if problem:
            line = snippet.file_line(example.lineno + 1)
            col = example.indent + 1 + snippet.indent
            outcome.status = "failed"
            outcome.problems.append(Diagnostic(snippet.page, line, col, problem, "error", snippet.id, "run"))
            break  # later examples usually fail because of this one
    if outcome.status != "failed" and compared:
        outcome.status = "output-matched"
    return outcome
