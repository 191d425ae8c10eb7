"""Write feed.xml for the language being built, and releases.json with its JSON Schema once at the site root."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import DEFAULT_LANGUAGE  # noqa: E402
from scripts.views.feeds import FEED_NAME, JSON_NAME, SCHEMA_NAME, releases_json, releases_schema_json, rss_feed  # noqa: E402


def on_post_build(config):
    lang = config.theme["language"]
    catalog = cached_catalog(config.docs_dir)
    # static-i18n keeps site_dir for every language and prefixes each file's destination instead.
    site_dir = Path(config.site_dir) / ("" if lang == DEFAULT_LANGUAGE else lang)
    site_url = config.site_url or "/"
    feed = rss_feed(catalog, lang, site_url, config.site_name, config.site_description or config.site_name)
    (site_dir / FEED_NAME).write_text(feed, encoding="utf-8")
    if lang == DEFAULT_LANGUAGE:
        (site_dir / JSON_NAME).write_text(releases_json(catalog, site_url), encoding="utf-8")
        (site_dir / SCHEMA_NAME).write_text(releases_schema_json(), encoding="utf-8")
