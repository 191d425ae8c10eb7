"""Page metadata is what the checks read, and every title and description is text: checked and escaped once, for
every page, before any template.

- MkDocs's `page.meta` must be exactly the front matter the page checks validated (scripts/checks/page_meta.py):
  metadata in any other form stops the build with the page's file and line.
- Material's templates print `page.meta.title` and `page.meta.description` unescaped into <title>, the header,
  <meta name="description"> and Open Graph tags, so a title such as `<img src=x onerror=…>` would run as HTML:
  both are escaped here. MkDocs derives `page.title` from the same meta title, so the navigation and the search
  index get the escaped text too, and show it as the author wrote it. (Release pages validate these fields as
  one-line text; scripts/checks/pages.py does the same for other pages.)
- A page without a front matter title gets MkDocs's (its first heading, else its file name) as an escaped meta
  title once rendered: Material would otherwise print `page.title | striptags` into <title> and og:title, and
  striptags turns the heading's `&lt;/title&gt;` back into markup.
"""

import html
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from scripts.catalog.frontmatter import shown_path  # noqa: E402
from scripts.checks.page_meta import meta_problem  # noqa: E402

TEXT_FIELDS = ("title", "description")


def escape_meta(meta: dict) -> dict:
    for name in TEXT_FIELDS:
        value = meta.get(name)
        if isinstance(value, str) and not meta.get(f"_{name}_escaped"):
            meta[name] = html.escape(value, quote=True)
            meta[f"_{name}_escaped"] = True
    return meta


def _shown(page) -> str:
    source = page.file.abs_src_path
    return shown_path(Path(source)) if source else f"docs/{page.file.src_uri}"


@event_priority(100)  # before any hook reads or adds to the meta
def on_page_markdown(markdown, page, config, files):
    problem = meta_problem(page.meta, page.file.abs_src_path, _shown(page))
    if problem:
        raise PluginError(f"{problem}\nthe site was not built.")
    escape_meta(page.meta)
    return markdown


@event_priority(100)  # once MkDocs has the rendered heading, before any hook reads the title
def on_page_content(content, page, config, files):
    if "title" not in page.meta:
        # page.title is the heading as MkDocs extracts it (markup stripped, entities kept) or the file name
        # (plain: names are [a-z0-9._-]); as text, escaped once.
        page.meta["title"] = html.escape(html.unescape(page.title or ""), quote=True)
        page.meta["_title_escaped"] = True
    return content
