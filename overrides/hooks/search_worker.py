"""Swap Material's lunr search worker for ours (docs/assets/javascripts/search/engine.js), and add our layer
over Material's search box (docs/assets/javascripts/search/box.js) to every page, just before Material's bundle,
both deferred.

Material reads the worker URL from the page's config JSON and talks to it with a small, stable message
protocol, so the search box, keyboard shortcut, highlighting and result list stay Material's own. One
worker file per language tells the engine which language's results come first and where the parts of each
language's index lie (overrides/hooks/lazy_search_index.py writes them).
"""

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.plugins import event_priority  # noqa: E402

from scripts.views.search_index import PARTS, index_file  # noqa: E402

ENGINE = "assets/javascripts/search/engine.js"
BOX = "assets/javascripts/search/box.js"
WORKER = "assets/javascripts/search/worker.{lang}.js"
LANGUAGES = ("zh", "en")
MATERIAL_WORKER = re.compile(r'("search":\s*")([^"]*?)assets/javascripts/workers/search\.[0-9a-f]+\.min\.js(")')
MATERIAL_BUNDLE = re.compile(r'<script src="([^"]*?)(assets/javascripts/bundle\.[0-9a-f]+\.min\.js)"></script>')
# The worker lies three folders below the site root.
TO_ROOT = "../../../"


def worker_source(engine: str, lang: str, offline: bool) -> str:
    # Per language, its parts in the order the worker loads them: {"zh": {"head": url, "text": url}, ...}.
    indexes = {code: {part: TO_ROOT + index_file(code, offline, part) for part in PARTS} for code in LANGUAGES}
    return f"self.SEARCH_LANG = {json.dumps(lang)};\nself.SEARCH_INDEX = {json.dumps(indexes)};\nself.TIMELINE_SEARCH_WORKER = true;\n{engine}"


def point_at_our_worker(output: str, lang: str, where: str) -> str:
    replaced, count = MATERIAL_WORKER.subn(
        lambda m: f"{m.group(1)}{m.group(2)}{WORKER.format(lang=lang)}{m.group(3)}", output
    )
    if count != 1:
        raise RuntimeError(f"{where}: expected Material's search worker URL once in the page config, found {count}")
    return replaced


def add_search_box_layer(output: str, where: str) -> str:
    """Load box.js just before Material's bundle: it must see the bundle create the search worker. Both are
    deferred, so the page is drawn before they run, not after (Material starts from DOMContentLoaded, which
    deferred scripts precede), and they run in this order."""
    added, count = MATERIAL_BUNDLE.subn(
        lambda m: (
            f'<script src="{m.group(1)}{BOX}" defer></script>\n<script src="{m.group(1)}{m.group(2)}" defer></script>'
        ),
        output,
    )
    if count != 1:
        raise RuntimeError(f"{where}: expected Material's bundle script once, found {count}")
    return added


def rewrite(output: str, lang: str, where: str) -> str:
    return add_search_box_layer(point_at_our_worker(output, lang, where), where)


@event_priority(-90)
def on_post_page(output, page, config):
    return rewrite(output, config.theme["language"], page.file.src_uri)


def on_post_template(output_content, template_name, config):
    # The 404 page is a theme template, not a page: it has a search box too.
    if template_name != "404.html":
        return output_content
    return rewrite(output_content, config.theme["language"], template_name)


def on_post_build(config):
    engine = (Path(config.docs_dir) / ENGINE).read_text(encoding="utf-8")
    offline = bool(config.extra.get("offline"))
    for lang in LANGUAGES:
        target = Path(config.site_dir) / WORKER.format(lang=lang)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(worker_source(engine, lang, offline), encoding="utf-8")
