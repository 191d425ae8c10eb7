"""Joining a release's two pages: the English words given to the Chinese page's facts, every missing or extra
translation a problem with its line, and the typed Release (one ReleasePage per language) when all is well."""

from __future__ import annotations

from pathlib import Path

from scripts.catalog.fences import heading_anchors
from scripts.catalog.frontmatter import Problem
from scripts.catalog.model import Announcement, Change, Feature, Lts, Plan, Release, ReleasePage
from scripts.catalog.page import PAIRED_WORDS, PROVISIONAL_REFUSED, ParsedPage


def join_languages(zh: ParsedPage, en: ParsedPage, docs_dir: Path) -> tuple[Release | None, list[Problem]]:
    """Give the English words to the Chinese page's facts; report what is missing or extra."""
    problems: list[Problem] = []

    def problem(page: ParsedPage, line: int, message: str) -> None:
        problems.append(Problem(page.shown, line, message))

    for name in PAIRED_WORDS:
        if name in zh.lines and name not in en.lines:
            problem(en, 1, f"missing '{name}': {zh.shown}:{zh.lines[name]} has one, translate it here")
        if name in en.lines and name not in zh.lines:
            problem(en, en.lines[name], f"'{name}' has nothing to translate: {zh.shown} has none")

    en_features = en.feature_words
    for feature in zh.features:
        if feature["id"] not in en_features:
            problem(
                en,
                en.lines.get("features", 1),
                f"feature '{feature['id']}' has no English name: add '{feature['id']}: <name>' under features ({zh.shown}:{feature['line']})",
            )
        elif feature["note"] and not en_features[feature["id"]]["note"]:
            words = en_features[feature["id"]]
            problem(
                en,
                words["line"],
                f"feature '{feature['id']}' has a note in {zh.shown}:{feature['line']}: give it 'name' and 'note' here",
            )
        elif not feature["note"] and en_features[feature["id"]]["note"]:
            problem(
                en,
                en_features[feature["id"]]["line"],
                f"feature '{feature['id']}' has a note here but none in {zh.shown}:{feature['line']}",
            )
    zh_ids = {f["id"] for f in zh.features} | zh.values.get("_feature_ids_written", set())
    for fid, words in en_features.items():
        if fid not in zh_ids:
            problem(en, words["line"], f"unknown feature '{fid}': {zh.shown} lists no such feature")
    en_changes = en.change_words
    for change in zh.changes:
        if change["id"] not in en_changes:
            problem(
                en,
                en.lines.get("changes", 1),
                f"change '{change['id']}' has no English text: add '{change['id']}: <text>' under changes ({zh.shown}:{change['line']})",
            )
    zh_change_ids = {c["id"] for c in zh.changes} | zh.values.get("_change_ids_written", set())
    for cid, words in en_changes.items():
        if cid not in zh_change_ids:
            problem(en, words["line"], f"unknown change '{cid}': {zh.shown} lists no such change")
    compat = zh.values.get("compat")
    en_notes = en.values.get("compat_notes", {})
    zh_notes = compat.notes if compat else {}
    for nid in zh_notes:
        if nid not in en_notes:
            problem(
                en,
                en.lines.get("compat_notes", 1),
                f"compatibility note '{nid}' has no English text: add '{nid}: <text>' under compat_notes",
            )
    for nid, words in en_notes.items():
        if nid not in zh_notes:
            problem(
                en, words["line"], f"unknown compatibility note '{nid}': {zh.shown} has no such note under compat.notes"
            )

    if zh.values.get("provisional"):
        for name in PROVISIONAL_REFUSED:
            if name in en.lines:
                problem(
                    en,
                    en.lines[name],
                    f"a provisional release carries registry facts only: remove '{name}' ({zh.shown} has 'provisional: true')",
                )
    en_announced = en.values.get("announced") or {}
    zh_announced = {a["id"]: a for a in zh.values.get("announced") or []}
    for aid, item in zh_announced.items():
        if aid not in en_announced:
            problem(
                en,
                en.lines.get("announced", 1),
                f"announced change '{aid}' has no English text: add '{aid}: <text>' under announced ({zh.shown}:{item['line']})",
            )
    for aid, words in en_announced.items():
        if aid not in zh_announced:
            problem(en, words["line"], f"unknown announced change '{aid}': {zh.shown} announces no such change")
    if "lts" in zh.lines and "lts_note" not in en.lines:
        problem(en, 1, f"missing 'lts_note': {zh.shown}:{zh.lines['lts']} has an LTS note, translate it here")
    if "lts_note" in en.lines and "lts" not in zh.lines:
        problem(en, en.lines["lts_note"], f"'lts_note' has nothing to translate: {zh.shown} has no 'lts'")

    for page in (zh, en):
        anchors = heading_anchors(page.body)
        for feature in zh.features:
            if feature["id"] not in anchors:
                line = feature["line"] if page is zh else en.feature_words.get(feature["id"], {}).get("line", 1)
                problem(
                    page,
                    line,
                    f"feature '{feature['id']}' has no section: add a heading ending in '{{ #{feature['id']} }}'",
                )

    facts = zh.values
    if (
        problems
        or not facts.get("version")
        or not facts.get("date")
        or any(facts.get(n) is None for n in ("title", "summary", "source"))
    ):
        return None, problems
    if any(en.values.get(n) is None for n in ("title", "summary")):
        return None, problems
    if "compat" in zh.lines and compat is None:
        return None, problems
    if any(name in zh.lines and not facts.get(name) for name in ("lts", "provisional", "announced", "next_release")):
        return None, problems  # its problem is recorded where it was read
    date, precision = facts["date"]
    pages = {}
    for page in (zh, en):
        words = page.values
        if page is zh:
            features = tuple(
                Feature(f["id"], f["name"], f["area"], f["maturity"], f["line"], f["note"]) for f in zh.features
            )
            changes = tuple(_change(c, c["text"], c["line"]) for c in zh.changes)
        else:
            features = tuple(
                Feature(
                    f["id"],
                    en_features[f["id"]]["name"],
                    f["area"],
                    f["maturity"],
                    en_features[f["id"]]["line"],
                    en_features[f["id"]]["note"],
                )
                for f in zh.features
            )
            changes = tuple(_change(c, en_changes[c["id"]]["name"], en_changes[c["id"]]["line"]) for c in zh.changes)
        page_compat = compat.with_notes(en_notes if page is en else None) if compat else None
        pages[page.lang] = ReleasePage(
            path=page.shown,
            src_uri=page.path.relative_to(docs_dir).as_posix(),
            lang=page.lang,
            version=facts["version"],
            date=date,
            date_precision=precision,
            title=words["title"],
            summary=words["summary"],
            source=facts["source"],
            features=features,
            changes=changes,
            compat=page_compat,
            patches=tuple(facts.get("patches") or ()),
            source_note=words.get("source_note"),
            description=words.get("description"),
            date_note=words.get("date_note"),
            date_evidence=facts.get("date_evidence") or "official",
            source_evidence=facts.get("source_evidence") or "official",
            provisional=bool(facts.get("provisional")),
            lts=_lts(facts.get("lts"), en.values.get("lts_note") if page is en else None),
            announced=tuple(
                Announcement(
                    a["id"],
                    en_announced[a["id"]]["name"] if page is en else a["text"],
                    a["source"],
                    a["evidence"],
                    en_announced[a["id"]]["line"] if page is en else a["line"],
                )
                for a in facts.get("announced") or []
            ),
            next_release=_plan(facts.get("next_release")),
            lines=dict(page.lines),
        )
    return Release(facts["version"], pages), problems


def _plan(facts: dict | None) -> Plan | None:
    if facts is None:
        return None
    return Plan(facts["version"], facts["date"], facts["source"], facts["evidence"], facts["line"])


def _lts(facts: dict | None, translated_note: str | None) -> Lts | None:
    if facts is None:
        return None
    note = translated_note or facts["note"]
    return Lts(
        patches=tuple(facts["patches"]),
        source=facts["source"],
        evidence=facts["evidence"],
        note=note,
        line=facts["line"],
    )


def _change(facts: dict, text: str, line: int) -> Change:
    follows = tuple(facts["follows"].split("#")) if facts.get("follows") else None
    return Change(
        id=facts["id"],
        category=facts["category"],
        text=text,
        source=facts["source"],
        evidence=facts["evidence"],
        line=line,
        affects=tuple(facts.get("affects") or ()),
        follows=follows,
        ends=facts.get("ends"),
        last_supported=facts.get("last_supported"),
        drops=tuple(facts.get("drops") or ()),
        before=facts.get("before"),
        after=facts.get("after"),
    )
