"""The markup the site's own code relies on, derived from that code: ids, classes and `data-*` attributes.

Page content may not use any of it (scripts/checks/markup/page_markup.py refuses it with its line), so that a page can
neither feed a script data the build did not generate (a second `#compare-data` island, read before the real
one), nor switch on one of Material's components (`data-md-component="source"` makes its bundle fetch that
repository's API on every visit), nor forge what the checks print (a `snippet-ok` badge under a block no one
checked). What is reserved, and where it is read from:

- **ids**: every literal `getElementById("…")` target and every `#id` in a literal selector of the site's
  scripts (docs/assets/javascripts/, the vendored copies aside); every literal `id="…"` of the templates
  (overrides/); the ids a generated view names in a `data-…target` attribute, through which a script finds
  them (scripts/views/); the JSON data islands (checks/html_policy.py); and Material's own, all starting with
  `__` (`__search`, `__config` …) but for the tab ids pymdownx.tabbed numbers itself (`__tabbed_1_2`).
- **classes**: every `.class` in a literal selector and every literal `classList`/`getElementsByClassName`
  argument of the scripts; Material's (`md-*`) and the snippet badges' (`snippet-*`).
- **attributes**: every `data-*` attribute. The scripts read theirs (`data-filter-target`, `data-template` …,
  some by a name they build), Material's components theirs (`data-md-*`); page content needs none.
- **not reserved**: the standard HTML attributes a selector tests as an element's state (`STATE_ATTRIBUTES`:
  `[data-feature]:not([hidden])`). The browser and the reader set them on any element (a click opens a
  `<details>`), so they identify nothing of ours; a selector that tests one still finds its elements by reserved
  markup (`Reserved.selector_problems`), so `[hidden]` alone, which would match page content, is refused.

`reserved_markup(docs_dir)` reads the project's files each time it is asked (the page checks cache their result).
tests/test_page_markup.py holds every selector call of the scripts to this list, so a new script cannot forget it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from scripts.checks.markup.html_policy import DATA_ISLAND_IDS

SCRIPTS = Path("assets/javascripts")  # under docs_dir
VENDORED = "vendor"  # third-party code under SCRIPTS, read by none of ours
TEMPLATES = Path("overrides")  # under the project root
VIEWS = Path("scripts/views")  # under the project root

# A JavaScript string literal (no template literals in our scripts: the test of this module checks).
JS_STRING_RE = re.compile(r"""(["'])((?:\\.|(?!\1)[^\\\n])*)\1""")
ID_CALL_RE = re.compile(r"""\bgetElementById\s*\(\s*(["'])([^"'\\]+)\1\s*\)""")
CLASS_CALL_RE = re.compile(
    r"""\b(?:classList\.(?:contains|toggle|add|remove|replace)|getElementsByClassName)\s*\(\s*(["'])([^"'\\]+)\1"""
)
SELECTOR_CALL_RE = re.compile(r"\.(?:querySelectorAll|querySelector|closest|matches)\s*\(")  # DOM methods only
SELECTOR_ID_RE = re.compile(r"#(-?[A-Za-z_][A-Za-z0-9_-]*)", re.ASCII)
SELECTOR_CLASS_RE = re.compile(r"\.(-?[A-Za-z_][A-Za-z0-9_-]*)", re.ASCII)
TEMPLATE_ID_RE = re.compile(r"""\bid\s*=\s*(["'])([A-Za-z0-9_-]+)\1""", re.ASCII)
VIEW_TARGET_RE = re.compile(r"""\bdata-[a-z-]*target\s*=\s*\\?["']([A-Za-z0-9_-]+)""", re.ASCII)

# Standard global HTML attributes a selector may test as a state, with why they are not ours to reserve.
STATE_ATTRIBUTES = {
    "hidden": "shown or not: scripts and the reader's browser set it on any element",
    "open": "a <details> or <dialog> the reader opened",
    "disabled": "a form control that cannot be used now",
    "checked": "a checkbox or radio the reader ticked",
    "selected": "an <option> the reader chose",
}
STATE_ATTRIBUTE_PREFIX = "aria-"  # accessibility states and properties (aria-expanded, aria-hidden …)

MATERIAL_ID_PREFIX = "__"
TABBED_ID_RE = re.compile(r"^__tabbed_\d+_\d+$", re.ASCII)
CLASS_PREFIXES = ("md-", "snippet-")
ATTRIBUTE_PREFIX = "data-"


@dataclass(frozen=True)
class Reserved:
    ids: frozenset[str]
    classes: frozenset[str]

    def id_reason(self, value: str) -> str | None:
        if value in self.ids:
            return "the site's scripts read the element with this id"
        if value.startswith(MATERIAL_ID_PREFIX) and not TABBED_ID_RE.match(value):
            return "ids starting with '__' are Material's components'"
        return None

    def class_reason(self, value: str) -> str | None:
        if value in self.classes:
            return "the site's scripts select elements by this class"
        if value.startswith(CLASS_PREFIXES):
            return (
                "classes starting with 'md-' are Material's components', with 'snippet-' the snippet checker's badges"
            )
        return None

    @staticmethod
    def attribute_reason(name: str) -> str | None:
        if name.lower().startswith(ATTRIBUTE_PREFIX):
            return "data-* attributes are read by the site's scripts and Material's components (data-md-*)"
        return None

    @staticmethod
    def state_attribute(name: str) -> bool:
        """A standard attribute a selector tests as an element's state: not ours to reserve (STATE_ATTRIBUTES)."""
        name = name.lower()
        return name in STATE_ATTRIBUTES or name.startswith(STATE_ATTRIBUTE_PREFIX)

    def selector_problems(self, selector: str) -> list[str]:
        """What a literal selector of the site's scripts names that page content could supply: an id or class that
        is not reserved; an attribute other than data-* that no reserved id or class scopes (a state attribute may
        be scoped by a data-* attribute too: `[data-feature]:not([hidden])`)."""
        bare = re.sub(r"\[[^\]]*\]?", "", selector)  # attribute values are neither ids nor classes
        ids, classes = SELECTOR_ID_RE.findall(bare), SELECTOR_CLASS_RE.findall(bare)
        attributes = re.findall(r"\[\s*([\w-]+)", selector)
        problems = [f"#{name}" for name in ids if not self.id_reason(name)]
        problems += [f".{name}" for name in classes if not self.class_reason(name)]
        scoped = bool(ids or classes)
        ours = any(self.attribute_reason(name) for name in attributes)
        for name in attributes:
            if self.attribute_reason(name) or scoped or (self.state_attribute(name) and ours):
                continue
            problems.append(f"[{name}]")
        return problems


def call_argument(source: str, open_paren: int) -> str:
    """The source text of a call's arguments, from the character after its `(` to the matching `)` (strings
    skipped), or to the end of the source when it never closes."""
    depth = 1
    index = open_paren + 1
    while index < len(source):
        string = JS_STRING_RE.match(source, index)
        if string:
            index = string.end()
            continue
        char = source[index]
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return source[open_paren + 1 : index]
        index += 1
    return source[open_paren + 1 :]


def selector_literals(source: str) -> list[str]:
    """The string literals inside the arguments of every querySelector(All)/closest/matches call."""
    literals = []
    for call in SELECTOR_CALL_RE.finditer(source):
        argument = call_argument(source, call.end() - 1)
        literals += [match.group(2) for match in JS_STRING_RE.finditer(argument)]
    return literals


def script_targets(source: str) -> tuple[set[str], set[str]]:
    """(ids, classes) a script's source selects or reads by a literal name."""
    ids = {match.group(2) for match in ID_CALL_RE.finditer(source)}
    classes = {name for match in CLASS_CALL_RE.finditer(source) for name in match.group(2).split()}
    for literal in selector_literals(source):
        # Attribute values in a selector ([value="…"]) are not ids or classes; drop them first.
        selector = re.sub(r"\[[^\]]*\]?", "", literal)
        ids |= set(SELECTOR_ID_RE.findall(selector))
        classes |= set(SELECTOR_CLASS_RE.findall(selector))
    return ids, classes


def script_files(docs_dir: Path) -> list[Path]:
    folder = docs_dir / SCRIPTS
    return sorted(p for p in folder.rglob("*.js") if VENDORED not in p.relative_to(folder).parts)


def reserved_markup(docs_dir: Path | str) -> Reserved:
    """What page content may not use, read from the project around `docs_dir` (see the module docstring)."""
    docs_dir = Path(docs_dir)
    root = docs_dir.resolve().parent
    ids: set[str] = set(DATA_ISLAND_IDS)
    classes: set[str] = set()
    for path in script_files(docs_dir):
        found_ids, found_classes = script_targets(path.read_text(encoding="utf-8"))
        ids |= found_ids
        classes |= found_classes
    for path in sorted((root / TEMPLATES).rglob("*.html")):
        ids |= {match.group(2) for match in TEMPLATE_ID_RE.finditer(path.read_text(encoding="utf-8"))}
    for path in sorted((root / VIEWS).rglob("*.py")):
        ids |= set(VIEW_TARGET_RE.findall(path.read_text(encoding="utf-8")))
    return Reserved(frozenset(ids), frozenset(classes))


def repeated_ids(output: str, reserved: Reserved) -> dict[str, int]:
    """The ids of `reserved.ids` (those the scripts read, which take the first element with an id) that a built
    page holds more than once, with their counts. Page content cannot write them (page_markup.py refuses them,
    entities and all), so they can only come as the generators and templates write ids, `id="…"`; this is the
    build's check that no generator or template repeats one either."""
    # `id` at a word boundary, the boundary asserted after the literal so that the search skips ahead to each "id"
    # (a page is 100 kB; a pattern that starts with \b is tried at every character).
    pattern = re.compile(
        r"""id(?<!\wid)\s*=\s*["']?(""" + "|".join(map(re.escape, sorted(reserved.ids))) + r""")["'\s/>]"""
    )
    counts: dict[str, int] = {}
    for found in pattern.findall(output):
        counts[found] = counts.get(found, 0) + 1
    return {name: count for name, count in sorted(counts.items()) if count > 1}
