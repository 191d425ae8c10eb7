"""Fill the marker comments of the generated pages from the release catalog:

    <!-- lifecycle -->          feature × release maturity matrix      (docs/lifecycle.md)
    <!-- compare -->            pick two releases, see what changed     (docs/compare.md)
    <!-- topic: Distributed --> one area's features, release by release (docs/topics/*.md)
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from scripts.releases import AREAS, cached_catalog, language_of  # noqa: E402
from scripts.render import compare, lifecycle, topic  # noqa: E402

TOPIC_MARKER = re.compile(r"<!-- topic: ([^>]+?) -->")


def _href_factory(page, files):
    """URLs from this page to release pages, taken from MkDocs' file table (right online and offline)."""

    def href(release_page, anchor=None):
        target = files.get_file_from_path(release_page.src_uri)
        if target is None:
            raise PluginError(f"{page.file.src_uri}: no built page for {release_page.src_uri}")
        url = get_relative_url(target.url, page.url)
        return f"{url}#{anchor}" if anchor else url

    return href


def on_page_markdown(markdown, page, config, files):
    if "<!-- lifecycle -->" not in markdown and "<!-- compare -->" not in markdown and not TOPIC_MARKER.search(markdown):
        return markdown
    catalog = cached_catalog(config.docs_dir)
    lang = language_of(Path(page.file.src_uri))
    href = _href_factory(page, files)
    markdown = markdown.replace("<!-- lifecycle -->", lifecycle(catalog, lang, href))
    markdown = markdown.replace("<!-- compare -->", compare(catalog, lang, href))

    def render_topic(match):
        area = match.group(1).strip()
        if area not in AREAS:
            raise PluginError(f"{page.file.src_uri}: unknown area '{area}' in topic marker (expected one of: {', '.join(AREAS)})")
        page.meta["nav_title"] = AREAS[area][lang]
        return topic(catalog, area, lang, href)

    return TOPIC_MARKER.sub(render_topic, markdown)


def on_page_content(html, page, config, files):
    # Inside the "Topics" section the navigation needs only the area's name, not "Topic: …".
    if "nav_title" in page.meta:
        page.title = page.meta["nav_title"]
    return html
