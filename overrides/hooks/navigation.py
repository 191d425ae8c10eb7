"""Order the release section of the navigation newest first and name it in the build's language.

MkDocs sorts files by name, which puts 1.10 before 1.2; versions must sort as numbers.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.nav import Section  # noqa: E402

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import AREAS, RELEASES_DIR, area_slug, version_key  # noqa: E402

SECTION_TITLES = {"releases": {"zh": "版本", "en": "Releases"}, "topics": {"zh": "主题", "en": "Topics"}}
# Top-level order: home, the cross-release views, the topics, then the releases: the 17 topics come before
# the 33 releases so that they are in view in the sidebar without scrolling (the home page lists the
# releases anyway, and a release page's sidebar scrolls to the page itself).
TOP_ORDER = ("index", "compatibility", "machine", "upgrade", "compare", "support", "lifecycle", "topics", "releases")


def _versions_by_src(config):
    """Map each release file to its front matter version (file names are not trusted to be versions)."""
    catalog = cached_catalog(config.docs_dir)
    return {page.src_uri: page.version for release in catalog.releases for page in release.pages.values()}


def _section_dir(item):
    """'releases' for a section whose pages all live in docs/releases/, and so on; None if mixed."""
    dirs = {child.file.src_uri.split("/")[0] for child in item.children if getattr(child, "file", None)}
    return (
        dirs.pop()
        if len(dirs) == 1 and len(item.children) == sum(1 for c in item.children if getattr(c, "file", None))
        else None
    )


def _top_key(item):
    if isinstance(item, Section):
        name = _section_dir(item) or ""
    else:
        name = item.file.src_uri.split("/")[0].split(".")[0]
    return TOP_ORDER.index(name) if name in TOP_ORDER else len(TOP_ORDER)


def _topic_key(child):
    stem = Path(child.file.src_uri).name.split(".")[0]
    slugs = [area_slug(area) for area in AREAS]
    return slugs.index(stem) if stem in slugs else len(slugs)


@event_priority(-200)  # after static-i18n (-100), which rebuilds the navigation per language
def on_nav(nav, config, files):
    lang = config.theme["language"]
    versions = _versions_by_src(config)
    for item in nav.items:
        if not isinstance(item, Section):
            continue
        kind = _section_dir(item)
        if kind in SECTION_TITLES:
            item.title = SECTION_TITLES[kind].get(lang, item.title)
        if kind == RELEASES_DIR:
            item.children.sort(key=lambda child: version_key(versions.get(child.file.src_uri, "0.0")), reverse=True)
        elif kind == "topics":
            item.children.sort(key=_topic_key)
    nav.items.sort(key=_top_key)
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
