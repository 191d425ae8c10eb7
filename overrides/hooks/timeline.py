"""Replace the `<!-- timeline -->` marker on the home pages with the timeline built from front matter (and the line
about a release PyPI has that the site has no page for yet): scripts/views/timeline.py `home_timeline`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import language_of  # noqa: E402
from scripts.verdicts.compute import cached_verdicts  # noqa: E402
from scripts.views.timeline import home_timeline  # noqa: E402

MARKER = "<!-- timeline -->"


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    lang = language_of(Path(page.file.src_uri))
    catalog, verdicts = cached_catalog(config.docs_dir), cached_verdicts(config.docs_dir)
    from_src = page.file.src_uri.replace(f".{lang}.md", ".md")
    return markdown.replace(MARKER, home_timeline(catalog, verdicts, lang, from_src))
