"""Give every release page its H1, fact box (date, official source, feature table) and footer.

The facts come from the page's validated front matter, so the page body never repeats them by hand.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.utils import get_relative_url  # noqa: E402

from scripts.releases import RELEASES_DIR, cached_catalog, language_of  # noqa: E402
from scripts.render import release_footer, release_header  # noqa: E402


def _release_page(page, config):
    """The catalog's record for this MkDocs page, or None if it is not a release page."""
    src = page.file.src_uri
    if not src.startswith(f"{RELEASES_DIR}/"):
        return None
    lang = language_of(Path(src))
    catalog = cached_catalog(config.docs_dir)
    for release in catalog.releases:
        candidate = release.pages[lang]
        if candidate.src_uri == src:
            return catalog, candidate
    return None


def on_page_markdown(markdown, page, config, files):
    found = _release_page(page, config)
    if not found:
        return markdown
    catalog, release = found
    compare = files.get_file_from_path("compare.md" if release.lang == "zh" else f"compare.{release.lang}.md")
    compare_href = get_relative_url(compare.url, page.url) if compare else None
    return release_header(release) + "\n" + markdown + "\n" + release_footer(catalog, release, compare_href)


def on_page_content(html, page, config, files):
    # The navigation lists releases by number; the full title stays in <title> and the H1.
    found = _release_page(page, config)
    if found:
        page.title = f"PyTorch {found[1].version}"
    return html
