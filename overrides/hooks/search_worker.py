"""Swap Material's lunr search worker for ours (docs/assets/javascripts/search/engine.js).

Material reads the worker URL from the page's config JSON and talks to it with a small, stable message
protocol, so the search box, keyboard shortcut, highlighting and result list stay Material's own. One
worker file per language tells the engine which language's results come first.
"""

import re
from pathlib import Path

from mkdocs.plugins import event_priority

ENGINE = "assets/javascripts/search/engine.js"
WORKER = "assets/javascripts/search/worker.{lang}.js"
MATERIAL_WORKER = re.compile(r'("search":\s*")([^"]*?)assets/javascripts/workers/search\.[0-9a-f]+\.min\.js(")')


# Where the worker fetches the search documents on the first query (hosted site), relative to the worker.
SEARCH_DOCS = "../../../search/search_docs.json"


def worker_source(engine: str, lang: str) -> str:
    return f'self.SEARCH_LANG = "{lang}";\nself.SEARCH_DOCS = "{SEARCH_DOCS}";\nself.TIMELINE_SEARCH_WORKER = true;\n{engine}'


def point_at_our_worker(output: str, lang: str, where: str) -> str:
    replaced, count = MATERIAL_WORKER.subn(lambda m: f"{m.group(1)}{m.group(2)}{WORKER.format(lang=lang)}{m.group(3)}", output)
    if count != 1:
        raise RuntimeError(f"{where}: expected Material's search worker URL once in the page config, found {count}")
    return replaced


@event_priority(-90)
def on_post_page(output, page, config):
    return point_at_our_worker(output, config.theme["language"], page.file.src_uri)


def on_post_template(output_content, template_name, config):
    # The 404 page is a theme template, not a page: it has a search box too.
    if template_name != "404.html":
        return output_content
    return point_at_our_worker(output_content, config.theme["language"], template_name)


def on_post_build(config):
    engine = (Path(config.docs_dir) / ENGINE).read_text(encoding="utf-8")
    for lang in ("zh", "en"):
        target = Path(config.site_dir) / WORKER.format(lang=lang)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(worker_source(engine, lang), encoding="utf-8")
