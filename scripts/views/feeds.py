"""Machine-readable outputs built from the release catalog: an RSS feed per language and releases.json.

Both are deterministic (no build timestamps) so two builds of one commit are byte-identical.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import xml.etree.ElementTree as ET

from scripts.catalog.compat import FIELDS as COMPAT_FIELDS
from scripts.catalog.compat import SOURCES
from scripts.catalog.model import (
    AREAS,
    CHANGE_CATEGORIES,
    EVIDENCE,
    LANGUAGES,
    MATURITY_LABELS,
    SUPPORT_ENDS,
    Catalog,
    ReleasePage,
)

FEED_NAME = "feed.xml"
JSON_NAME = "releases.json"
SCHEMA_NAME = "releases.schema.json"
SCHEMA_VERSION = 2
RSS_LANGUAGE = {"zh": "zh-CN", "en": "en"}


def absolute(site_url: str, relative: str) -> str:
    return site_url.rstrip("/") + "/" + relative.lstrip("/")


def _rfc822(day: dt.date) -> str:
    return email.utils.format_datetime(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC))


def rss_feed(catalog: Catalog, lang: str, site_url: str, title: str, description: str) -> str:
    """RSS 2.0, one item per release, newest first; dates are the official release dates."""
    home = absolute(site_url, "" if lang == "zh" else f"{lang}/")
    rss = ET.Element("rss", {"version": "2.0", "xmlns:atom": "http://www.w3.org/2005/Atom"})
    channel = ET.SubElement(rss, "channel")
    ET.SubElement(channel, "title").text = title
    ET.SubElement(channel, "link").text = home
    ET.SubElement(channel, "description").text = description
    ET.SubElement(channel, "language").text = RSS_LANGUAGE[lang]
    ET.SubElement(
        channel, "atom:link", {"href": absolute(home, FEED_NAME), "rel": "self", "type": "application/rss+xml"}
    )
    if catalog.releases:
        ET.SubElement(channel, "pubDate").text = _rfc822(catalog.releases[0].date)
    for release in catalog.releases:
        page = release.pages[lang]
        item = ET.SubElement(channel, "item")
        ET.SubElement(item, "title").text = page.title
        ET.SubElement(item, "link").text = absolute(site_url, page.url)
        ET.SubElement(item, "guid", {"isPermaLink": "true"}).text = absolute(site_url, page.url)
        if (
            page.date_precision == "day"
        ):  # an RSS date is a day: a month-only release gets none rather than a made-up one
            ET.SubElement(item, "pubDate").text = _rfc822(page.date)
        ET.SubElement(item, "description").text = page.summary
        for area in dict.fromkeys(f.area for f in page.features):
            ET.SubElement(item, "category").text = AREAS[area][lang]
    ET.indent(rss)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(rss, encoding="unicode") + "\n"


def _claims(claims) -> list[dict]:
    out = []
    for c in claims:
        item = {"values": list(c.values), "sources": list(c.sources), "evidence": c.evidence}
        if c.experimental:
            item["experimental"] = list(c.experimental)
        if c.torch:
            item["torch"] = list(c.torch)
        if c.channel:
            item["channel"] = c.channel
        if c.note:
            item["note"] = c.note
        out.append(item)
    return out


def _compat(release) -> dict | None:
    compat = release.compat
    if compat is None:
        return None
    out: dict[str, object] = {name: _claims(compat.claims(name)) for name in COMPAT_FIELDS if compat.claims(name)}
    notes = {nid: {lang: release.pages[lang].compat.notes[nid] for lang in LANGUAGES} for nid in compat.notes}
    if notes:
        out["notes"] = notes
    if compat.not_on_pypi:
        out["not_on_pypi"] = list(compat.not_on_pypi)
    return out


def _change(release, index: int) -> dict:
    pages = release.pages
    change = pages["zh"].changes[index]
    item = {
        "id": change.id,
        "category": change.category,
        "text": {lang: pages[lang].changes[index].text for lang in LANGUAGES},
        "source": change.source,
        "evidence": change.evidence,
    }
    for name in ("affects", "drops"):
        if getattr(change, name):
            item[name] = list(getattr(change, name))
    if change.follows:
        item["follows"] = {"version": change.follows[0], "id": change.follows[1]}
    if change.ends:
        item["ends"] = change.ends
        item["last_supported"] = change.last_supported
    return item


def releases_json(catalog: Catalog, site_url: str) -> str:
    """Every release with its facts (date, source, patches, compatibility, breaking changes, LTS), its page URL per
    language, features with maturity, and `provisional` (known from PyPI only, official post not available yet).
    Validates against RELEASES_SCHEMA (published beside it)."""
    releases = []
    for release in catalog.releases:
        pages = release.pages
        facts = release.facts
        entry = {
            "version": release.version,
            "date": release.date_iso,
            "date_precision": facts.date_precision,
            "date_evidence": facts.date_evidence,
            "source": release.source,
            "source_evidence": facts.source_evidence,
            "url": {lang: absolute(site_url, pages[lang].url) for lang in LANGUAGES},
            "title": {lang: pages[lang].title for lang in LANGUAGES},
            "summary": {lang: pages[lang].summary for lang in LANGUAGES},
            "patches": list(release.patches),
            "features": [
                {
                    "id": feature.id,
                    "area": feature.area,
                    "maturity": feature.maturity,
                    "name": {lang: pages[lang].features[i].name for lang in LANGUAGES},
                }
                for i, feature in enumerate(pages["zh"].features)
            ],
            "changes": [_change(release, i) for i in range(len(facts.changes))],
            "provisional": release.provisional,
        }
        if release.lts:
            lts = release.lts
            entry["lts"] = {
                "patches": list(lts.patches),
                "source": lts.source,
                "evidence": lts.evidence,
                "note": {lang: _lts_note(pages[lang]) for lang in LANGUAGES},
            }
        compat = _compat(release)
        if compat:
            entry["compat"] = compat
        releases.append(entry)
    document = {"schema_version": SCHEMA_VERSION, "languages": list(LANGUAGES), "releases": releases}
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=False) + "\n"


def _lts_note(page: ReleasePage) -> str:
    """A page's words about its release's LTS line (join gives both pages of a release with `lts` one)."""
    if page.lts is None:
        raise ValueError(f"{page.path}: the release has an LTS line but this page has no LTS note")
    return page.lts.note


def _per_lang(kind: dict) -> dict:
    return {
        "type": "object",
        "required": list(LANGUAGES),
        "additionalProperties": False,
        "properties": {lang: kind for lang in LANGUAGES},
    }


_CLAIM = {
    "type": "object",
    "required": ["values", "sources", "evidence"],
    "additionalProperties": False,
    "properties": {
        "values": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "experimental": {"type": "array", "items": {"type": "string"}},
        "torch": {"type": "array", "items": {"type": "string", "pattern": r"^\d+\.\d+\.\d+$"}},
        "channel": {"enum": ["pip", "conda"]},
        "sources": {"type": "array", "items": {"enum": list(SOURCES)}, "minItems": 1},
        "evidence": {"enum": list(EVIDENCE)},
        "note": {"type": "string"},
    },
}

RELEASES_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "PyTorch Release Timeline: releases.json",
    "type": "object",
    "required": ["schema_version", "languages", "releases"],
    "additionalProperties": False,
    "properties": {
        "schema_version": {"const": SCHEMA_VERSION},
        "languages": {"const": list(LANGUAGES)},
        "releases": {
            "type": "array",
            "description": "newest first",
            "items": {
                "type": "object",
                "required": [
                    "version",
                    "date",
                    "date_precision",
                    "date_evidence",
                    "source",
                    "source_evidence",
                    "url",
                    "title",
                    "summary",
                    "patches",
                    "features",
                    "changes",
                    "provisional",
                ],
                "additionalProperties": False,
                "properties": {
                    "version": {"type": "string", "pattern": r"^\d+\.\d+$"},
                    "date": {
                        "type": "string",
                        "pattern": r"^\d{4}-\d{2}(-\d{2})?$",
                        "description": "YYYY-MM-DD, or YYYY-MM when only the month is known",
                    },
                    "date_precision": {"enum": ["day", "month"]},
                    "date_evidence": {"enum": list(EVIDENCE)},
                    "source": {"type": "string", "pattern": "^https://"},
                    "source_evidence": {"enum": list(EVIDENCE)},
                    "url": _per_lang({"type": "string", "format": "uri"}),
                    "title": _per_lang({"type": "string", "minLength": 1}),
                    "summary": _per_lang({"type": "string", "minLength": 1}),
                    "patches": {"type": "array", "items": {"type": "string", "pattern": r"^\d+\.\d+\.\d+$"}},
                    "provisional": {
                        "type": "boolean",
                        "description": "true: on PyPI, but its official post is not available yet; date is PyPI's first upload day, source its PyPI page, every fact from PyPI, no features or changes",
                    },
                    "lts": {
                        "type": "object",
                        "description": "the release's long-term support line (1.8: 1.8.2, never on PyPI)",
                        "required": ["patches", "source", "evidence", "note"],
                        "additionalProperties": False,
                        "properties": {
                            "patches": {
                                "type": "array",
                                "items": {"type": "string", "pattern": r"^\d+\.\d+\.\d+$"},
                                "minItems": 1,
                            },
                            "source": {"type": "string", "pattern": "^https://"},
                            "evidence": {"enum": list(EVIDENCE)},
                            "note": _per_lang({"type": "string", "minLength": 1}),
                        },
                    },
                    "features": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["id", "area", "maturity", "name"],
                            "additionalProperties": False,
                            "properties": {
                                "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
                                "area": {"enum": list(AREAS)},
                                "maturity": {"enum": list(MATURITY_LABELS)},
                                "name": _per_lang({"type": "string", "minLength": 1}),
                            },
                        },
                    },
                    "changes": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["id", "category", "text", "source", "evidence"],
                            "additionalProperties": False,
                            "properties": {
                                "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
                                "category": {"enum": list(CHANGE_CATEGORIES)},
                                "text": _per_lang({"type": "string", "minLength": 1}),
                                "source": {"type": "string", "pattern": "^https://"},
                                "evidence": {"enum": list(EVIDENCE)},
                                "affects": {"type": "array", "items": {"type": "string"}},
                                "drops": {"type": "array", "items": {"type": "string"}},
                                "follows": {
                                    "type": "object",
                                    "required": ["version", "id"],
                                    "additionalProperties": False,
                                    "properties": {"version": {"type": "string"}, "id": {"type": "string"}},
                                },
                                "ends": {"enum": list(SUPPORT_ENDS)},
                                "last_supported": {"type": "string"},
                            },
                        },
                    },
                    "compat": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            **{name: {"type": "array", "items": _CLAIM} for name in COMPAT_FIELDS},
                            "notes": {
                                "type": "object",
                                "additionalProperties": _per_lang({"type": "string", "minLength": 1}),
                            },
                            "not_on_pypi": {"type": "array", "items": {"type": "string"}},
                        },
                    },
                },
            },
        },
    },
}


def releases_schema_json() -> str:
    return json.dumps(RELEASES_SCHEMA, ensure_ascii=False, indent=2) + "\n"
