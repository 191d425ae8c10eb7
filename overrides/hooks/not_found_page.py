"""One 404 page for both languages (overrides/404.html).

static-i18n builds every language into the same site directory, and MkDocs writes each build's 404.html at
its root, so the last language built (English) would win: English chrome around a bilingual message, and a
language menu pointing into whatever page that build rendered before. The default language's build is kept:
an empty template output is not written (MkDocs skips it), so the later builds leave it alone.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.plugins import event_priority  # noqa: E402

from scripts.releases import DEFAULT_LANGUAGE  # noqa: E402


@event_priority(-100)  # after every hook that rewrites the page (the search worker URL)
def on_post_template(output_content, template_name, config):
    if template_name == "404.html" and config.theme["language"] != DEFAULT_LANGUAGE:
        return ""
    return output_content
