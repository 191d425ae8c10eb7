"""Fill the marker comments of the generated pages from the release catalog:

<!-- lifecycle -->          each feature on a shared release axis  (docs/lifecycle.md)
<!-- compare -->            pick two releases, see what changed     (docs/compare.md)
<!-- topic: Distributed --> one area's features, release by release (docs/topics/*.md)
<!-- compatibility -->      Python/CUDA/ROCm/torchvision/torchaudio per release (docs/compatibility.md)
<!-- support-timeline -->   when support for each Python, CUDA, platform ended (docs/support.md)
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from scripts.compat_views import compat_matrix  # noqa: E402
from scripts.registry import evidence_of  # noqa: E402
from scripts.releases import AREAS, cached_catalog, language_of, page_file_name  # noqa: E402
from scripts.support_view import support_timeline  # noqa: E402
from scripts.views import compare, lifecycle, topic  # noqa: E402

TOPIC_MARKER = re.compile(r"<!-- topic: ([^>]+?) -->")
PLACEHOLDER = '<div class="generated-view" data-view="{name}"></div>'
MARKERS = ("<!-- lifecycle -->", "<!-- compare -->", "<!-- compatibility -->", "<!-- support-timeline -->")


def _evidence(config):
    """The PyPI evidence file (docs/.pypi-evidence.json), or None when there is none."""
    return evidence_of(config.docs_dir)


def _href_factory(page, files):
    """URLs from this page to release pages, and to the views in this page's language (`href.view`), taken
    from MkDocs' file table (right online and offline)."""

    def url_to(src_uri, anchor=None):
        target = files.get_file_from_path(src_uri)
        if target is None:
            raise PluginError(f"{page.file.src_uri}: no built page for {src_uri}")
        url = get_relative_url(target.url, page.url)
        return f"{url}#{anchor}" if anchor else url

    def href(release_page, anchor=None):
        return url_to(release_page.src_uri, anchor)

    def view(name, anchor=None):
        """URL to the view `name` (e.g. "compatibility") in this page's language."""
        return url_to(page_file_name(name, language_of(Path(page.file.src_uri))), anchor)

    href.view = view
    return href


def _after_markdown(page, name, generated):
    """A placeholder for the view `name`, whose HTML (`generated`) on_page_content puts in its place: the
    views are HTML already, and go into the page after Markdown instead of being parsed again by Markdown's
    HTML block handling (a third of a build)."""
    page.meta.setdefault("_generated_views", {})[name] = generated
    return PLACEHOLDER.format(name=name)


def on_page_markdown(markdown, page, config, files):
    if not any(marker in markdown for marker in MARKERS) and not TOPIC_MARKER.search(markdown):
        return markdown
    catalog = cached_catalog(config.docs_dir)
    lang = language_of(Path(page.file.src_uri))
    href = _href_factory(page, files)
    views = {
        "lifecycle": lambda: lifecycle(catalog, lang, href),
        "compare": lambda: compare(catalog, lang, href),
        "compatibility": lambda: compat_matrix(catalog, lang, href, _evidence(config)),
    }
    for name, render in views.items():
        marker = f"<!-- {name} -->"
        if marker in markdown:
            page.meta["uses_views"] = True  # overrides/main.html loads views.js on this page only
            if name == "compatibility":
                page.meta["uses_install"] = True  # install.js: the matrix's platform choice
            markdown = markdown.replace(marker, _after_markdown(page, name, render()))
    # The support timeline and the topics end as Markdown's blocks of HTML did (they were ones): without
    # their last newline.
    if "<!-- support-timeline -->" in markdown:
        generated = support_timeline(catalog, lang, href, _evidence(config)).rstrip("\n")
        markdown = markdown.replace("<!-- support-timeline -->", _after_markdown(page, "support-timeline", generated))

    def render_topic(match):
        area = match.group(1).strip()
        if area not in AREAS:
            raise PluginError(
                f"{page.file.src_uri}: unknown area '{area}' in topic marker (expected one of: {', '.join(AREAS)})"
            )
        page.meta["nav_title"] = AREAS[area][lang]
        return _after_markdown(page, f"topic-{match.start()}", topic(catalog, area, lang, href).rstrip("\n"))

    return TOPIC_MARKER.sub(render_topic, markdown)


def on_page_content(html, page, config, files):
    # Inside the "Topics" section the navigation needs only the area's name, not "Topic: …".
    if "nav_title" in page.meta:
        page.title = page.meta["nav_title"]
    for name, generated in page.meta.pop("_generated_views", {}).items():
        placeholder = PLACEHOLDER.format(name=name)
        if html.count(placeholder) != 1:
            raise PluginError(f"{page.file.src_uri}: the {name} view's placeholder did not survive Markdown")
        html = html.replace(placeholder, generated)
    return html
