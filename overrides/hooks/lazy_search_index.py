"""Build the site's search index at build time, in two parts per language, and keep Material's own index
empty.

Page views load nothing of it: the search worker (docs/assets/javascripts/search/engine.js) loads the
reader's language's first part (titles, versions, API names; search/index.<lang>.json) when the reader
opens search or first types, answers from it, then loads the full text (search/index.<lang>.text.json);
the other language's after answering. The offline copy, which cannot fetch from file://, has each part as a
script (search/index.<lang>.js, search/index.<lang>.text.js). scripts/views/search_index.py says what each holds.

Material's search plugin would index every page too (and segment all Chinese text with jieba, about a third
of the build) for an index nothing reads: each page is marked `search: exclude` for it, so its
search_index.json holds only its config, which Material's page script still fetches.

What the index knows beyond the pages' text (scripts/views/search_index.py): the section of the release that first
lists a feature (feature ids, scripts/catalog/history.py), so it ranks above later mentions; each release page
answers to its version, and the newest release's to "latest", "newest" and 最新; other pages to the words
of their address. Which documents answer a kind of question: a release's `#install` section (FLAG_INSTALL,
for "how to install 1.8"), every document of the end-of-support page and the compatibility matrix
(FLAG_SUPPORT, for "which version supports Python 3.12"); a release's row of the matrix (FLAG_RELEASE_ROW, for
"which python does 2.15 support", opened at the row). The releases' versions and each release's install choices
(the picker's compute values), so that "install 1.12 CPU" opens `releases/1.12/?compute=cpu#install`. And the
upgrade view's address, so that "upgrade 1.13 to 2.0" offers it with both filled in.

Each page's documents are made in the build's helper process (scripts/checks/beside.py) while MkDocs renders the
next pages; the index waits for them at the end of the language's build.
"""

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from scripts.catalog.history import feature_history  # noqa: E402
from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import DEFAULT_LANGUAGE, LANGUAGES  # noqa: E402
from scripts.checks.beside import submit  # noqa: E402
from scripts.views.matrix import matrix_row_id  # noqa: E402
from scripts.views.search_index import (  # noqa: E402
    FLAG_INSTALL,
    FLAG_RELEASE_ROW,
    FLAG_SUPPORT,
    PARTS,
    build_index,
    index_file,
    index_json,
    index_script,
    install_choices,
    page_documents,
    script_key,
    split_index,
    unescape_title,
)
from scripts.views.upgrade import UI  # noqa: E402  (the upgrade view's search_upgrade_* words)

UPGRADE_VIEW_SOURCE = re.compile(r"^compare(?:\.[a-z]{2})?\.md$")
# The pages that answer "which releases support Python 3.12 / CUDA 12.1": every document of them.
SUPPORT_SOURCE = re.compile(r"^(?:support|compatibility)(?:\.[a-z]{2})?\.md$")
# The compatibility matrix, whose rows are sections of their own (FLAG_RELEASE_ROW: "which python does 2.15 support").
MATRIX_SOURCE = re.compile(r"^compatibility(?:\.[a-z]{2})?\.md$")
# A release page's install box (scripts/views/release/install.py), the answer to "how to install 1.8".
INSTALL_SECTION = "install"
RELEASE_SOURCE = re.compile(r"^releases/(\d+(?:\.\d+)+)(?:\.[a-z]{2})?\.md$")
NEWEST_KEYWORDS = "latest newest 最新 最近"
# "What's new in 2.14" asks for the release page, which rarely says "new" where a section of an older page,
# naming 2.14 in passing, does.
RELEASE_KEYWORDS = "new highlights 新特性 新功能 亮点"
# The language folder (en/) and the offline copy's file names are not what a page is called.
NOT_ADDRESS_WORDS = re.compile(
    rf"^({'|'.join(lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE)})/|(index)?\.html$"
)

_build: dict[str, Any] = {
    "docs": [],
    "introduces": {},
    "newest": None,
    "versions": [],
    "upgrade_url": None,
    "install": {},
}


def on_config(config):
    # Every language build (static-i18n runs one per language through on_config) starts a new index.
    catalog = cached_catalog(config.docs_dir)
    introduces: dict[str, set[str]] = {}
    for entry in feature_history(catalog, DEFAULT_LANGUAGE):
        introduces.setdefault(entry["steps"][0][0], set()).add(entry["id"])
    _build.update(
        docs=[],
        introduces=introduces,
        newest=catalog.releases[0].version if catalog.releases else None,
        versions=[release.version for release in catalog.releases],
        upgrade_url=None,
        install={},
    )
    return config


def address_keywords(url: str) -> str:
    """The words of a page's address, which readers know it by (compare/, lifecycle/, topics/distributed/)
    even where its text no longer says them."""
    path = NOT_ADDRESS_WORDS.sub("", url)
    return " ".join(word for word in re.split(r"[/_.-]+", path) if word)


def release_keywords(version: str, newest: str | None) -> str:
    """What a release's own page answers to beyond its text: its version (so "1.6" finds the release page
    before the timeline and topic entries titled "PyTorch 1.6"), what a release brings ("what's new in 1.6"),
    and for the newest release "latest"."""
    words = f"{version} {RELEASE_KEYWORDS}"
    return f"{words} {NEWEST_KEYWORDS}" if version == newest else words


def upgrade_shortcut(lang: str) -> dict | None:
    """What search offers for "upgrade X to Y" (engine.js fills in {from} and {to}); none without the view."""
    if not _build["upgrade_url"]:
        return None
    words = UI[lang]
    return {
        "location": _build["upgrade_url"],
        "title": words["search_upgrade_title"],
        "text": words["search_upgrade_text"],
        "versions": _build["versions"],
    }


@event_priority(50)  # before Material's search plugin reads the page
def on_page_context(context, page, config, nav):
    search = page.meta.get("search") if isinstance(page.meta.get("search"), dict) else {}
    if search.get("exclude"):
        return context
    release = RELEASE_SOURCE.match(page.file.src_uri)
    version = release.group(1) if release else None
    if UPGRADE_VIEW_SOURCE.match(page.file.src_uri):
        _build["upgrade_url"] = page.url
    if version:
        _build["install"][version] = install_choices(page.content or "")
    section_flags = None
    if version:
        section_flags = {INSTALL_SECTION: FLAG_INSTALL}
    elif MATRIX_SOURCE.match(page.file.src_uri):
        section_flags = {matrix_row_id(v): FLAG_RELEASE_ROW for v in _build["versions"]}
    _build["docs"].append(
        submit(
            page_documents,
            page.content or "",
            page.url,
            unescape_title(page.title),
            introduces=_build["introduces"].get(version, set()),
            keywords=release_keywords(version, _build["newest"]) if version else address_keywords(page.url),
            section_flags=section_flags,
            page_flags=FLAG_SUPPORT if SUPPORT_SOURCE.match(page.file.src_uri) else 0,
        )
    )
    page.meta["search"] = {**search, "exclude": True}  # Material's index: config only (see above)
    return context


def on_post_build(config):
    # Runs before static-i18n (-100) starts the next language's build, which resets the documents.
    lang = config.theme["language"]
    offline = bool(config.extra.get("offline"))
    try:
        docs = [doc for page in _build["docs"] for doc in page.result()]
    except Exception as exc:  # the helper process died, or could not read a page
        raise PluginError(f"the search index could not be built ({exc!r})") from None
    index = build_index(docs, lang, upgrade_shortcut(lang), _build["versions"], _build["install"])
    parts = split_index(index)
    for part in PARTS:
        target = Path(config.site_dir) / index_file(lang, offline, part)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = parts[part]
        target.write_text(index_script(data, script_key(lang, part)) if offline else index_json(data), encoding="utf-8")
