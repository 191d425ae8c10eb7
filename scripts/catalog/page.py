"""Reading one release page: its front matter field by field (facts on the Chinese page, words on the English
one), every problem recorded with its line. scripts/catalog/join.py then joins a release's two pages."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from scripts.catalog.compat import FIELDS as COMPAT_FIELDS
from scripts.catalog.compat import parse_compat
from scripts.catalog.fences import fence_problems
from scripts.catalog.frontmatter import Problem, Reader, parse_front_matter, read_page_text
from scripts.catalog.model import (
    AREAS,
    CHANGE_CATEGORIES,
    DEFAULT_LANGUAGE,
    EVIDENCE,
    MATURITY_LABELS,
    PATCH_RE,
    PROVISIONAL_SOURCE_PREFIX,
    SUPPORT_ENDS,
    VERSION_RE,
    page_file_name,
    version_key,
)

# --- fields -------------------------------------------------------------------------------------------

FACT_FIELDS = (
    "version",
    "date",
    "source",
    "date_evidence",
    "source_evidence",
    "patches",
    "compat",
    "provisional",
    "lts",
    "announced",
    "next_release",
)
WORD_FIELDS = ("title", "summary", "description", "source_note", "date_note")
ZH_REQUIRED = ("version", "date", "title", "summary", "source", "features")
ZH_ALLOWED = FACT_FIELDS + WORD_FIELDS + ("features", "changes")
EN_REQUIRED = ("title", "summary")
EN_ALLOWED = WORD_FIELDS + ("features", "changes", "compat_notes", "lts_note", "announced")
# A provisional release (on PyPI, official post not available yet) carries registry facts only: nothing a post
# would have to say. Its `features` list is not required, and these fields are refused on both pages.
PROVISIONAL_REFUSED = ("features", "changes")
# The sources a provisional page's compatibility claims may name: PyPI itself, or an official document that speaks of
# future releases too (torchaudio's docs: 2.11 works with every later PyTorch; the release team's announcement on
# GitHub, source I, of the CUDA builds download.pytorch.org serves, which PyPI does not list); never a post, which
# does not exist yet. Official, or derived with a note that says why.
PROVISIONAL_CLAIM_SOURCES = ("PyPI", "A", "V", "R", "P", "I")
LTS_FIELDS = ("patches", "source", "evidence", "note")
ANNOUNCED_FIELDS = ("id", "text", "source", "evidence")
NEXT_RELEASE_FIELDS = ("version", "date", "source", "evidence")
# Words that, when the Chinese page has them, the English page must translate (and only then).
PAIRED_WORDS = ("description", "source_note", "date_note")
FEATURE_FIELDS = ("id", "name", "area", "maturity", "note")
CHANGE_FIELDS = (
    "id",
    "category",
    "text",
    "source",
    "evidence",
    "affects",
    "follows",
    "ends",
    "last_supported",
    "drops",
    "before",
    "after",
)
DROPS_RE = re.compile(r"^(python|cuda|rocm)-\d+\.\d+t?$", re.ASCII)

DATE_RE = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$", re.ASCII)
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
FOLLOWS_RE = re.compile(r"^((?:0|[1-9]\d*)\.(?:0|[1-9]\d*))#([a-z0-9][a-z0-9-]*)$", re.ASCII)


def _parse_date(raw: str) -> tuple[dt.date, str] | None:
    match = DATE_RE.match(raw.strip())
    if not match:
        return None
    year, month, day = match.groups()
    try:
        return dt.date(int(year), int(month), int(day or 1)), ("day" if day else "month")
    except ValueError:
        return None


@dataclass
class ParsedPage:
    """What one page's front matter says, before the two languages are joined."""

    path: Path
    shown: str
    lang: str
    stem: str
    values: dict
    lines: dict[str, int]
    features: list[dict]  # the Chinese page's features, facts and words
    changes: list[dict]
    body: str
    body_line: int
    feature_words: dict[str, dict] = field(default_factory=dict)  # the English page's words, by feature id
    change_words: dict[str, dict] = field(default_factory=dict)


def _ids_written(node: yaml.Node) -> set[str]:
    """Every `id:` text under a list of items, valid or not: a translation of an item that has a problem
    of its own is not reported again as unknown."""
    ids = set()
    for item in node.value if isinstance(node, yaml.SequenceNode) else []:
        if isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                if key.value == "id" and isinstance(value, yaml.ScalarNode):
                    ids.add(value.value.strip())
    return ids


def _read_features_facts(r: Reader, node: yaml.Node) -> list[dict]:
    features: list[dict] = []
    first_line: dict[str, int] = {}
    for item in r.sequence(node, "features") or []:
        fields = r.fields(item, "a feature", FEATURE_FIELDS, ("id", "name", "area", "maturity"))
        if fields is None:
            continue
        fid = (
            r.matching(fields["id"][1], "feature id", ID_RE, "lowercase letters, digits and '-'")
            if "id" in fields
            else None
        )
        if fid and fid in first_line:
            r.problem(r.line(fields["id"][1]), f"duplicate feature id '{fid}' (first used on line {first_line[fid]})")
            fid = None
        name = r.text(fields["name"][1], "name") if "name" in fields else None
        area = r.choice(fields["area"][1], "area", AREAS, "area") if "area" in fields else None
        maturity = (
            r.choice(fields["maturity"][1], "maturity", MATURITY_LABELS, "maturity label")
            if "maturity" in fields
            else None
        )
        note = r.text(fields["note"][1], "note") if "note" in fields else None
        if fid and name and area and maturity and ("note" not in fields or note):
            first_line[fid] = r.line(item)
            features.append(
                {"id": fid, "name": name, "area": area, "maturity": maturity, "note": note, "line": r.line(item)}
            )
    return features


def _read_changes_facts(r: Reader, node: yaml.Node, version: str | None) -> list[dict]:
    changes: list[dict] = []
    first_line: dict[str, int] = {}
    for item in r.sequence(node, "changes") or []:
        fields = r.fields(item, "a change", CHANGE_FIELDS, ("id", "category", "text", "source", "evidence"))
        if fields is None:
            continue
        ok = all(name in fields for name in ("id", "category", "text", "source", "evidence"))
        value: dict = {"line": r.line(item)}
        getters = {
            "id": lambda n: r.matching(n, "change id", ID_RE, "lowercase letters, digits and '-'"),
            "category": lambda n: r.choice(n, "category", CHANGE_CATEGORIES, "change category"),
            "text": lambda n: r.text(n, "text"),
            "source": lambda n: r.url(n, "source"),
            "evidence": lambda n: r.choice(n, "evidence", EVIDENCE, "evidence"),
            "affects": lambda n: r.text_list(n, "affects", ID_RE, "feature ids"),
            "follows": lambda n: r.matching(
                n, "follows", FOLLOWS_RE, "'<version>#<change id>' of an earlier release, e.g. '2.4#torch-load-warning'"
            ),
            "ends": lambda n: r.choice(n, "ends", SUPPORT_ENDS, "support key"),
            "last_supported": lambda n: r.matching(n, "last_supported", VERSION_RE, "a release version such as '2.2'"),
            "drops": lambda n: r.text_list(n, "drops", DROPS_RE, "items such as 'python-3.7' or 'cuda-11.6'"),
            "before": lambda n: r.code(n, "before"),
            "after": lambda n: r.code(n, "after"),
        }
        for name, (_, node_value) in fields.items():
            if name in getters:
                value[name] = getters[name](node_value)
                ok = ok and value[name] is not None
        if value.get("id") and value["id"] in first_line:
            r.problem(
                r.line(fields["id"][1]),
                f"duplicate change id '{value['id']}' (first used on line {first_line[value['id']]})",
            )
            ok = False
        if ok and ("ends" in value) != ("last_supported" in value):
            r.problem(
                value["line"],
                "a change with 'ends' needs 'last_supported' (the last release that had it), and the other way round",
            )
            ok = False
        if ok and ("ends" in value or "drops" in value) and value["category"] != "dropped-platform":
            r.problem(value["line"], "only a 'dropped-platform' change can say what support it 'ends' or 'drops'")
            ok = False
        if ok and "after" in value and "before" not in value:
            r.problem(value["line"], "a change with 'after' code needs the 'before' code it replaces")
            ok = False
        if (
            ok
            and "follows" in value
            and version
            and version_key(value["follows"].split("#")[0]) >= version_key(version)
        ):
            r.problem(r.line(fields["follows"][1]), f"'follows' must name an earlier release than {version}")
            ok = False
        if ok:
            first_line[value["id"]] = value["line"]
            changes.append(value)
    return changes


def _read_words_by_id(r: Reader, node: yaml.Node, name: str, with_note: bool) -> dict[str, dict]:
    """An English page's `features:`/`changes:`/`compat_notes:` mapping: id -> words (and the line)."""
    out: dict[str, dict] = {}
    if not isinstance(node, yaml.MappingNode):
        r.problem(
            r.line(node),
            f"'{name}' on an English page maps each id to its English words, e.g. 'amp: Automatic mixed precision'",
        )
        return out
    for key, value in node.value:
        if isinstance(value, yaml.MappingNode) and with_note:
            fields = r.fields(value, f"'{key.value}'", ("name", "note"), ("name",), line=r.line(key))
            if fields is None or "name" not in fields:
                continue
            words = {
                "name": r.text(fields["name"][1], "name"),
                "note": r.text(fields["note"][1], "note") if "note" in fields else None,
            }
            if words["name"] is None or ("note" in fields and words["note"] is None):
                continue
        else:
            text = r.text(value, f"{name}: {key.value}")
            if text is None:
                continue
            words = {"name": text, "note": None}
        out[key.value] = {**words, "line": r.line(key)}
    return out


def _read_lts(r: Reader, node: yaml.Node, patches: list[str]) -> dict | None:
    """`lts: {patches: [...], source: <url>, evidence: official|copy|derived, note: <words>}` (Chinese page)."""
    fields = r.fields(node, "lts", LTS_FIELDS, LTS_FIELDS)
    if fields is None or any(name not in fields for name in LTS_FIELDS):
        return None
    value: dict[str, Any] = {
        "patches": r.text_list(fields["patches"][1], "lts.patches", PATCH_RE, "patch versions such as '1.8.2'"),
        "source": r.url(fields["source"][1], "lts.source"),
        "evidence": r.choice(fields["evidence"][1], "lts.evidence", EVIDENCE, "evidence"),
        "note": r.text(fields["note"][1], "lts.note"),
        "line": r.line(node),
    }
    for patch, item in zip(value["patches"] or [], fields["patches"][1].value, strict=True):
        if patch not in patches:
            r.problem(r.line(item), f"lts: patch '{patch}' is not listed in 'patches'")
            return None
    if any(value[name] in (None, []) for name in LTS_FIELDS):
        return None
    return value


def _read_announced(r: Reader, node: yaml.Node) -> list[dict] | None:
    """`announced: [{id, text, source, evidence}]` (Chinese page): changes an official source announced for a
    provisional release before its post exists. Each has its source; the English page gives its words by id."""
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        r.problem(r.line(node), "'announced' lists changes, each with 'id', 'text', 'source' and 'evidence'")
        return None
    out: list[dict] = []
    seen: dict[str, int] = {}
    for item in node.value:
        fields = r.fields(item, "announced item", ANNOUNCED_FIELDS, ANNOUNCED_FIELDS)
        if fields is None or any(name not in fields for name in ANNOUNCED_FIELDS):
            continue
        line = r.line(item)
        value = {
            "id": r.matching(fields["id"][1], "announced.id", ID_RE, "lowercase letters, digits and dashes"),
            "text": r.text(fields["text"][1], "announced.text"),
            "source": r.url(fields["source"][1], "announced.source"),
            "evidence": r.choice(fields["evidence"][1], "announced.evidence", EVIDENCE, "evidence"),
        }
        if any(value[name] is None for name in ANNOUNCED_FIELDS):
            continue
        announced_id = str(value["id"])
        if announced_id in seen:
            r.problem(line, f"duplicate announced id '{announced_id}' (first at line {seen[announced_id]})")
            continue
        seen[announced_id] = line
        out.append({**value, "line": line})
    return out


def _read_next_release(r: Reader, node: yaml.Node, version: str) -> dict | None:
    """`next_release: {version, date, source, evidence}`: the release schedule's next release, a plan."""
    fields = r.fields(node, "next_release", NEXT_RELEASE_FIELDS, NEXT_RELEASE_FIELDS)
    if fields is None or any(name not in fields for name in NEXT_RELEASE_FIELDS):
        return None
    planned = r.matching(fields["version"][1], "next_release.version", VERSION_RE, "MAJOR.MINOR, e.g. '2.16'")
    raw = r.scalar(fields["date"][1], "next_release.date")
    day = _parse_date(raw) if raw is not None else None
    if raw is not None and (day is None or day[1] != "day"):
        r.problem(r.line(fields["date"][1]), f"next_release.date '{raw}': the planned day as YYYY-MM-DD")
        day = None
    if planned and version_key(planned) <= version_key(version):
        r.problem(r.line(fields["version"][1]), f"next_release.version '{planned}' must be later than {version}")
        planned = None
    value = {
        "version": planned,
        "date": day[0] if day else None,
        "source": r.url(fields["source"][1], "next_release.source"),
        "evidence": r.choice(fields["evidence"][1], "next_release.evidence", EVIDENCE, "evidence"),
        "line": r.line(node),
    }
    return None if any(value[name] is None for name in NEXT_RELEASE_FIELDS) else value


def _read_provisional(r: Reader, fields: dict, values: dict, version: str) -> bool | None:
    """`provisional: true`: a release known from PyPI only. Refuse every fact a registry cannot give (features
    and their labels, changes), a source other than the version's PyPI page, a date without the note that says it
    is an upload day, and a compatibility claim that rests on anything but PyPI or an official document
    (PROVISIONAL_CLAIM_SOURCES)."""
    key, node = fields["provisional"]
    if not isinstance(node, yaml.ScalarNode) or node.value != "true":
        r.problem(
            r.line(key),
            "write 'provisional: true' (a release on PyPI whose official post is not available yet), or leave the field out",
        )
        return None
    ok = True
    for name in PROVISIONAL_REFUSED:
        if name in fields:
            r.problem(
                r.line(fields[name][0]),
                f"a provisional release carries registry facts only: remove '{name}' (add it from the official post, with python -m scripts.new_release {version})",
            )
            ok = False
    source = values.get("source")
    expected = f"{PROVISIONAL_SOURCE_PREFIX}{version}."
    if source and not source.startswith(expected):
        r.problem(
            r.line(fields["source"][0]),
            f"a provisional release's source is its PyPI page ({expected}0/), not '{source}'",
        )
        ok = False
    if "date_note" not in fields:
        r.problem(
            r.line(key),
            "a provisional release needs a 'date_note' saying its date is PyPI's first upload day, not an announcement date",
        )
        ok = False
    compat = values.get("compat")
    for name in COMPAT_FIELDS if compat else ():
        for claim in compat.claims(name) if compat else ():
            if not set(claim.sources) <= set(PROVISIONAL_CLAIM_SOURCES) or not (
                claim.evidence == "official" or (claim.evidence == "derived" and claim.note)
            ):
                r.problem(
                    claim.line,
                    f"a provisional release's {name} claim rests on PyPI or an official document only: sources among {', '.join(PROVISIONAL_CLAIM_SOURCES)}, 'evidence: official' (or 'derived' with a note saying why)",
                )
                ok = False
    return True if ok else None


def parse_page(path: Path, shown: str, version_of_file: str, lang: str) -> tuple[ParsedPage | None, list[Problem]]:
    text, problems = read_page_text(path, shown)
    if text is None:
        return None, problems
    front, problems = parse_front_matter(text, shown, required=True)
    if front is None or front.root is None:  # required: a page without front matter is a problem already
        return None, problems
    r = Reader(shown, front.offset)
    required: tuple[str, ...] = ZH_REQUIRED if lang == DEFAULT_LANGUAGE else EN_REQUIRED
    allowed = ZH_ALLOWED if lang == DEFAULT_LANGUAGE else EN_ALLOWED
    fields = {key.value: (key, value) for key, value in front.root.value}
    if lang == DEFAULT_LANGUAGE and "provisional" in fields:
        required = tuple(name for name in required if name not in PROVISIONAL_REFUSED)
    for name, (key, _) in fields.items():
        if name in allowed:
            continue
        if lang != DEFAULT_LANGUAGE and name in ZH_ALLOWED:
            r.problem(
                r.line(key),
                f"'{name}' is a fact, written once in the Chinese page {page_file_name(version_of_file, DEFAULT_LANGUAGE)}: remove it here (an English page carries only words)",
            )
        else:
            r.problem(r.line(key), f"unknown field '{name}' (allowed: {', '.join(allowed)})")
    for name in required:
        if name not in fields:
            r.problem(1, f"missing required field '{name}'")
    lines = {name: r.line(key) for name, (key, _) in fields.items()}
    values: dict = {}

    for name in WORD_FIELDS:
        if name in fields:
            values[name] = r.text(fields[name][1], name)

    features: list[dict] = []
    changes: list[dict] = []
    feature_words: dict[str, dict] = {}
    change_words: dict[str, dict] = {}
    if lang == DEFAULT_LANGUAGE:
        if "version" in fields:
            version = r.matching(
                fields["version"][1], "version", VERSION_RE, "MAJOR.MINOR without leading zeros, e.g. '1.6'"
            )
            if version and version != version_of_file:
                r.problem(
                    lines["version"],
                    f"version '{version}' does not match the file name {path.name} (expected '{version_of_file}')",
                )
                version = None
            values["version"] = version
        if "date" in fields:
            raw = r.scalar(fields["date"][1], "date")
            day = _parse_date(raw) if raw is not None else None
            if raw is not None and day is None:
                r.problem(
                    lines["date"],
                    f"bad date '{raw}': expected a real calendar date as YYYY-MM-DD (or YYYY-MM when only the month is known)",
                )
            values["date"] = day
        if "source" in fields:
            values["source"] = r.url(fields["source"][1], "source")
        for name in ("date_evidence", "source_evidence"):
            if name in fields:
                values[name] = r.choice(fields[name][1], name, EVIDENCE, "evidence")
        if "patches" in fields:
            patches = r.text_list(fields["patches"][1], "patches", PATCH_RE, "patch versions such as '2.9.1'")
            if patches:
                for patch, item in zip(patches, fields["patches"][1].value, strict=True):
                    if not patch.startswith(version_of_file + "."):
                        r.problem(r.line(item), f"patch '{patch}' is not a {version_of_file} release")
                        patches = None
                        break
            values["patches"] = patches
        if "features" in fields:
            features = _read_features_facts(r, fields["features"][1])
            values["_feature_ids_written"] = _ids_written(fields["features"][1])
        if "changes" in fields:
            changes = _read_changes_facts(r, fields["changes"][1], values.get("version"))
            values["_change_ids_written"] = _ids_written(fields["changes"][1])
        if "compat" in fields:
            values["compat"] = parse_compat(r, fields["compat"][1], version_of_file, values.get("patches") or [])
        if values.get("date") and values["date"][1] == "month" and "date_note" not in fields:
            r.problem(lines["date"], "a date known only to the month needs a 'date_note' saying how it is known")
        if "lts" in fields:
            values["lts"] = _read_lts(r, fields["lts"][1], values.get("patches") or [])
        if "provisional" in fields:
            values["provisional"] = _read_provisional(r, fields, values, version_of_file)
        if "announced" in fields:
            if "provisional" not in fields:
                r.problem(
                    lines["announced"],
                    "'announced' belongs to a provisional release (before its post exists); a full page has features and changes",
                )
            else:
                values["announced"] = _read_announced(r, fields["announced"][1])
        if "next_release" in fields:
            values["next_release"] = _read_next_release(r, fields["next_release"][1], version_of_file)
    else:
        if "features" in fields:
            feature_words = _read_words_by_id(r, fields["features"][1], "features", with_note=True)
        if "changes" in fields:
            change_words = _read_words_by_id(r, fields["changes"][1], "changes", with_note=False)
        if "compat_notes" in fields:
            values["compat_notes"] = _read_words_by_id(r, fields["compat_notes"][1], "compat_notes", with_note=False)
        if "lts_note" in fields:
            values["lts_note"] = r.text(fields["lts_note"][1], "lts_note")
        if "announced" in fields:
            values["announced"] = _read_words_by_id(r, fields["announced"][1], "announced", with_note=False)

    problems = r.problems + fence_problems(front.body, front.body_line, shown)
    parsed = ParsedPage(
        path,
        shown,
        lang,
        version_of_file,
        values,
        lines,
        features,
        changes,
        front.body,
        front.body_line,
        feature_words,
        change_words,
    )
    return parsed, problems
