"""Replace the `<!-- timeline -->` marker on the home pages with the timeline built from front matter."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from scripts.releases import cached_catalog, language_of  # noqa: E402
from scripts.render import timeline  # noqa: E402

MARKER = "<!-- timeline -->"


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    lang = language_of(Path(page.file.src_uri))
    generated = timeline(cached_catalog(config.docs_dir), lang, from_src=page.file.src_uri.replace(f".{lang}.md", ".md"))
    return markdown.replace(MARKER, generated)
