"""Paths under docs/ that must never be read or published: a `.git` entry, and symbolic links that dangle, loop,
leave the repository or reach its `.git` folder. MkDocs follows links and publishes what they point at, so
the catalog loader and the site page checks (scripts/checks/pages.py) refuse them before anything is read."""

from __future__ import annotations

import os
from pathlib import Path

from scripts.catalog.frontmatter import Problem


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
