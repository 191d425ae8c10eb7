"""One reader of page metadata, and the site's own markup (scripts/catalog/frontmatter.py, scripts/checks/page_meta.py,
page_markup.py, reserved.py), on strings and the real scripts: MkDocs's parse agrees with ours or ours refuses,
every selector of our JavaScript is reserved, repeated script ids in a built page are found. The build-level
cases are in tests/test_bad_page_meta.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT, mkdocs_build
from mkdocs.utils.meta import get_data

from scripts.catalog.frontmatter import parse_front_matter
from scripts.checks.markup.page_markup import PageRenderer, page_markup_problems, setup_from_project
from scripts.checks.markup.reserved import (
    SELECTOR_CALL_RE,
    STATE_ATTRIBUTES,
    Reserved,
    call_argument,
    repeated_ids,
    reserved_markup,
    script_files,
)
from scripts.checks.page_meta import checked_meta, meta_problem

DOCS = ROOT / "docs"

# Page texts around MkDocs's rules for metadata (mkdocs/utils/meta.py), ordinary ones first.
VARIANTS = {
    "plain": "---\ntitle: A\n---\n\n# A\n",
    "dots": "---\ntitle: A\n...\n\n# A\n",
    "block-text-last": "---\ntitle: A\nhide:\n  - toc\ndescription: |\n  two\n  lines\n---\nbody\n",
    "no-front-matter": "# A\n\ntitle: not metadata\n",
    "empty-first-line": "\ntitle: A\n",
    "comment-only": "---\n# nothing\n---\n\n# A\n",
    "opening-space": "--- \ntitle: A\n---\n",
    "opening-tab": "---\t\ntitle: A\n---\n",
    "closing-space": "---\ntitle: A\n---   \nx\n",
    "second-line-dashes": "---\n---\ntitle: A\n---\n",
    "empty-block": "---\n---\n# A\n",
    "closing-at-end": "---\ntitle: A\n---",
    "closing-nbsp": "---\ntitle: A\n---\u00a0\nsubtitle: B\n---\n",
    "four-dashes": "----\ntitle: A\n----\n",
    "multimarkdown": "title: A\nsubtitle: B\n\n# A\n",
    "multimarkdown-continued": "Title: A\n    more\n\n# A\n",
    "multimarkdown-dashes": "---x: y\n",
    "url-first": "https://example.com/ is the place\n",
    "unclosed": "---\ntitle: A\n\n# A\n",
    "list": "---\n- a\n---\n",
    "merge-key": "---\n<<: {subtitle: B}\ntitle: A\n---\n",
}


@pytest.mark.parametrize("text", VARIANTS.values(), ids=VARIANTS.keys())
def test_our_reading_of_metadata_is_mkdocs_reading_or_a_refusal(tmp_path, text):
    """For any page text, either the checks refuse it with a line, or MkDocs's page.meta is exactly what they
    read (and page_meta.meta_problem, the build's guard, agrees)."""
    front, problems = parse_front_matter(text, "page.md", required=False)
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    mkdocs_meta = get_data(text)[1]
    if front is None:
        assert problems and all(p.line >= 1 for p in problems)
        return
    assert problems == []
    expected, _ = checked_meta(page, "page.md")
    assert mkdocs_meta == expected
    assert meta_problem(mkdocs_meta, str(page), "page.md") is None


def test_the_build_guard_refuses_metadata_the_checks_did_not_read(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("---\ntitle: A\n---\n\n# A\n", encoding="utf-8")
    problem = meta_problem({"title": "A", "subtitle": "<img src=x onerror=alert(1)>"}, str(page), "docs/page.md")
    assert problem is not None and str(problem).startswith("docs/page.md:1: MkDocs read metadata the page checks")
    assert "'subtitle'" in str(problem)
    assert meta_problem({"title": "A"}, str(page), "docs/page.md") is None


def test_the_build_stops_when_mkdocs_reads_metadata_the_checks_did_not(fixture_project, tmp_path):
    """A plugin (or a later MkDocs) that puts metadata the checks never saw into page.meta: the build stops at
    the page instead of handing it to Material's templates (which print `subtitle` unescaped)."""
    hook = fixture_project / "overrides/hooks/zz_inject.py"
    hook.write_text(
        "from mkdocs.plugins import event_priority\n\n\n"
        "@event_priority(1000)\n"
        "def on_page_markdown(markdown, page, config, files):\n"
        "    page.meta['subtitle'] = '<img src=x onerror=alert(1)>'\n"
        "    return markdown\n",
        encoding="utf-8",
    )
    config = fixture_project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("hooks:\n", "hooks:\n  - overrides/hooks/zz_inject.py\n", 1),
        encoding="utf-8",
    )
    result = mkdocs_build(fixture_project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    assert "MkDocs read metadata the page checks did not ('subtitle')" in output
    assert not (tmp_path / "out" / "index.html").exists()


# --- the reserved markup, derived from the scripts ----------------------------------------------------------

# Selector calls whose argument is built at run time, each with why it cannot reach page content.
DYNAMIC_SELECTORS = {
    # install.js: radio inputs by name and value, inside the picker (reserved class install-choices).
    "'input[name=\"' + group + '\"]:checked'": "inside .install-choices",
    "'input[name=\"' + group + '\"][value=\"' + CSS.escape(wanted) + '\"]'": "inside .install-choices",
    "'input[name=\"' + group + '\"]'": "inside .install-choices",
    # views.js: options of a reserved select element
    "'option[value=\"' + CSS.escape(wanted) + '\"]'": "inside #lifecycle-area",
    "'option[value=\"' + CSS.escape(want) + '\"]'": "inside a select of #compat-filters",
    # not-found.js: the 404 template's own message (data-* attributes are all reserved)
    "'[data-lang=\"' + lang + '\"]'": "inside [data-not-found]",
    # views.js: a group's title, by a data-* attribute (reserved) inside the list a data-filter-target names
    "'[data-group-title=\"' + group.getAttribute(\"data-group\") + '\"]'": "a data-* attribute (reserved)",
    # views.js: the upgrade view's area choice from the URL, among the options of its own select
    "'option[value=\"' + CSS.escape(wantArea) + '\"]'": "inside #compare-area",
}
DYNAMIC_ID_CALLS = {
    'select.getAttribute("data-filter-target")': "a data-* attribute of the generated view (reserved)",
    'form.getAttribute("data-target")': "a data-* attribute of the generated view (reserved)",
    # install.js: the fragment's target, acted on only inside a feature fold (reserved class feature-area)
    "decodeURIComponent(id)": "used only when inside details.feature-area",
    # views.js: the sources row a matrix row's toggle controls, acted on only if it is one (reserved class)
    'toggle.getAttribute("aria-controls")': "used only when it is a .compat-sources-row",
}


def _calls(source: str, pattern: str) -> list[str]:
    return [call_argument(source, match.end() - 1).strip() for match in re.finditer(rf"\.(?:{pattern})\s*\(", source)]


def test_every_element_our_scripts_look_up_is_reserved():
    """Every getElementById / querySelector(All) / closest / matches / getElementsByClassName call of the site's
    scripts: a literal argument names only reserved ids, classes and data-* attributes; any other argument is
    one of the few listed above, each scoped to reserved markup. A new script's lookups are reserved by the
    same reading (reserved.py), and a lookup that reading cannot see fails here."""
    reserved = reserved_markup(DOCS)
    assert {"compare-data", "compare-strings", "lifecycle-list", "compat-table", "__config"} <= reserved.ids
    assert {"md-select__link", "install-picker", "claim-note"} <= reserved.classes
    unknown = []
    for path in script_files(DOCS):
        source = path.read_text(encoding="utf-8")
        for argument in _calls(source, "getElementById"):
            literal = re.fullmatch(r"""(["'])([^"']+)\1""", argument)
            if literal:
                assert reserved.id_reason(literal.group(2)), (path.name, argument)
            elif argument not in DYNAMIC_ID_CALLS:
                unknown.append((path.name, "getElementById", argument))
        for argument in _calls(source, "getElementsByClassName"):
            unknown.append((path.name, "getElementsByClassName", argument))
        for match in SELECTOR_CALL_RE.finditer(source):
            argument = call_argument(source, match.end() - 1).strip()
            literal = re.fullmatch(r"""(["'])([^"']+)\1""", argument)
            if not literal:
                if argument not in DYNAMIC_SELECTORS:
                    unknown.append((path.name, match.group(), argument))
                continue
            selector = literal.group(2)
            assert reserved.selector_problems(selector) == [], (path.name, selector)
    assert unknown == [], f"lookups that reserved.py cannot read; reserve their targets, then list them: {unknown}"


@pytest.mark.parametrize(
    "selector, problems",
    [
        ("[data-feature]:not([hidden])", []),  # a state of reserved markup (views.js)
        (".install-option:not([hidden]) .install-system", []),
        ("details.feature-area[open] > summary", []),
        ('[data-lang="en"][aria-hidden="true"]', []),
        ("[hidden]", ["[hidden]"]),  # a state alone would match page content
        ('[aria-expanded="true"]', ["[aria-expanded]"]),
        ("#not-ours:not([hidden])", ["#not-ours"]),  # an id the scripts do not read stays unreserved: caught
        (".not-ours[open]", [".not-ours"]),
        ('[href="#install"]', ["[href]"]),  # neither a state nor scoped; '#install' in a value is no id
        ('.install-choices input[name="os"]', []),  # scoped by a reserved class
    ],
)
def test_a_selector_may_test_standard_states_of_reserved_markup_only(selector, problems):
    """Standard HTML attributes a script tests as states (hidden, open, disabled, checked, selected, aria-*) are not
    ours to reserve, but the selector must still find its elements by reserved markup; an id or class that is not
    reserved is still a problem, state or no state."""
    reserved = reserved_markup(DOCS)
    assert {"install-option", "install-system", "feature-area", "install-choices"} <= reserved.classes
    assert "not-ours" not in reserved.ids | reserved.classes
    assert reserved.selector_problems(selector) == problems
    assert Reserved.state_attribute("hidden") and Reserved.state_attribute("aria-expanded")
    assert not Reserved.state_attribute("data-hidden") and not Reserved.state_attribute("href")
    assert all(reason for reason in STATE_ATTRIBUTES.values())


def test_reserved_markup_names_what_it_is_for():
    reserved = reserved_markup(DOCS)
    assert reserved.id_reason("compare-data") == "the site's scripts read the element with this id"
    assert reserved.id_reason("__drawer") and not reserved.id_reason("__tabbed_1_2")
    assert reserved.id_reason("area-jit") is None and reserved.id_reason("upgrade-notes") is None
    assert reserved.class_reason("snippet-ok") and reserved.class_reason("md-button")
    assert reserved.class_reason("views-grid") is None and reserved.class_reason("search-hint") is None
    assert reserved.attribute_reason("data-md-component") and reserved.attribute_reason("DATA-X")
    assert reserved.attribute_reason("title") is None


def test_repeated_script_ids_in_a_built_page_are_found():
    reserved = reserved_markup(DOCS)
    page = (
        '<label for="compare-data"></label><script type="application/json" id="compare-data">[]</script>'
        "<div id=compare-data></div><p id='compare-result'></p><p id=\"compare-data-x\"></p>"
    )
    assert repeated_ids(page, reserved) == {"compare-data": 2}
    assert repeated_ids('<input id="__search"><label for="__search">', reserved) == {}


# --- the real pages -----------------------------------------------------------------------------------------


def test_every_real_page_renders_within_the_budget_with_no_reserved_markup():
    renderer = PageRenderer(setup_from_project(ROOT))
    reserved = reserved_markup(DOCS)
    pages = sorted(DOCS.rglob("*.md"))
    assert len(pages) > 100
    for path in pages:
        front, problems = parse_front_matter(path.read_text(encoding="utf-8"), str(path), required=False)
        assert front is not None, problems
        assert page_markup_problems(front.body, front.body_line, str(path), renderer, reserved) == []


def test_tabs_made_by_pymdownx_tabbed_are_not_refused():
    """pymdownx.tabbed writes data-tabs and __tabbed_* ids of its own; only what the author writes counts."""
    renderer = PageRenderer(setup_from_project(ROOT))
    body = '=== "Linux"\n\n    one\n\n=== "macOS"\n\n    two\n'
    assert page_markup_problems(body, 1, "page.md", renderer, reserved_markup(DOCS)) == []
    written = body + '\n<div data-tabs="1:2"></div>\n'
    problems = page_markup_problems(written, 1, "page.md", renderer, reserved_markup(DOCS))
    assert problems and {p.line for p in problems} == {9} and all("data-tabs" in p.message for p in problems)


def test_a_page_too_deep_is_found_at_its_first_line_too_deep():
    renderer = PageRenderer(setup_from_project(ROOT))
    body = "Text.\n\n" + "".join("    " * i + "- x\n" for i in range(30)) + "\n" + "**" * 400 + "x" + "**" * 400
    problems = page_markup_problems(body, 10, "page.md", renderer, reserved_markup(DOCS))
    assert [str(p) for p in problems] == [
        "page.md:43: nested too deeply for MkDocs to render (lists, quotes, admonitions, HTML blocks or emphasis inside one another): flatten it"
    ]


def test_the_check_renders_with_the_extensions_of_mkdocs_yml():
    setup = setup_from_project(ROOT)
    assert setup.extensions[:3] == ("toc", "tables", "fenced_code")  # MkDocs's own, first
    assert "pymdownx.superfences" in setup.extensions and setup.configs["toc"] == {"permalink": True}
    assert setup_from_project(Path("/nonexistent")).extensions == ("toc", "tables", "fenced_code")
