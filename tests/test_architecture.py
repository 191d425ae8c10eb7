"""The shape of the code (scripts/checks/architecture.py, ARCHITECTURE.md): no import circle, layers that import only
downward, modules under 500 lines that start with their docstring, folders of at most 12 modules. Each rule is held
on the real tree, and the checker itself on small packages written here, so a checker that found nothing would
fail too."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from scripts.checks.architecture import (
    LAYERS,
    MAX_LINES,
    PENDING_FOLDERS,
    PENDING_SPLITS,
    cycles,
    docstring_problems,
    folder_problems,
    import_graph,
    imports_of,
    layer_violations,
    modules_of,
    size_problems,
)


@pytest.fixture(scope="module")
def graph():
    return import_graph(ROOT, "scripts")


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def _package(root: Path, *folders: str) -> dict[str, str]:
    return {f"{folder}/__init__.py": '"""A package."""\n' for folder in folders}


# --- the real tree ------------------------------------------------------------------------------------------------


def test_the_graph_sees_every_layer_and_imports_inside_functions(graph):
    assert {
        "scripts.catalog.loader",
        "scripts.registry.wheels",
        "scripts.verdicts.compute",
        "scripts.views.matrix",
    } <= set(graph)
    assert "scripts.catalog.model" in graph["scripts.catalog.loader"]
    # scripts/snippets/extract.py reads front matter from inside a function.
    assert "scripts.catalog.frontmatter" in graph["scripts.snippets.extract"]


def test_no_import_circle(graph):
    assert cycles(graph) == []


def test_layers_import_only_downward(graph):
    assert layer_violations(graph) == []


def test_no_view_imports_the_registry_or_decides_a_verdict(graph):
    views = {name: targets for name, targets in graph.items() if name.startswith("scripts.views")}
    assert len(views) > 10
    for name, targets in views.items():
        assert not any(t.startswith("scripts.registry") for t in targets), name
        assert not targets & {"scripts.verdicts.rules", "scripts.verdicts.install", "scripts.verdicts.compute"}, name


def test_the_catalog_imports_no_other_layer(graph):
    catalog = {name: targets for name, targets in graph.items() if name.startswith("scripts.catalog")}
    assert len(catalog) >= 8
    for name, targets in catalog.items():
        assert all(t.startswith("scripts.catalog") for t in targets), (name, targets)


def test_modules_are_under_500_lines():
    assert size_problems(ROOT, "scripts") == []
    assert all((ROOT / rel).is_file() for rel in PENDING_SPLITS), "a pending split names a file that is gone"


def test_every_module_starts_with_its_docstring():
    hooks = sorted((ROOT / "overrides" / "hooks").glob("*.py"))
    assert len(hooks) > 10
    assert docstring_problems([*modules_of(ROOT, "scripts").values(), *hooks], ROOT) == []


def test_no_folder_holds_more_than_12_modules():
    assert folder_problems(ROOT, "scripts") == []
    assert all((ROOT / rel).is_dir() for rel in PENDING_FOLDERS)


# --- the checker, on packages written here -----------------------------------------------------------------------


def test_a_circle_through_a_function_level_import_is_found(tmp_path):
    root = _write(
        tmp_path,
        {
            **_package(tmp_path, "pkg", "pkg/sub"),
            "pkg/a.py": '"""A."""\nfrom pkg.sub import b\n',
            "pkg/sub/b.py": '"""B."""\n\n\ndef late():\n    from pkg import c\n\n    return c\n',
            "pkg/c.py": '"""C."""\nfrom . import a\n',  # relative: pkg.a
            "pkg/d.py": '"""D, outside the circle."""\nimport pkg.a\n',
        },
    )
    graph = import_graph(root, "pkg")
    assert graph["pkg.sub.b"] == {"pkg.c"} and graph["pkg.c"] == {"pkg.a"} and graph["pkg.d"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    (root / "pkg/c.py").write_text('"""C, no longer importing a."""\n', encoding="utf-8")
    assert cycles(import_graph(root, "pkg")) == []


def test_a_name_imported_from_a_module_counts_as_that_module(tmp_path):
    root = _write(
        tmp_path,
        {
            **_package(tmp_path, "pkg"),
            "pkg/a.py": '"""A."""\nfrom pkg.b import thing\nimport pkg.b.thing\n',
            "pkg/b.py": '"""B."""\nthing = 1\n',
        },
    )
    modules = modules_of(root, "pkg")
    assert imports_of(modules["pkg.a"], "pkg.a", modules) == {"pkg.b"}


def test_layer_violations_are_found(tmp_path):
    root = _write(
        tmp_path,
        {
            **_package(tmp_path, "scripts", "scripts/catalog", "scripts/registry", "scripts/views", "scripts/checks"),
            "scripts/catalog/model.py": '"""M."""\n\n\ndef f():\n    from scripts.views import page  # upward\n',
            "scripts/registry/wheels.py": '"""W."""\nfrom scripts.catalog.model import f\n',
            "scripts/views/page.py": '"""P."""\nfrom scripts.registry.wheels import x  # a view reading the registry\n',
            "scripts/checks/all.py": '"""Top: anything goes."""\nfrom scripts.views import page\nfrom scripts.registry import wheels\n',
        },
    )
    found = layer_violations(import_graph(root, "scripts"), LAYERS)
    assert len(found) == 2, found
    assert found[0].startswith("scripts.catalog.model imports scripts.views.page")
    assert found[1].startswith("scripts.views.page imports scripts.registry.wheels")


def test_long_modules_and_stale_exemptions_are_found(tmp_path):
    body = '"""Long."""\n' + "x = 1\n" * MAX_LINES
    root = _write(
        tmp_path,
        {**_package(tmp_path, "pkg"), "pkg/long.py": body, "pkg/short.py": '"""Short."""\n', "pkg/excused.py": body},
    )
    found = size_problems(root, "pkg", pending={"pkg/excused.py": "split under way", "pkg/short.py": "was long"})
    assert found == [
        f"pkg/long.py: {MAX_LINES + 1} lines (at most {MAX_LINES}): split it",
        "pkg/short.py: 1 lines now: remove it from PENDING_SPLITS",
    ]


def test_a_module_without_its_docstring_first_is_found(tmp_path):
    root = _write(
        tmp_path,
        {
            "pkg/good.py": '"""Says its job."""\nimport os\n',
            "pkg/comment.py": '# a comment first\n"""Docstring second."""\n',
            "pkg/none.py": "import os\n",
            "pkg/empty.py": '""""""\n',
        },
    )
    found = docstring_problems(sorted((root / "pkg").glob("*.py")), root)
    assert sorted(line.split(":")[0] for line in found) == ["pkg/comment.py", "pkg/empty.py", "pkg/none.py"]


def test_a_crowded_folder_is_found(tmp_path):
    files = {f"pkg/big/m{i}.py": f'"""M{i}."""\n' for i in range(13)}
    files.update({f"pkg/small/m{i}.py": f'"""M{i}."""\n' for i in range(12)})
    root = _write(tmp_path, {**_package(tmp_path, "pkg"), **files})
    assert folder_problems(root, "pkg", pending={}) == ["pkg/big/: 13 modules (at most 12)"]
    assert folder_problems(root, "pkg", pending={"pkg/big": "being split", "pkg/small": "was big"}) == [
        "pkg/small/: 12 modules now: remove it from PENDING_FOLDERS"
    ]


def test_the_longest_first_test_order_names_test_files_that_exist():
    """conftest.LONGEST_FIRST orders the test files for the two workers; a renamed file would silently lose its place."""
    from conftest import LONGEST_FIRST, ROOT

    assert [name for name in LONGEST_FIRST if not (ROOT / "tests" / name).is_file()] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
