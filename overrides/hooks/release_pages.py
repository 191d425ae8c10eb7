"""Give every release page its H1, quick facts, fact box (date, official source, feature table with each feature's
status today), install section, breaking changes and footer: scripts/views/release/page.py `render`.

The facts come from the catalog (the Chinese page's front matter, the words of the page's own language) and the
verdicts (computed once per build), so the page body never repeats them by hand. This hook only finds the page,
computes its links from MkDocs' file table and hands them over.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import DEFAULT_LANGUAGE, RELEASES_DIR, language_of  # noqa: E402
from scripts.snippets.status import DEFAULT_STATUS_FILE, load_status  # noqa: E402
from scripts.verdicts.compute import cached_verdicts  # noqa: E402
from scripts.views.release.page import PageLinks, render  # noqa: E402

_status_entries: dict = {}


def on_config(config):
    # The snippet badges hook has already refused a status file that does not parse.
    global _status_entries
    _status_entries = load_status(Path(config.docs_dir) / DEFAULT_STATUS_FILE).get("snippets", {})
    return config


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


def _page_url(files, page, src_uri_default, lang):
    """URL from `page` to the page of `src_uri_default` in the language being built, or None."""
    src = src_uri_default if lang == DEFAULT_LANGUAGE else src_uri_default.replace(".md", f".{lang}.md")
    target = files.get_file_from_path(src)
    return get_relative_url(target.url, page.url) if target else None


def on_page_markdown(markdown, page, config, files):
    found = _release_page(page, config)
    if not found:
        return markdown
    catalog, release = found
    lang = release.lang
    links = PageLinks(
        release=lambda version: _page_url(files, page, f"{RELEASES_DIR}/{version}.md", lang),
        compare=_page_url(files, page, "compare.md", lang),
        lifecycle=_page_url(files, page, "lifecycle.md", lang),
        compatibility=_page_url(files, page, "compatibility.md", lang),
        machine=_page_url(files, page, "machine.md", lang),
    )
    page.meta["uses_install"] = True  # overrides/main.html loads install.js (the install picker) here only
    rendered = render(catalog, cached_verdicts(config.docs_dir), release, markdown, links, _status_entries)
    page.meta["_release_html"] = rendered.after_markdown
    return rendered.markdown


def on_page_content(html, page, config, files):
    # The navigation lists releases by number; the full title stays in <title> and the H1.
    found = _release_page(page, config)
    if found:
        page.title = f"PyTorch {found[1].version}"
        for placeholder, generated in page.meta.pop("_release_html").items():
            if html.count(placeholder) != 1:
                raise PluginError(f"{page.file.src_uri}: the placeholder {placeholder} did not survive Markdown")
            html = html.replace(placeholder, generated)
    return html
