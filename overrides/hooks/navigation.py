"""Order the release section of the navigation newest first and name it in the build's language.

MkDocs sorts files by name, which puts 1.10 before 1.2; versions must sort as numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.nav import Section  # noqa: E402

from scripts.releases import RELEASES_DIR, cached_catalog, version_key  # noqa: E402

SECTION_TITLES = {"zh": "版本", "en": "Releases"}


def _versions_by_src(config):
    """Map each release file to its front matter version (file names are not trusted to be versions)."""
    catalog = cached_catalog(config.docs_dir)
    return {page.src_uri: page.version for release in catalog.releases for page in release.pages.values()}


@event_priority(-200)  # after static-i18n (-100), which rebuilds the navigation per language
def on_nav(nav, config, files):
    lang = config.theme["language"]
    versions = _versions_by_src(config)
    for item in nav.items:
        if isinstance(item, Section) and item.children and all(
            getattr(child, "file", None) and child.file.src_uri.startswith(f"{RELEASES_DIR}/") for child in item.children
        ):
            item.title = SECTION_TITLES.get(lang, item.title)
            item.children.sort(key=lambda child: version_key(versions.get(child.file.src_uri, "0.0")), reverse=True)
    _relink(nav)
    return nav


def _relink(nav):
    """Recompute previous/next page links after reordering, as MkDocs did for the original order."""
    pages = nav.pages = [p for p in _walk(nav.items)]
    for i, page in enumerate(pages):
        page.previous_page = pages[i - 1] if i > 0 else None
        page.next_page = pages[i + 1] if i + 1 < len(pages) else None


def _walk(items):
    for item in items:
        if isinstance(item, Section):
            yield from _walk(item.children)
        elif getattr(item, "file", None) is not None:
            yield item
