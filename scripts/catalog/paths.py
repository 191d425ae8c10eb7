"""Paths under docs/ that must never be read or published: a `.git` entry, and symbolic links that dangle, loop,
leave the repository or reach its `.git` folder. MkDocs follows links and publishes what they point at, so
the catalog loader and the site page checks (scripts/checks/pages.py) refuse them before anything is read.

Names, too: MkDocs makes a page's title from its file name when the page has none, and a section's from its
folder's, and prints both into the navigation of every page; names are in URLs and messages. So a page's and a
folder's name hold only `[a-z0-9._-]` (the project's names all do), any other file's `[A-Za-z0-9._-]` (vendored
files keep their names, README.txt); no markup, space, bidirectional control or look-alike letter gets through.
MkDocs reads `.markdown`, `.mdown`, `.mkdn` and `.mkd` files as pages too: a page here is named `.md`."""

from __future__ import annotations

import os
import re
from pathlib import Path

from scripts.catalog.frontmatter import Problem
from scripts.catalog.model import DEFAULT_LANGUAGE


def _reaches_git(resolved: Path, root: Path) -> bool:
    """Whether a link's target is inside a `.git` folder or is a folder holding one (the repository root)."""
    if ".git" in resolved.relative_to(root).parts:
        return True
    return resolved.is_dir() and (resolved / ".git").exists()


def unsafe_path_problem(path: Path, root: Path, shown: str) -> Problem | None:
    """A problem if `path` is named `.git`, or is a symbolic link that is dangling, loops, leads outside
    `root` or reaches a `.git` folder."""
    if path.name == ".git":
        return Problem(shown, 1, "a '.git' entry under docs/ is refused: it could publish repository data and tokens")
    if not path.is_symlink():
        return None
    target = os.readlink(path)
    try:
        resolved = path.resolve(strict=True)
    except FileNotFoundError:
        return Problem(shown, 1, f"symbolic link to '{target}' points at nothing: remove it or make it a real file")
    except (RuntimeError, OSError):
        return Problem(shown, 1, f"symbolic link to '{target}' loops: remove it")
    root = root.resolve()
    try:
        resolved.relative_to(root)
    except ValueError:
        return Problem(
            shown, 1, f"symbolic link to '{target}' leads outside the repository: refused (it would publish that file)"
        )
    if resolved.is_dir() and path.parent.resolve().is_relative_to(resolved):
        return Problem(shown, 1, f"symbolic link to '{target}' loops (it points at a folder that holds it): remove it")
    if _reaches_git(resolved, root):
        return Problem(
            shown,
            1,
            f"symbolic link to '{target}' reaches the repository's .git folder: refused (it would publish it, and the deploy token it holds)",
        )
    return None


PAGE_NAME_RE = re.compile(r"^[a-z0-9._-]+$", re.ASCII)  # pages and folders
FILE_NAME_RE = re.compile(r"^[A-Za-z0-9._-]+$", re.ASCII)  # every other file
OTHER_MARKDOWN_SUFFIXES = (".markdown", ".mdown", ".mkdn", ".mkd")  # mkdocs.utils.markdown_extensions


def name_problem(path: Path, shown: str, folder: bool) -> Problem | None:
    """A problem if the name of `path` (a folder, a page or another file) is outside its alphabet."""
    name = path.name
    shown = shown if shown.isascii() and shown.isprintable() else ascii(shown)[1:-1]  # no control reaches a terminal
    if not folder and name.endswith(OTHER_MARKDOWN_SUFFIXES):
        return Problem(shown, 1, f"MkDocs reads '{ascii(name)[1:-1]}' as a page: name pages '.md'")
    page = folder or name.endswith(".md")
    if (PAGE_NAME_RE if page else FILE_NAME_RE).match(name):
        return None
    alphabet = "[a-z0-9._-]" if page else "[A-Za-z0-9._-]"
    kind = "folder" if folder else "page" if page else "file"
    return Problem(
        shown,
        1,
        f"the {kind} name {ascii(name)} holds characters outside {alphabet}: MkDocs prints page and folder names into the navigation and URLs of every page; rename it",
    )


def language_suffix_problem(path: Path, shown: str) -> Problem | None:
    """A problem if a page is named with the default language's suffix (`2.6.zh.md`): the default language has
    none, and static-i18n stops with a traceback when both `2.6.md` and `2.6.zh.md` exist."""
    suffix = f".{DEFAULT_LANGUAGE}.md"
    if not path.name.endswith(suffix):
        return None
    return Problem(
        shown,
        1,
        f"the default language ({DEFAULT_LANGUAGE}) has no suffix: name this page {path.name[: -len(suffix)]}.md",
    )
