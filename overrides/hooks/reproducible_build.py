"""Make two builds of the same commit byte-identical.

MkDocs stamps sitemap.xml.gz's gzip header with the newest page "update date", which is the day of the
build (SOURCE_DATE_EPOCH aside), so the same commit built on two days gave two different files. The
gzip is rewritten from sitemap.xml with no timestamp (mtime 0 means "none" in RFC 1952).
"""

import gzip
from pathlib import Path

from mkdocs.plugins import event_priority


def deterministic_gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


@event_priority(-200)  # after every plugin that writes or rewrites the sitemap
def on_post_build(config):
    sitemap = Path(config.site_dir) / "sitemap.xml"
    if sitemap.is_file():
        sitemap.with_name("sitemap.xml.gz").write_bytes(deterministic_gzip(sitemap.read_bytes()))
