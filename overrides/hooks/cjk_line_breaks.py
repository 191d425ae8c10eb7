"""Chinese pages: join soft line breaks between CJK characters, which would otherwise render as spaces."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.plugins import event_priority  # noqa: E402

from scripts.views.html import join_cjk_soft_breaks  # noqa: E402


@event_priority(-50)  # after the hooks that insert generated Markdown
def on_page_markdown(markdown, page, config, files):
    if config.theme["language"] != "zh":
        return markdown
    return join_cjk_soft_breaks(markdown)
