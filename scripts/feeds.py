"""Machine-readable outputs built from the release catalog: an RSS feed per language and releases.json.

Both are deterministic (no build timestamps) so two builds of one commit are byte-identical.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import xml.etree.ElementTree as ET

from scripts.releases import AREAS, LANGUAGES, Catalog

FEED_NAME = "feed.xml"
JSON_NAME = "releases.json"
SCHEMA_VERSION = 1
RSS_LANGUAGE = {"zh": "zh-CN", "en": "en"}


def absolute(site_url: str, relative: str) -> str:
    return site_url.rstrip("/") + "/" + relative.lstrip("/")


def _rfc822(day: dt.date) -> str:
    return email.utils.format_datetime(dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc))


def rss_feed(catalog: Catalog, lang: str, site_url: str, title: str, description: str) -> str:
    """RSS 2.0, one item per release, newest first; dates are the official release dates."""
    home = absolute(site_url, "" if lang == "zh" else f"{lang}/")
    rss = ET.Element("rss", {"version": "2.0", "xmlns:atom": "http://www.w3.org/2005/Atom"})
    channel = ET.SubElement(rss, "channel")
    ET.SubElement(channel, "title").text = title
    ET.SubElement(channel, "link").text = home
    ET.SubElement(channel, "description").text = description
    ET.SubElement(channel, "language").text = RSS_LANGUAGE[lang]
    ET.SubElement(channel, "atom:link", {"href": absolute(home, FEED_NAME), "rel": "self", "type": "application/rss+xml"})
    if catalog.releases:
        ET.SubElement(channel, "pubDate").text = _rfc822(catalog.releases[0].date)
    for release in catalog.releases:
        page = release.pages[lang]
        item = ET.SubElement(channel, "item")
        ET.SubElement(item, "title").text = page.title
        ET.SubElement(item, "link").text = absolute(site_url, page.url)
        ET.SubElement(item, "guid", {"isPermaLink": "true"}).text = absolute(site_url, page.url)
        ET.SubElement(item, "pubDate").text = _rfc822(page.date)
        ET.SubElement(item, "description").text = page.summary
        for area in dict.fromkeys(f.area for f in page.features):
            ET.SubElement(item, "category").text = AREAS[area][lang]
    ET.indent(rss)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(rss, encoding="unicode") + "\n"


def releases_json(catalog: Catalog, site_url: str) -> str:
    """Every release with its date, official source, page URL per language and features with maturity."""
    releases = []
    for release in catalog.releases:
        pages = release.pages
        releases.append(
            {
                "version": release.version,
                "date": release.date.isoformat(),
                "source": release.source,
                "url": {lang: absolute(site_url, pages[lang].url) for lang in LANGUAGES},
                "title": {lang: pages[lang].title for lang in LANGUAGES},
                "summary": {lang: pages[lang].summary for lang in LANGUAGES},
                "features": [
                    {
                        "id": feature.id,
                        "area": feature.area,
                        "maturity": feature.maturity,
                        "name": {lang: pages[lang].features[i].name for lang in LANGUAGES},
                    }
                    for i, feature in enumerate(pages["zh"].features)
                ],
            }
        )
    document = {"schema_version": SCHEMA_VERSION, "languages": list(LANGUAGES), "releases": releases}
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=False) + "\n"
