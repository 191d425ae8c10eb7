"""A last line of defence: refuse to build a page whose body holds markup that is not on the allowlist.

Every text field is escaped where it is rendered (scripts/views/html.py), so nothing here should ever fire for
front matter; this catches what slips through any other way: raw HTML or an attr_list in a page body, a
Markdown link to `jav&#x09;ascript:`, a future renderer that forgets to escape. The rendered body is parsed
as a browser parses it and held to the allowlist of scripts/checks/markup/html_policy.py (elements, attributes, URL
schemes; no script but the generators' JSON, no inline style or event handlers, nothing loaded from another
host). Each finding is reported as `docs/<page>.md:<line>: …`, the line found by looking for the markup in
the page's source (only the file when the markup was generated or cannot be found written whole).

The check runs in the build's helper process (scripts/checks/beside.py) while MkDocs renders the next pages;
every page's answer is awaited once all are rendered and before any is written (`on_env`), so a refused page
stops the build before anything is published, and every refused page is named at once.

Once the page is built, the ids the site's scripts read (scripts/checks/markup/reserved.py) must each appear at most
once in it: a script takes the first element with an id, so a second one would feed it something else.
"""

import sys
from concurrent.futures import Future
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from scripts.catalog.fences import scan_fences  # noqa: E402
from scripts.catalog.frontmatter import shown_path, split_front_matter  # noqa: E402
from scripts.checks.beside import submit  # noqa: E402
from scripts.checks.markup.html_policy import TOO_DEEP, Finding, body_verdict, source_line  # noqa: E402
from scripts.checks.markup.reserved import Reserved, repeated_ids, reserved_markup  # noqa: E402

_reserved: dict[str, Reserved] = {}  # docs_dir -> what the scripts read, once per build
_pending: list[tuple[Future[list[Finding] | str], object]] = []  # this build's checks, with their pages


def _located(findings, page) -> list[str]:
    """Each finding as `path:line: finding` (or `path: finding` when no source line shows it, or the page has
    no source file: one a plugin generated)."""
    source = Path(page.file.abs_src_path) if page.file.abs_src_path else None
    if source is None or not source.is_file():
        return [f"docs/{page.file.src_uri}: {finding}" for finding in findings]
    shown = shown_path(source)
    text = source.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    split = split_front_matter(text) if text.startswith("---\n") else None
    body, first_line = (split[1], split[2]) if split else (text, 1)
    lines = body.split("\n")
    in_code = scan_fences(lines)[0]
    located = []
    for finding in findings:
        line = source_line(finding, lines, first_line, in_code)
        located.append(f"{shown}:{line}: {finding}" if line else f"{shown}: {finding}")
    return located


def on_config(config):
    _reserved[str(config.docs_dir)] = reserved_markup(config.docs_dir)
    _pending.clear()  # what an aborted build left
    return config


@event_priority(-200)  # after every hook that adds content
def on_page_content(html, page, config, files):
    _pending.append((submit(body_verdict, html), page))
    return html


def on_env(env, config, files):
    """Every page of this build is rendered and none is written yet: each page's answer decides now."""
    refused, too_deep = [], []
    for future, page in _pending:
        try:
            verdict = future.result()
        except Exception as exc:  # the helper process died, or could not run the check
            _pending.clear()
            raise PluginError(f"docs/{page.file.src_uri}: the page's HTML could not be checked ({exc!r})") from None
        if verdict == TOO_DEEP:
            too_deep.append(f"docs/{page.file.src_uri}: {TOO_DEEP}")
        elif verdict:
            refused += _located(verdict, page)
    _pending.clear()
    if too_deep:
        raise PluginError("\n".join(too_deep))
    if refused:
        raise PluginError(
            "the page would carry markup that is not allowed (see scripts/checks/markup/html_policy.py):\n"
            + "\n".join(refused)
        )
    return env


@event_priority(-200)  # the page as it is written, after every hook that rewrites it
def on_post_page(output, page, config):
    repeated = repeated_ids(output, _reserved[str(config.docs_dir)])
    if repeated:
        raise PluginError(
            f"docs/{page.file.src_uri}: the built page holds "
            + ", ".join(f"id '{name}' {count} times" for name, count in repeated.items())
            + ": the site's scripts read the first element with each, so each may appear once"
        )
    return output
