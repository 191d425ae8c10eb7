"""Fill the marker comments of the generated pages (lifecycle, compare, topics, compatibility, support) from the
catalog and the verdicts: scripts/views/markers.py `fill_markers`. This hook gives it the URLs (from MkDocs' file
table, right online and offline), keeps the big views' HTML until Markdown is done, and marks the pages that need
views.js or install.js.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import language_of, page_file_name  # noqa: E402
from scripts.verdicts.compute import cached_verdicts  # noqa: E402
from scripts.views.markers import PLACEHOLDER, UnknownArea, fill_markers, has_markers  # noqa: E402


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


def on_page_markdown(markdown, page, config, files):
    if not has_markers(markdown):
        return markdown
    lang = language_of(Path(page.file.src_uri))
    catalog, verdicts = cached_catalog(config.docs_dir), cached_verdicts(config.docs_dir)
    try:
        filled = fill_markers(markdown, catalog, verdicts, lang, _href_factory(page, files))
    except UnknownArea as exc:
        raise PluginError(f"{page.file.src_uri}: {exc}") from None
    if filled.views:
        page.meta["_generated_views"] = filled.views
    if filled.scripted:
        page.meta["uses_views"] = True  # overrides/main.html loads views.js on this page only
    page.meta["uses_machine"] = filled.machine  # main.html loads machine.js and the environment reader here only
    if "compatibility" in filled.views:
        page.meta["uses_install"] = True  # install.js: the matrix's platform choice
    if filled.nav_title is not None:
        page.meta["nav_title"] = filled.nav_title
    return filled.markdown


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
