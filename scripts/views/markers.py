"""The generated views of the pages that carry their marker comment, put in place of it:

<!-- lifecycle -->          each feature on a shared release axis  (docs/lifecycle.md)
<!-- compare -->            pick two releases, see what changed     (docs/compare.md)
<!-- topic: Distributed --> one area's features, release by release (docs/topics/*.md)
<!-- compatibility -->      Python/CUDA/ROCm/torchvision/torchaudio per release (docs/compatibility.md)
<!-- support-timeline -->   when support for each Python, CUDA, platform ended (docs/support.md)
<!-- machine -->            the reader's machine: the form, the answer, the facts (docs/machine.md)
<!-- machine-environment --> the environment check's place                   (docs/machine.md)
<!-- machine-tables -->     the newest release per GPU, driver, glibc, macOS  (docs/machine.md)

Every view is HTML already: it goes into the page after Markdown, through a placeholder (`Filled.views`), instead
of being parsed again by Markdown's HTML block handling (a third of a build).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from scripts.catalog.model import AREAS, Catalog
from scripts.verdicts.model import Verdicts
from scripts.views.lifecycle import lifecycle, topic
from scripts.views.machine.page import environment_view, machine_view
from scripts.views.machine.tables import machine_tables_view
from scripts.views.matrix import compat_matrix
from scripts.views.support import support_timeline
from scripts.views.upgrade import compare

TOPIC_MARKER = re.compile(r"<!-- topic: ([^>]+?) -->")
PLACEHOLDER = '<div class="generated-view" data-view="{name}"></div>'
MARKERS = (
    "<!-- lifecycle -->",
    "<!-- compare -->",
    "<!-- compatibility -->",
    "<!-- support-timeline -->",
    "<!-- machine -->",
    "<!-- machine-environment -->",
    "<!-- machine-tables -->",
)


class UnknownArea(ValueError):
    """A topic marker names no area of the catalog."""


@dataclass
class Filled:
    """A page's Markdown with its markers replaced, the HTML of each view behind a placeholder (name -> HTML), and
    the navigation title of a topic page."""

    markdown: str
    views: dict[str, str] = field(default_factory=dict)
    scripted: bool = False  # a view views.js makes interactive (lifecycle, compare, compatibility) is on the page
    machine: bool = False  # the machine page's view: machine.js (and the environment reader) on the page
    nav_title: str | None = None


def has_markers(markdown: str) -> bool:
    return any(marker in markdown for marker in MARKERS) or bool(TOPIC_MARKER.search(markdown))


def fill_markers(markdown: str, catalog: Catalog, verdicts: Verdicts, lang: str, href) -> Filled:
    """Every marker of the page replaced (see the module docstring); `href(page, anchor)` gives URLs to release
    pages and `href.view(name, anchor)` to the views in this language. Raises UnknownArea."""
    filled = Filled(markdown)
    views: dict[str, Callable[[], str]] = {
        "lifecycle": lambda: lifecycle(catalog, lang, href),
        "compare": lambda: compare(catalog, lang, href),
        "compatibility": lambda: compat_matrix(catalog, lang, href, verdicts),
    }
    for name, render in views.items():
        marker = f"<!-- {name} -->"
        if marker in filled.markdown:
            filled.views[name] = render()
            filled.scripted = True
            filled.markdown = filled.markdown.replace(marker, PLACEHOLDER.format(name=name))
    # The support timeline and the topics end as the Markdown blocks of HTML they once were did: without their
    # last newline.
    if "<!-- support-timeline -->" in filled.markdown:
        filled.views["support-timeline"] = support_timeline(catalog, lang, href, verdicts).rstrip("\n")
        filled.markdown = filled.markdown.replace(
            "<!-- support-timeline -->", PLACEHOLDER.format(name="support-timeline")
        )

    _fill_machine(filled, catalog, verdicts, lang, href)

    def render_topic(match: re.Match) -> str:
        area = match.group(1).strip()
        if area not in AREAS:
            raise UnknownArea(f"unknown area '{area}' in topic marker (expected one of: {', '.join(AREAS)})")
        filled.nav_title = AREAS[area][lang]
        name = f"topic-{match.start()}"
        filled.views[name] = topic(catalog, area, lang, href).rstrip("\n")
        return PLACEHOLDER.format(name=name)

    filled.markdown = TOPIC_MARKER.sub(render_topic, filled.markdown)
    return filled


def _fill_machine(filled: Filled, catalog: Catalog, verdicts: Verdicts, lang: str, href) -> None:
    """The machine page's three views (scripts/views/machine/)."""
    pages = {release.version: release.pages[lang] for release in catalog.releases if lang in release.pages}

    def release_href(version: str) -> str | None:
        return href(pages[version]) if version in pages else None

    views: dict[str, Callable[[], str]] = {
        "machine": lambda: machine_view(
            verdicts.machine_page, lang, {v: u for v in pages if (u := release_href(v)) is not None}
        ),
        "machine-environment": lambda: environment_view(lang),
        "machine-tables": lambda: machine_tables_view(verdicts.machine_page, lang, release_href),
    }
    for name, render in views.items():
        marker = f"<!-- {name} -->"
        if marker in filled.markdown:
            filled.views[name] = render()
            filled.machine = True
            filled.markdown = filled.markdown.replace(marker, PLACEHOLDER.format(name=name))
