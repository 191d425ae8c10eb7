"""Front matter `title` and `description` are text: escape them once, for every page, before any template.

Material's templates print `page.meta.title` and `page.meta.description` unescaped into <title>, the header,
<meta name="description"> and Open Graph tags, so a title such as `<img src=x onerror=…>` would run as
HTML. MkDocs derives `page.title` from the same meta title, so the navigation and the search index get the
escaped text too, and show it as the author wrote it. (Release pages validate these fields as one-line
text; scripts/checks/pages.py does the same for other pages.)
"""

import html

from mkdocs.plugins import event_priority

TEXT_FIELDS = ("title", "description")


def escape_meta(meta: dict) -> dict:
    for name in TEXT_FIELDS:
        value = meta.get(name)
        if isinstance(value, str) and not meta.get(f"_{name}_escaped"):
            meta[name] = html.escape(value, quote=True)
            meta[f"_{name}_escaped"] = True
    return meta


@event_priority(100)  # before any hook reads the meta title
def on_page_markdown(markdown, page, config, files):
    escape_meta(page.meta)
    return markdown
