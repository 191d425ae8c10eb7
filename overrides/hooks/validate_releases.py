"""Fail the build, naming file and line, when any page is wrong: release facts and translations
(scripts/catalog/), and what every file under docs/ may not be (scripts/checks/pages.py: links leaving the
repository, folders named like pages, strict front matter, unknown markers, unclosed fences, names and
languages, page content rendered as MkDocs renders it: nesting, reserved markup, invisible controls).

Runs first (high priority, in on_config) so a bad page stops the build before MkDocs collects or reads
any file: a symbolic link to /proc/self/environ is refused before anything could publish it.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import ReleaseDataError  # noqa: E402
from scripts.checks.markup.page_markup import MarkdownSetup  # noqa: E402
from scripts.checks.pages import check_site_pages  # noqa: E402
from scripts.registry.evidence import EvidenceError, evidence_of  # noqa: E402


@event_priority(100)
def on_config(config):
    # Pages are rendered with the Markdown extensions MkDocs will use (page content is checked as rendered).
    problems = check_site_pages(config.docs_dir, MarkdownSetup(tuple(config.markdown_extensions), config.mdx_configs))
    try:
        cached_catalog(config.docs_dir)
    except ReleaseDataError as exc:
        problems = problems + exc.problems
    try:
        evidence_of(config.docs_dir)  # the registry evidence every compatibility view reads
    except EvidenceError as exc:
        raise PluginError(f"{exc}\nthe site was not built.") from None
    if problems:
        error = ReleaseDataError(problems)
        raise PluginError(f"{error}\n{len(error.problems)} problem(s) in the pages; the site was not built.")
    return config
