"""Keep the search index off page views of the hosted site: it loads when a reader first searches.

Material's page script fetches search/search_index.json on every page load and posts it to the worker,
which made the index (about 250 KB gzipped, both languages) two thirds of every page view. Here that file
keeps its config and loses its documents; the documents move to search/search_docs.json, which our worker
(docs/assets/javascripts/search/engine.js) fetches on the first query. The offline copy keeps Material's
way (its index is a script, search_index.js, since file:// cannot fetch), so the hook stands down there.
"""

import json
from pathlib import Path

from mkdocs.plugins import event_priority

DOCS_FILE = "search/search_docs.json"


def split_index(index: dict) -> tuple[dict, dict]:
    """(what Material loads on every page, what the worker loads on the first query)."""
    return {"config": index["config"], "docs": []}, {"docs": index["docs"]}


@event_priority(-120)  # after static-i18n (-100) has merged both languages into search_index.json
def on_post_build(config):
    if config.extra.get("offline"):
        return
    index_path = Path(config.site_dir) / "search" / "search_index.json"
    index = json.loads(index_path.read_text(encoding="utf-8"))
    if not index["docs"]:
        return  # already split by an earlier pass over the same site_dir
    stub, docs = split_index(index)
    # ensure_ascii=False: Material writes Chinese as \\uXXXX escapes, which make the file a fifth larger.
    (Path(config.site_dir) / DOCS_FILE).write_text(json.dumps(docs, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    index_path.write_text(json.dumps(stub, separators=(",", ":")), encoding="utf-8")
