"""One reader of page metadata: what MkDocs read into `page.meta` must be exactly what the page checks read.

The page checks (scripts/checks/pages.py, the catalog for release pages) find a page's front matter by MkDocs's
own rules and validate it (fields, escaping, aliases, nesting) before MkDocs reads any page. Once MkDocs has
read a page, `meta_problem` compares its `page.meta` with the same front matter constructed as MkDocs
constructs it: any difference (metadata in a form the checks do not know, from a future MkDocs or a plugin)
stops the build with the page's file and line, instead of reaching Material's templates unchecked.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from scripts.catalog.frontmatter import Problem, opens_front_matter, read_page_text, split_front_matter

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # what MkDocs loads front matter with


def checked_meta(path: Path, shown: str) -> tuple[dict | None, list[Problem]]:
    """The metadata the page checks read from the page at `path`, constructed as MkDocs constructs it (a
    mapping, else nothing), or None with the problems that kept it from being read."""
    text, problems = read_page_text(path, shown)
    if text is None:
        return None, problems
    if not opens_front_matter(text):
        return {}, []
    split = split_front_matter(text)
    if split is None:
        return {}, []
    try:
        # MkDocs loads the block with its last line break (a final `|` text keeps its newline); checked already:
        # no tags, aliases or deep nesting.
        data = yaml.load(split[0] + "\n", _LOADER)
    except (yaml.YAMLError, RecursionError, MemoryError):
        return {}, []
    return (data if isinstance(data, dict) else {}), []


def meta_problem(meta: dict, source: str | None, shown: str) -> Problem | None:
    """A problem if `meta` (MkDocs's page.meta, read from the file `source`) is not what the checks read."""
    if source is None or not Path(source).is_file():  # a page a plugin made: no text, so no metadata of its own
        return (
            None
            if not meta
            else Problem(shown, 1, f"a generated page carries metadata ({', '.join(map(ascii, meta))})")
        )
    expected, problems = checked_meta(Path(source), shown)
    if expected is None:
        return problems[0]
    if meta == expected:
        return None
    differing = sorted(ascii(name) for name in {*meta, *expected} if meta.get(name) != expected.get(name))
    return Problem(
        shown,
        1,
        f"MkDocs read metadata the page checks did not ({', '.join(differing)}): write metadata only in the "
        "page's '---' front matter block, as the checks read it",
    )
