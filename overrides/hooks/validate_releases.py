"""Fail the build, naming file and line, when any page is wrong: release facts and translations
(scripts/catalog/), and what every file under docs/ may not be (scripts/checks/pages.py: links leaving the
repository, folders named like pages, strict front matter, unknown markers, unclosed fences, names and
languages, page content rendered as MkDocs renders it: nesting, reserved markup, invisible controls).

Runs first (high priority, in on_config) so a bad page stops the build before MkDocs collects or reads
any file: a symbolic link to /proc/self/environ is refused before anything could publish it. Each page's
content check (its code blocks, and its content rendered) runs in the build's helper process
(scripts/checks/beside.py) while MkDocs goes on: a page's answer is awaited before MkDocs renders that page (a
page nested too deeply for its stack never reaches it), and every page's before anything is written.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from scripts.catalog.frontmatter import Problem  # noqa: E402
from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import ReleaseDataError  # noqa: E402
from scripts.checks.beside import submit  # noqa: E402
from scripts.checks.markup.page_markup import MarkdownSetup  # noqa: E402
from scripts.checks.pages import SiteChecks, check_site_pages  # noqa: E402
from scripts.registry.evidence import EvidenceError, evidence_of  # noqa: E402

_checks: dict[str, SiteChecks] = {}  # docs_dir -> this build's checks


def _refuse(problems: list[Problem]) -> PluginError:
    error = ReleaseDataError(problems)
    return PluginError(f"{error}\n{len(error.problems)} problem(s) in the pages; the site was not built.")


def _every_problem(checks: SiteChecks) -> list[Problem]:
    try:
        return checks.all_problems()
    except Exception as exc:  # the helper process died, or could not run a check
        raise PluginError(f"the pages could not be checked ({exc!r}); the site was not built.") from None


@event_priority(100)
def on_config(config):
    # Pages are rendered with the Markdown extensions MkDocs will use (page content is checked as rendered).
    setup = MarkdownSetup(tuple(config.markdown_extensions), config.mdx_configs)
    checks = _checks[str(config.docs_dir)] = check_site_pages(config.docs_dir, setup, submit)
    problems = list(checks.problems)
    try:
        cached_catalog(config.docs_dir)
    except ReleaseDataError as exc:
        problems = problems + exc.problems
    try:
        evidence_of(config.docs_dir)  # the registry evidence every compatibility view reads
    except EvidenceError as exc:
        raise PluginError(f"{exc}\nthe site was not built.") from None
    if problems:
        raise _refuse(problems + _every_problem(checks)[len(checks.problems) :])
    return config


@event_priority(100)  # before any hook works on the page's text, and before MkDocs renders it
def on_page_markdown(markdown, page, config, files):
    checks = _checks[str(config.docs_dir)]
    future = checks.content.get(page.file.abs_src_path or "")
    try:
        found = future.result() if future is not None else []
    except Exception:
        found = _every_problem(checks)  # raises
    if found:
        raise _refuse(_every_problem(checks))
    return markdown


def on_env(env, config, files):
    """Every page is rendered and none is written yet: every page's answer decides now (those of the other
    language's pages too, so a bad page of either stops the build before anything is published)."""
    problems = _every_problem(_checks[str(config.docs_dir)])
    if problems:
        raise _refuse(problems)
    return env
