"""Give every release page its H1, fact box (date, official source, feature table with each feature's
status today) and footer.

The facts come from the catalog (the Chinese page's front matter, the words of the page's own language),
so the page body never repeats them by hand.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from scripts.compat_views import matrix_row_id  # noqa: E402
from scripts.history import status_today  # noqa: E402
from scripts.install_view import install_section, quick_facts  # noqa: E402
from scripts.registry import evidence_of  # noqa: E402
from scripts.releases import DEFAULT_LANGUAGE, RELEASES_DIR, cached_catalog, language_of  # noqa: E402
from scripts.render import changes_section, release_footer, release_header  # noqa: E402
from scripts.snippets.badges import badge_for  # noqa: E402
from scripts.snippets.status import DEFAULT_STATUS_FILE, load_status  # noqa: E402

# The header (H1, quick facts, fact box) is HTML already: it goes into the page after Markdown, through this
# placeholder, instead of being parsed again by Markdown's HTML block handling.
HEADER_PLACEHOLDER = '<div class="generated-view" data-view="release-header"></div>'
_status_entries: dict = {}
_evidence: dict | None = None
# Read once per build (static-i18n runs one per language, `mkdocs serve` one per change), not per page.
_catalog = None
_statuses: dict = {}


def on_config(config):
    # The snippet badges hook has already refused a status file that does not parse, validate_releases a
    # catalog that does not load.
    global _status_entries, _evidence, _catalog, _statuses
    _status_entries = load_status(Path(config.docs_dir) / DEFAULT_STATUS_FILE).get("snippets", {})
    _evidence = evidence_of(config.docs_dir)
    _catalog = cached_catalog(config.docs_dir)
    _statuses = status_today(_catalog)
    return config


def _release_page(page):
    """The catalog's record for this MkDocs page, or None if it is not a release page."""
    src = page.file.src_uri
    if not src.startswith(f"{RELEASES_DIR}/"):
        return None
    lang = language_of(Path(src))
    catalog = _catalog
    for release in catalog.releases:
        candidate = release.pages[lang]
        if candidate.src_uri == src:
            return catalog, candidate
    return None


def _page_url(files, page, src_uri_default, lang):
    """URL from `page` to the page of `src_uri_default` in the language being built, or None."""
    src = src_uri_default if lang == DEFAULT_LANGUAGE else src_uri_default.replace(".md", f".{lang}.md")
    target = files.get_file_from_path(src)
    return get_relative_url(target.url, page.url) if target else None


def on_page_markdown(markdown, page, config, files):
    found = _release_page(page)
    if not found:
        return markdown
    catalog, release = found
    lang = release.lang
    compare_href = _page_url(files, page, "compare.md", lang)
    lifecycle_href = _page_url(files, page, "lifecycle.md", lang)
    statuses = _statuses

    def release_href(version):
        return _page_url(files, page, f"{RELEASES_DIR}/{version}.md", lang)

    def feature_href(feature_id):
        return f"{lifecycle_href}#feature-{feature_id}" if lifecycle_href else f"#{feature_id}"

    whole = catalog.by_version()[release.version]
    page.meta["uses_install"] = True  # overrides/main.html loads install.js (the install picker) here only
    matrix = _page_url(files, page, "compatibility.md", lang)
    quick = quick_facts(
        catalog, whole, lang, _evidence, f"{matrix}#{matrix_row_id(release.version)}" if matrix else None
    )
    header = release_header(release, statuses, lifecycle_href, quick)
    install = install_section(whole, lang, _evidence)
    changes = changes_section(release, catalog, _status_entries, release_href, badge_for, feature_href)
    footer = release_footer(catalog, release, compare_href, release_href)
    page.meta["_release_header"] = header
    return HEADER_PLACEHOLDER + "\n" + markdown + "\n" + install + "\n" + changes + "\n" + footer


def on_page_content(html, page, config, files):
    found = _release_page(page)
    if found:
        # The navigation lists releases by number; the full title stays in <title> and the H1.
        page.title = f"PyTorch {found[1].version}"
        if html.count(HEADER_PLACEHOLDER) != 1:
            raise PluginError(f"{page.file.src_uri}: the release header's placeholder did not survive Markdown")
        html = html.replace(HEADER_PLACEHOLDER, page.meta.pop("_release_header"))
    return html
