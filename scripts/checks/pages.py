"""Checks on every file under docs/, not only release pages: what could publish something wrong or unsafe.

- **Links that leave the repository or reach `.git`.** MkDocs follows symbolic links and publishes what they
  point at: `docs/env.txt -> /proc/self/environ` would put the build environment (a deploy token included)
  into the site and the offline zip, and `docs/x.txt -> ../.git/config` the token the deploy checkout writes
  there. A link whose target is outside the project, inside or holding a `.git`, dangling, or a loop is
  refused, and so is anything named `.git` under docs/.
- **Files published as they are that could run script in the site's origin**: an SVG file must pass the
  same allowlist as inline SVG (scripts/checks/markup/html_policy.py: no script, event handler, link, animation or external
  reference); HTML, XHTML and XSLT files are refused, and so is an XML file that names a style sheet.
- **A folder named like a page** (`x.md/`) crashes MkDocs with a traceback; it is reported instead.
- **Front matter of every page**, parsed as strictly as a release page's (unknown YAML tags, aliases,
  malformed YAML, non-UTF-8 bytes at their line); only the fields MkDocs/Material use here are allowed,
  and release facts outside `docs/releases/` are refused (they would be ignored silently).
- **Markers.** An HTML comment that looks like a marker (`<!-- time line -->`, `<!-- snipet: skip -->`)
  but is not one would leave a view or a snippet directive out silently; it is reported, with the marker
  it was probably meant to be. A topic marker names a known area; home pages carry the timeline.
- **Code fences** that never close swallow the rest of a page.
- **Names and languages.** A page's and a folder's name hold only `[a-z0-9._-]` (scripts/catalog/paths.py);
  a page of the default language has no language suffix (`2.6.zh.md` beside `2.6.md` crashes static-i18n);
  every page but a release's (the catalog checks those) exists in every language (`x.md` and `x.en.md`): the
  navigation, and so the one 404 page both languages share, would differ.
- **Page content** (scripts/checks/markup/page_markup.py): rendered as MkDocs renders it, it must nest within the
  stack MkDocs has, use none of the ids, classes and `data-*` attributes the site's code relies on
  (scripts/checks/markup/reserved.py), and hold no bidirectional or invisible control in a heading, id or class.

`check_pages(docs_dir)` returns every problem as `frontmatter.Problem` (path:line: message), and
`python -m scripts.checks.pages` (make check-pages) prints them with the release catalog's own. The build hook
`validate_releases.py` calls `check_site_pages`, which hands each page's costly content check to the build's helper
process (`page_content_problems`, scripts/checks/beside.py) and returns at once: the hook waits for a page's answer
before MkDocs renders that page, and for every answer before anything is written.

    python -m scripts.checks.pages [--docs-dir docs]
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from scripts.catalog.fences import scan_fences
from scripts.catalog.frontmatter import Problem, Reader, parse_front_matter, read_page_text, shown_path
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import (
    AREAS,
    LANGUAGE_NAMES,
    LANGUAGES,
    RELEASES_DIR,
    ReleaseDataError,
    language_of,
    page_file_name,
)
from scripts.catalog.paths import language_suffix_problem, name_problem, unsafe_path_problem
from scripts.checks.beside import run_here
from scripts.checks.markup.html_policy import source_line
from scripts.checks.markup.page_markup import MarkdownSetup, PageRenderer, page_markup_problems, setup_from_project
from scripts.checks.markup.reserved import Reserved, reserved_markup
from scripts.checks.markup.svg_policy import svg_findings
from scripts.snippets.extract import extract_page
from scripts.snippets.parse import pycon_problems, python_problems

# Front matter fields a non-release page may use (MkDocs/Material meaning in brackets).
PAGE_FIELDS = ("title", "description", "hide", "search")
HIDE_VALUES = ("navigation", "toc", "footer", "path", "tags", "feedback")
RELEASE_ONLY_FIELDS = ("version", "date", "features", "changes", "compat", "patches", "source", "summary")

# Markers the hooks replace, and the snippet directive. A marker comment is a whole line.
MARKERS = (
    "timeline",
    "lifecycle",
    "compare",
    "compatibility",
    "support-timeline",
    "upgrade",
    "machine",
    "machine-environment",
    "machine-tables",
)
PREFIXED_MARKERS = ("topic", "snippet")
MARKER_LINE_RE = re.compile(r"^\s*<!--\s*(?P<body>.*?)\s*-->\s*$")
# What looks like a marker: lowercase words (with spaces, dashes or underscores), optionally "name: args".
MARKERISH_RE = re.compile(r"^(?P<name>[a-z][a-z _-]{0,30}?)\s*(?::(?P<args>.*))?$")
HOME_PAGES = ("index.md", "index.en.md")
# Static files a browser would run as a document of the site: published verbatim by MkDocs, never checked.
DOCUMENT_SUFFIXES = (".html", ".htm", ".xhtml", ".xht", ".shtml", ".xsl", ".xslt", ".svgz")
XML_STYLESHEET_RE = re.compile(r"<\?xml-stylesheet", re.IGNORECASE)


def published_file_problems(path: Path, shown: str) -> list[Problem]:
    """Problems of a static file MkDocs copies into the site as it is, where it would run in the site's origin."""
    name = path.name.lower()
    if name.endswith(DOCUMENT_SUFFIXES):
        return [
            Problem(
                shown,
                1,
                "an HTML, XHTML, XSLT or compressed SVG file would be published as it is and could run script in the site's origin: write a Markdown page instead",
            )
        ]
    if not name.endswith((".svg", ".xml")):
        return []
    text, problems = read_page_text(path, shown)
    if text is None:
        return problems
    if name.endswith(".xml"):
        match = XML_STYLESHEET_RE.search(text)
        return (
            [
                Problem(
                    shown,
                    text.count("\n", 0, match.start()) + 1,
                    "an XML file may not name a style sheet (XSLT can run script)",
                )
            ]
            if match
            else []
        )
    lines = text.split("\n")
    return [Problem(shown, source_line(finding, lines) or 1, f"SVG file: {finding}") for finding in svg_findings(text)]


def _walk(docs_dir: Path, root: Path) -> tuple[list[Path], list[Problem]]:
    """Every Markdown page (not hidden) under docs_dir, and the problems of links, odd entries and files
    published as they are."""
    pages: list[Path] = []
    problems: list[Problem] = []
    # Links are followed, as MkDocs follows them, once checked: a refused one is taken out of `dirs` before
    # the walk could enter it, and a link to a folder holding it (the only way to make a cycle) is refused.
    for folder, dirs, files in os.walk(docs_dir, followlinks=True):
        here = Path(folder)
        for name in sorted(dirs):
            path = here / name
            unsafe = unsafe_path_problem(path, root, shown_path(path)) or name_problem(path, shown_path(path), True)
            if unsafe:
                problems.append(unsafe)
                dirs.remove(name)
            elif name.endswith(".md") and not name.startswith("."):
                problems.append(
                    Problem(
                        shown_path(path),
                        1,
                        "is a folder named like a page: rename it (MkDocs cannot read a folder as a page)",
                    )
                )
                dirs.remove(name)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = here / name
            unsafe = unsafe_path_problem(path, root, shown_path(path)) or name_problem(path, shown_path(path), False)
            if unsafe:
                problems.append(unsafe)
            elif name.endswith(".md") and not name.startswith("."):
                pages.append(path)
            elif not name.startswith("."):
                problems.extend(published_file_problems(path, shown_path(path)))
    return pages, problems


def marker_problems(body: str, body_line: int, shown: str, areas) -> list[Problem]:
    """Unknown or misspelt marker comments (outside code fences), and topic markers naming no area."""
    problems = []
    lines = body.split("\n")
    for index, (line, in_code) in enumerate(zip(lines, scan_fences(lines)[0], strict=True)):
        match = None if in_code else MARKER_LINE_RE.match(line)
        if not match:
            continue
        markerish = MARKERISH_RE.match(match.group("body"))
        if not markerish:
            continue
        name, args = markerish.group("name").strip(), markerish.group("args")
        where = body_line + index
        if args is None and name in MARKERS:
            continue
        if args is not None and name in PREFIXED_MARKERS:
            if name == "topic" and args.strip() not in areas:
                problems.append(
                    Problem(
                        shown,
                        where,
                        f"unknown area '{args.strip()}' in topic marker (expected one of: {', '.join(areas)})",
                    )
                )
            continue
        known = list(MARKERS) + [f"{p}:" for p in PREFIXED_MARKERS]
        guess = difflib.get_close_matches(
            name.replace(" ", "") + (":" if args is not None else ""), known, n=1, cutoff=0.6
        )
        hint = (
            f"; did you mean '<!-- {guess[0]}{' …' if guess[0].endswith(':') else ''} -->'?"
            if guess
            else f" (markers: {', '.join(known)})"
        )
        problems.append(
            Problem(
                shown, where, f"unknown marker '<!-- {match.group('body')} -->'{hint}: it would be left out silently"
            )
        )
    return problems


def _front_matter_problems(front, shown: str, in_releases: bool) -> list[Problem]:
    if front.root is None or in_releases:
        return []
    r = Reader(shown, front.offset)
    fields = {key.value: (key, value) for key, value in front.root.value}
    for name, (key, value) in fields.items():
        if name in RELEASE_ONLY_FIELDS:
            r.problem(
                r.line(key),
                f"'{name}' is release front matter: a release page lives in docs/releases/<version>.md, elsewhere it would be ignored",
            )
        elif name not in PAGE_FIELDS:
            r.problem(r.line(key), f"unknown field '{name}' (a page may set: {', '.join(PAGE_FIELDS)})")
        elif name in ("title", "description"):
            r.text(value, name)
        elif name == "hide":
            for item in r.text_list(value, name) or []:
                if item not in HIDE_VALUES:
                    r.problem(r.line(value), f"unknown value '{item}' in 'hide' (expected: {', '.join(HIDE_VALUES)})")
        elif name == "search":
            r.fields(value, "search", ("exclude", "boost"))
    return r.problems


def language_problems(pages: list[Path], docs_dir: Path) -> list[Problem]:
    """A page of the default language named with its suffix, and a page (not a release's: the catalog reports
    those with their line) missing in a language."""
    problems = []
    languages: dict[Path, dict[str, Path]] = {}
    for path in pages:
        lang = language_of(path)
        suffixed = language_suffix_problem(path, shown_path(path))
        if suffixed:
            problems.append(suffixed)
            continue
        if path.parent != docs_dir / RELEASES_DIR:
            name = path.name[: -len(".md")].removesuffix(f".{lang}")
            languages.setdefault(path.parent / name, {})[lang] = path
    for common, files in sorted(languages.items()):
        present = next(iter(files.values()))
        for lang in LANGUAGES:
            if lang not in files:
                expected = shown_path(common.parent / page_file_name(common.name, lang))
                problems.append(
                    Problem(
                        shown_path(present),
                        1,
                        f"this page has no {lang} ({LANGUAGE_NAMES[lang]}) version: add {expected} (every page is built in every language)",
                    )
                )
    return problems


def code_block_problems(path: Path, docs_dir: Path, in_releases: bool) -> list[Problem]:
    """What the snippet checker's torch-free tiers find in a page's code blocks, so the build refuses it too:
    blocks that would not render as code (an unclosed fence, a line indented less than its fence), missing or
    unknown language tags, bad or misspelt snippet directives, and Python that does not parse."""
    page = extract_page(path, docs_dir)
    diagnostics = list(page.problems)
    for snippet in page.snippets:
        if snippet.lang == "python":
            diagnostics += python_problems(snippet)
        elif snippet.lang == "pycon":
            diagnostics += pycon_problems(snippet)
    problems = []
    for d in diagnostics:
        if in_releases and "never closed" in d.message:
            continue  # the catalog reports a release page's unclosed fence
        problems.append(Problem(d.path, d.line, d.message))
    return problems


Submit = Callable[..., "Future[list[Problem]]"]


@dataclass
class SiteChecks:
    """The problems of every file under docs/: `problems` now (links, names, languages, front matter, markers),
    and per page the future problems of its content (`page_content_problems`: its code blocks and its content as
    rendered), keyed by the page's absolute path."""

    problems: list[Problem]
    content: dict[str, Future[list[Problem]]] = field(default_factory=dict)

    def all_problems(self) -> list[Problem]:
        """Every problem, once every page's content has been checked."""
        return self.problems + [p for future in self.content.values() for p in future.result()]


_CACHE: dict[tuple[str, str], tuple[tuple, SiteChecks]] = {}
_RENDERERS: dict[str, PageRenderer] = {}


def check_site_pages(docs_dir: Path | str, setup: MarkdownSetup | None = None, submit: Submit = run_here) -> SiteChecks:
    """start_checks, memoised on every file's name, type, size and modification time: static-i18n runs the
    whole build once per language (and `mkdocs serve` on every change), and nothing changed in between."""
    docs_dir = Path(docs_dir)
    stamp = tuple(
        sorted((str(p), p.is_symlink(), p.lstat().st_mtime_ns, p.lstat().st_size) for p in docs_dir.rglob("*"))
    )
    key = (str(docs_dir.resolve()), repr(setup))
    hit = _CACHE.get(key)
    failed = hit is not None and any(f.done() and f.exception() for f in hit[1].content.values())
    if hit and hit[0] == stamp and not failed:  # a check the helper could not run is run again
        return hit[1]
    checks = start_checks(docs_dir, setup, submit)
    _CACHE[key] = (stamp, checks)
    return checks


def check_pages(docs_dir: Path | str, setup: MarkdownSetup | None = None) -> list[Problem]:
    """Every problem of every file under docs_dir (see the module docstring), checked here and now."""
    return start_checks(docs_dir, setup).all_problems()


def page_content_problems(
    path: str, docs_dir: str, in_releases: bool, body: str, body_line: int, setup: MarkdownSetup, reserved: Reserved
) -> list[Problem]:
    """The costly checks of one page (a pure function of its arguments and the file, so the build can run it in
    its helper process: scripts/checks/beside.py): its code blocks, and its content as MkDocs renders it."""
    problems = code_block_problems(Path(path), Path(docs_dir), in_releases)
    renderer = _RENDERERS.get(repr(setup))
    if renderer is None:
        renderer = _RENDERERS[repr(setup)] = PageRenderer(setup)
    return problems + page_markup_problems(body, body_line, shown_path(Path(path)), renderer, reserved)


def start_checks(docs_dir: Path | str, setup: MarkdownSetup | None = None, submit: Submit = run_here) -> SiteChecks:
    """Every check of every file under docs_dir (see the module docstring); each page's content check is handed
    to `submit` (default: run at once). `setup`: the Markdown extensions MkDocs renders pages with (the build
    passes its own; by default, those of the project's mkdocs.yml)."""
    docs_dir = Path(docs_dir)
    root = docs_dir.resolve().parent
    pages, problems = _walk(docs_dir, root)
    problems.extend(language_problems(pages, docs_dir))
    setup = setup or setup_from_project(root)
    reserved = reserved_markup(docs_dir)
    checks = SiteChecks(problems)
    for path in pages:
        shown = shown_path(path)
        rel = path.relative_to(docs_dir).as_posix()
        in_releases = rel.startswith(f"{RELEASES_DIR}/")
        text, found = read_page_text(path, shown)
        if text is None:
            problems.extend(found)
            continue
        front, found = parse_front_matter(text, shown, required=False)
        if front is None:
            if not in_releases:  # release pages report their front matter through the catalog
                problems.extend(found)
            continue
        problems.extend(_front_matter_problems(front, shown, in_releases))
        problems.extend(marker_problems(front.body, front.body_line, shown, AREAS))
        if rel in HOME_PAGES and "<!-- timeline -->" not in front.body:
            problems.append(
                Problem(
                    shown,
                    front.body_line,
                    "the home page has no '<!-- timeline -->' marker: the timeline would be missing",
                )
            )
        checks.content[os.path.normpath(os.path.abspath(path))] = submit(
            page_content_problems, str(path), str(docs_dir), in_releases, front.body, front.body_line, setup, reserved
        )
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.checks.pages",
        description="Validate every release page (and every other page's front matter and markers) and print a summary.",
    )
    parser.add_argument("--docs-dir", default="docs", help="the MkDocs docs_dir (default: docs)")
    args = parser.parse_args(argv)
    docs_dir = Path(args.docs_dir)
    if not docs_dir.is_dir():
        print(f"error: docs dir '{args.docs_dir}' does not exist", file=sys.stderr)
        return 2
    problems = check_pages(docs_dir)
    catalog = None
    try:
        catalog = load_catalog(docs_dir)
    except ReleaseDataError as exc:
        problems = problems + exc.problems
    if problems or catalog is None:
        error = ReleaseDataError(problems)
        print(error, file=sys.stderr)
        print(f"{len(error.problems)} problem(s) found", file=sys.stderr)
        return 1
    for release in catalog.releases:
        counts = ", ".join(f"{n} {label}" for label, n in release.facts.maturity_counts().items())
        extra = f", {len(release.changes)} changes" if release.changes else ""
        print(
            f"{release.version:>5}  {release.date_iso:<10}  {len(release.features)} features ({counts or 'none'}){extra}"
        )
    print(f"{len(catalog.releases)} releases, {len(catalog.releases) * len(LANGUAGES)} pages: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
