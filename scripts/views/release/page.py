"""A whole release page: its generated header (H1, quick facts, summary, source), the install section, the feature
list, the page's own Markdown, the breaking changes and the footer. The one function the release page hook calls."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from scripts.catalog.history import cached_status_today
from scripts.catalog.model import Catalog, ReleasePage
from scripts.snippets.badges import badge_for
from scripts.verdicts.model import Verdicts
from scripts.verdicts.support import planned_releases
from scripts.views.matrix import matrix_row_id
from scripts.views.release.changes import changes_section
from scripts.views.release.features import features_section
from scripts.views.release.header import release_footer, release_header
from scripts.views.release.install import install_section
from scripts.views.release.provisional import provisional_section
from scripts.views.release.quick_facts import quick_facts


def placeholder(name: str) -> str:
    """Where a part of the page that is HTML already goes: the release page hook puts the HTML in after Markdown,
    instead of having Markdown's HTML block handling parse it again (`data-view` is markup page content may not
    write: scripts/checks/markup/reserved.py)."""
    return f'<div class="generated-view" data-view="release-{name}"></div>'


HEADER_PLACEHOLDER = placeholder("header")  # the H1, quick facts and fact box
# HTML that still needs Markdown: a fenced code block, or md_in_html's attribute.
NEEDS_MARKDOWN = re.compile(r"^(?:```|~~~)|<[^<>]*\smarkdown(?:[\s=>])", re.M)


@dataclass(frozen=True)
class RenderedPage:
    """A release page as the build needs it: the Markdown around the page's own body (placeholders where a part is
    HTML already), and that HTML by placeholder, which goes in after Markdown."""

    markdown: str
    after_markdown: dict[str, str]


def heading_then_html(section: str, name: str, after_markdown: dict[str, str]) -> str:
    """A section written as a Markdown heading (the table of contents lists it) and then HTML only: the heading
    stays Markdown, the HTML goes in `after_markdown` under its placeholder, which takes its place."""
    head, _, html = section.lstrip("\n").partition("\n")
    if not section.strip():
        return section
    if not head.startswith("## ") or NEEDS_MARKDOWN.search(html):
        raise ValueError(f"the release page's {name} section is not a Markdown heading then HTML only")
    after_markdown[placeholder(name)] = html.strip("\n")
    return f"\n{head}\n\n{placeholder(name)}\n"


@dataclass(frozen=True)
class PageLinks:
    """URLs from one release page to the pages around it, in its language (None where the site has no such page):
    the hook computes them from MkDocs' file table, right for the hosted site and the offline copy alike."""

    release: Callable[[str], str | None]  # version -> URL of that release's page
    compare: str | None = None
    lifecycle: str | None = None
    compatibility: str | None = None
    machine: str | None = None


def render(
    catalog: Catalog, verdicts: Verdicts, page: ReleasePage, markdown: str, links: PageLinks, snippet_entries: dict
) -> RenderedPage:
    """The release page: its generated header (H1, quick facts, summary, source), and its Markdown: the header's
    placeholder, install, features, the page's own body, what a provisional page adds (registry changes,
    announcements, the next release), changes, footer.
    `snippet_entries`: the snippet status file's entries (the badges of the changes' before/after code)."""
    lang = page.lang
    lifecycle = links.lifecycle

    def feature_href(feature_id: str) -> str:
        return f"{lifecycle}#feature-{feature_id}" if lifecycle else f"#{feature_id}"

    release = catalog.by_version()[page.version]
    matrix = f"{links.compatibility}#{matrix_row_id(page.version)}" if links.compatibility else None
    quick = quick_facts(catalog, release, lang, verdicts, matrix, links.release, links.machine)
    # What a reader came for first: the facts, then the install picker, then the features and the page's own text.
    after_markdown = {HEADER_PLACEHOLDER: release_header(page, quick)}
    registry = provisional_section(page, verdicts[page.version], verdicts.checked, planned_releases(catalog, verdicts))
    install = heading_then_html(install_section(release, verdicts, lang), "install", after_markdown)
    features = heading_then_html(
        features_section(page, cached_status_today(catalog), lifecycle), "features", after_markdown
    )
    changes = changes_section(page, catalog, snippet_entries, links.release, badge_for, feature_href)
    footer = release_footer(catalog, page, links.compare, links.release)
    body = "\n".join((HEADER_PLACEHOLDER, install, features, markdown, registry, changes, footer))
    return RenderedPage(body, after_markdown)
