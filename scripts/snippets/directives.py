"""`<!-- snippet: ... -->` directives: HTML comments (invisible on the page) on the line right before a fence.

    <!-- snippet: requires=cuda -->
    <!-- snippet: skip reason="needs 2 processes for RPC" -->
    <!-- snippet: group=amp requires=cuda -->
    <!-- snippet: fragment -->
    <!-- snippet: removed="torch.foo.bar@2.5" -->
    <!-- snippet: timeout=300 -->

`parse_directive` turns the comment's body into a dict and lists what is wrong with it;
`not_run_reason` says why a snippet is not run (None when it runs).
"""

from __future__ import annotations

import difflib
import re
import shlex

__all__ = [
    "DIRECTIVE_RE",
    "KNOWN_KEYS",
    "REQUIREMENTS",
    "check_directives_for_lang",
    "not_run_reason",
    "parse_directive",
    "removed_names",
]

DIRECTIVE_RE = re.compile(r"^<!--\s*snippet\s*:(?P<body>.*?)-->\s*$")
DIRECTIVE_START_RE = re.compile(r"^<!--\s*snippet\b")
GROUP_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
ASCII_DIGITS_RE = re.compile(r"[0-9]+")
MAX_TIMEOUT = 600  # the runner caps any timeout here as well (run.MAX_TIMEOUT)
REMOVED_RE = re.compile(r"^(torch(?:\.[A-Za-z_][A-Za-z0-9_]*)+)@([0-9]+\.[0-9]+)$")

FLAGS = ("skip", "fragment")
VALUED = ("reason", "requires", "group", "removed", "timeout")
KNOWN_KEYS = FLAGS + VALUED
# requires=<what> -> the reader-facing reason it is not run.
REQUIREMENTS = {"cuda": "needs CUDA"}


def parse_directive(body: str) -> tuple[dict, list[str]]:
    """Parse `skip reason="x" group=g` into {"skip": True, "reason": "x", "group": "g"} plus errors."""
    errors: list[str] = []
    try:
        tokens = shlex.split(body, posix=True)
    except ValueError as exc:
        return {}, [f'malformed snippet directive ({exc}): write key=value or key="value with spaces"']
    result: dict = {}
    for token in tokens:
        key, eq, value = token.partition("=")
        if key not in KNOWN_KEYS:
            close = difflib.get_close_matches(key, KNOWN_KEYS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f" (known: {', '.join(KNOWN_KEYS)})"
            errors.append(f"unknown snippet directive '{_shown(key)}'{hint}")
            continue
        if key in result:
            errors.append(f"snippet directive '{key}' given twice")
            continue
        if key in FLAGS:
            if eq:
                errors.append(f"snippet directive '{key}' takes no value")
                continue
            result[key] = True
            continue
        if not eq or not value.strip():
            errors.append(f"snippet directive '{key}' needs a value: {key}=...")
            continue
        value = value.strip()
        if key == "requires" and value not in REQUIREMENTS:
            errors.append(
                f"unknown requirement '{_shown(value)}' (known: {', '.join(REQUIREMENTS)}); "
                'for anything else use skip reason="..."'
            )
            continue
        if key == "group" and not GROUP_RE.match(value):
            errors.append(f"bad group name '{_shown(value)}': use letters, digits, '_', '-' and '.'")
            continue
        if key == "timeout":
            # ASCII digits only: '²'.isdigit() is true, and int('²') raises.
            seconds = value.lstrip("0")
            if not ASCII_DIGITS_RE.fullmatch(value) or not seconds:
                errors.append(f"bad timeout '{_shown(value)}': a whole number of seconds")
                continue
            if len(seconds) > 6 or int(seconds) > MAX_TIMEOUT:
                errors.append(f"timeout={_shown(value)} is more than the {MAX_TIMEOUT} s a snippet may take")
                continue
            result[key] = int(seconds)
            continue
        if key == "removed":
            bad = [item for item in _split_list(value) if not REMOVED_RE.match(item)]
            if bad or not _split_list(value):
                errors.append(
                    f"bad removed '{_shown(value)}': write removed=\"torch.name@X.Y\" (comma-separate several)"
                )
                continue
        result[key] = value
    if result.get("skip") and not result.get("reason"):
        errors.append('a skip needs a reason: <!-- snippet: skip reason="why it cannot run here" -->')
    if "reason" in result and not (result.get("skip") or "requires" in result):
        errors.append("reason= only goes with skip or requires=")
    return result, errors


def _shown(value: str) -> str:
    """A value as a message quotes it: at most 40 characters."""
    return value if len(value) <= 40 else value[:40] + "..."


def _split_list(value: str) -> list[str]:
    return [item.strip() for item in re.split(r"[,\s]+", value) if item.strip()]


def removed_names(directives: dict) -> dict[str, str]:
    """{"torch.foo.bar": "2.5"} from removed="torch.foo.bar@2.5"."""
    names: dict[str, str] = {}
    for item in _split_list(directives.get("removed", "")):
        match = REMOVED_RE.match(item)
        if match:
            names[match.group(1)] = match.group(2)
    return names


def not_run_reason(directives: dict) -> str | None:
    """Why the snippet is not run or compiled (the reader sees this), or None."""
    if directives.get("skip"):
        return directives.get("reason") or "skipped"
    if "requires" in directives:
        return directives.get("reason") or REQUIREMENTS.get(directives["requires"], directives["requires"])
    removed = removed_names(directives)
    if removed:
        return "uses " + ", ".join(f"{name} (removed in {version})" for name, version in removed.items())
    return None


def check_directives_for_lang(directives: dict, lang: str | None) -> list[str]:
    """Directives that make no sense for the block's language."""
    errors = []
    if directives.get("fragment") and lang != "cpp":
        errors.append("'fragment' is for cpp blocks (C++ statements wrapped in a function)")
    if "group" in directives and lang not in ("python", "pycon"):
        errors.append("'group' is for python and pycon blocks")
    if "timeout" in directives and lang not in ("python", "pycon"):
        errors.append("'timeout' is for python and pycon blocks")
    if lang in ("output", "markdown") and directives:
        errors.append(f"{lang} blocks are never run: drop the snippet directive")
    return errors
