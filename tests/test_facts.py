"""Facts a careful reader checks on the release pages, each pinned by name so that a wrong one cannot come back.

Each test reads the catalog (`load_catalog`) or the page text in both languages, and where the registry evidence
(docs/.pypi-evidence.json) decides a fact, the test computes it from the evidence instead of typing it. The code of
a change is run on the installed torch only where that is cheap (one small autograd example, in a subprocess).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from scripts.catalog.frontmatter import split_front_matter
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.snippets.extract import extract_page

DOCS = ROOT / "docs"
RELEASES = DOCS / "releases"
RELEASE_NOTES = "https://github.com/pytorch/pytorch/releases/tag/v{}.0"

# Packages of the PyTorch project: a command that installs one must say which release it means.
PYTORCH_LIBRARIES = {
    "torch",
    "torchvision",
    "torchaudio",
    "torchdata",
    "torchtext",
    "torchcomms",
    "torchrec",
    "torchao",
    "torchtune",
    "executorch",
}
PIP_INSTALL = re.compile(r"pip3?\s+install\s+(?P<args>[^`\n]*)")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
# The sentence after an unpinned command of another project that says why it is unpinned.
WHY_UNPINNED = re.compile(r"deliberately unpinned|no version on purpose|故意没有固定版本")


@pytest.fixture(scope="module")
def evidence() -> dict:
    return load_evidence(DOCS / EVIDENCE_FILE)


def page_text(version: str, lang: str) -> str:
    return (RELEASES / (f"{version}.md" if lang == "zh" else f"{version}.en.md")).read_text(encoding="utf-8")


def body(version: str, lang: str) -> str:
    split = split_front_matter(page_text(version, lang))
    assert split is not None
    return split[1]


def front_matter(version: str, lang: str) -> dict:
    split = split_front_matter(page_text(version, lang))
    assert split is not None
    return yaml.safe_load(split[0])


def section(version: str, lang: str, anchor: str) -> str:
    """The body of a page from the heading with `{ #anchor }` up to the next heading of the same or a higher level."""
    lines = body(version, lang).split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and f"{{ #{anchor} }}" in line)
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next(
        (
            i
            for i in range(start + 1, len(lines))
            if lines[i].startswith("#") and len(lines[i]) - len(lines[i].lstrip("#")) <= level
        ),
        len(lines),
    )
    return "\n".join(lines[start:end])


def minor_of(version: str) -> str:
    return ".".join(version.split(".")[:2])


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


# --- 1. the last release with Python 3.10 wheels ----------------------------------------------------------------


def test_the_last_release_with_python_3_10_wheels_is_computed_from_pypi_and_named_on_its_page(evidence):
    with_310 = [v for v, release in evidence["torch"].items() if "3.10" in release["python"]]
    last = minor_of(max(with_310, key=version_key))
    newer = [v for v in evidence["torch"] if version_key(v) > version_key(max(with_310, key=version_key))]
    assert last == "2.14" and newer, "PyPI's files no longer say that 2.14 was the last release with cp310 wheels"
    assert all("3.10" not in evidence["torch"][v]["python"] for v in newer)
    assert f"**{last} 是最后一个提供 Python 3.10 wheel 的版本。**" in body(last, "zh")
    assert f"**{last} is the last release with Python 3.10 wheels.**" in body(last, "en")
    for lang in ("zh", "en"):
        text = body(last, lang)
        assert "197242" in text
        assert "计划让 2.15 成为最后一个提供 Python 3.10" not in text
        assert "propose that 2.15 be the last" not in text


# --- 2. NVGEMM first shipped in 2.11 -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_nvgemm_is_dated_to_2_11_where_2_13_and_2_14_mention_it(lang):
    assert "NVGEMM" in section("2.11", lang, "nvgemm-notes")
    assert RELEASE_NOTES.format("2.11") in section("2.11", lang, "nvgemm-notes")
    for version in ("2.13", "2.14"):
        text = section(version, lang, "nvgemm")
        assert "2.11" in text, f"{version} ({lang}): the NVGEMM section must say it first shipped in 2.11"
    assert "NVGEMM" not in feature_names("2.13", lang)["nvgemm"], (
        "2.13's CuTeDSL backend is not NVGEMM (that one dates from 2.11)"
    )
    intro = body("2.14", lang).split("\n## ", 1)[0]
    assert "2.11" in intro and "NVGEMM" in intro
    assert (
        "CuTeDSL 代码路径成了 NVGEMM" not in intro and "CuTeDSL path that Inductor gained in 2.13 is now" not in intro
    )


def feature_names(version: str, lang: str) -> dict[str, str]:
    """Feature id -> name as the page writes it (the zh page lists mappings, the en page maps ids to words)."""
    data = front_matter(version, lang)["features"]
    if isinstance(data, list):
        return {f["id"]: f["name"] for f in data}
    return {key: value if isinstance(value, str) else value["name"] for key, value in data.items()}


# --- 3. the clamp change: code and text agree with the 2.14 notes -------------------------------------------------


def test_clamp_change_after_code_gives_gradient_0_at_a_scalar_bound_and_half_at_a_tensor_tie(catalog):
    change = next(c for c in catalog.by_version()["2.14"].changes if c.id == "clamp-grad-at-bounds")
    assert "torch.where(x >= 0" not in change.after, "that form keeps the 2.13 gradient; it is not the 2.14 one"
    probe = change.after + "\nprint('GRADS', x.grad.tolist(), value.grad.item(), bound.grad.item())\n"
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", probe], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("GRADS"))
    assert line == "GRADS [0.0, 0.0, 1.0] 0.5 0.5"
    for lang in ("zh", "en"):
        page = catalog.page("2.14", lang)
        text = next(c.text for c in page.changes if c.id == "clamp-grad-at-bounds")
        assert "torch.where(x >= bound, x, bound)" in text, f"{lang}: how to keep the old gradient"
        assert re.search(r"1 变为 0|gives 0 where it gave 1", text), f"{lang}: 1 -> 0 at the bound"


# --- 5. the CuTeDSL backend's two labels ----------------------------------------------------------------------------


def test_cutedsl_backend_keeps_the_posts_label_and_notes_the_prototype_of_the_github_notes(catalog):
    for lang in ("zh", "en"):
        feature = next(f for f in catalog.page("2.13", lang).features if f.id == "nvgemm")
        assert feature.maturity == "API-Unstable"
        assert feature.note and "Prototype" in feature.note and "GitHub" in feature.note, lang
        assert "Prototype" in section("2.13", lang, "nvgemm")
        assert RELEASE_NOTES.format("2.13") in section("2.13", lang, "nvgemm")


# --- 6. commands pin what they mean --------------------------------------------------------------------------------


def pip_commands(path: Path, docs: Path = DOCS) -> list[tuple[str, str, Path, int]]:
    """Every `pip install` of a page: (kind, arguments, page, line); kind is "code" (a line of a shell block) or
    "prose" (a code span in the text or the front matter)."""
    found = []
    page = extract_page(path, docs)
    code_lines: set[int] = set()
    for snippet in page.snippets:
        code_lines.update(range(snippet.fence_line, snippet.end_line + 1))
        if snippet.lang != "shell":
            continue
        for offset, line in enumerate(snippet.code.split("\n")):
            for match in PIP_INSTALL.finditer(line):
                found.append(("code", match["args"], path, snippet.line + offset))
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if number in code_lines:
            continue
        for span in INLINE_CODE.findall(line):
            for match in PIP_INSTALL.finditer(span):
                found.append(("prose", match["args"], path, number))
    return found


def requirements(args: str) -> list[str]:
    return [a.strip("\"'") for a in args.split() if not a.startswith("-") and "://" not in a]


def project_of(requirement: str) -> str:
    return re.split(r"[=<>!~\[;]", requirement, maxsplit=1)[0].lower()


def release_pages() -> list[Path]:
    return sorted(RELEASES.glob("*.md"))


def test_no_page_installs_a_pytorch_library_without_saying_which_release():
    unpinned = [
        f"{path.relative_to(ROOT)}:{line}: pip install {args}"
        for path in release_pages()
        for _, args, path, line in pip_commands(path)
        for req in requirements(args)
        if project_of(req) in PYTORCH_LIBRARIES and "==" not in req
    ]
    assert not unpinned, "unpinned PyTorch libraries (say which release: ==X.Y.Z or ==X.Y.*):\n" + "\n".join(unpinned)


def test_an_unpinned_command_of_another_project_says_why_in_the_next_paragraph():
    unexplained = []
    for path in release_pages():
        text = path.read_text(encoding="utf-8").split("\n")
        for kind, args, _, line in pip_commands(path):
            if kind != "code" or all("==" in r for r in requirements(args)):
                continue
            after = "\n".join(text[line : line + 12])
            if not WHY_UNPINNED.search(after):
                unexplained.append(f"{path.relative_to(ROOT)}:{line}: pip install {args}")
    assert not unexplained, "unpinned commands with no reason given:\n" + "\n".join(unexplained)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_commands_named_in_the_brief_are_pinned_or_explained(lang):
    assert "`pip install torch==1.11.0 torchdata==0.3.0`" in body("1.11", lang)
    assert "\npip install torch==2.11.0\n" in body("2.11", lang)
    torchcomms = section("2.12", lang, "torchcomms-plan")
    assert "pip install torchcomms" not in torchcomms
    assert "0.0.1" in torchcomms and "github.com/meta-pytorch/torchcomms" in torchcomms


def test_the_pinning_rule_catches_what_it_is_for(tmp_path):
    page = tmp_path / "docs" / "releases" / "9.9.en.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "---\ntitle: t\n---\n\nInstall it (`pip install torchdata`).\n\n```shell\npip install torch==9.9.0 tlparse\n```\n",
        encoding="utf-8",
    )
    found = pip_commands(page, tmp_path / "docs")
    assert [(kind, args) for kind, args, _, _ in found] == [("code", "torch==9.9.0 tlparse"), ("prose", "torchdata")]
    assert [project_of(r) for r in requirements("torch==9.9.0 tlparse")] == ["torch", "tlparse"]


# --- missing entries -----------------------------------------------------------------------------------------------

ADDED_CHANGES = {
    "2.14": {
        "new-group-backend-keyword": "bc-breaking",
        "split-group-non-member": "bc-breaking",
        "mps-macos-version-helper-renamed": "bc-breaking",
        "sac-saved-tensors-hooks-deprecated": "deprecation",
        "nccl-symmetric-late-segments": "bc-breaking",
    },
    "2.12": {
        "max-autotune-defer-layout-opt-in": "default-change",
        "fsdp2-compile-through-hooks": "deprecation",
        "profiler-metadata-json-deprecated": "deprecation",
        "cmake-below-3-10-deprecated": "deprecation",
        "python-3-13t-wheels-2-12-1": "dropped-platform",
    },
}


@pytest.mark.parametrize("version", sorted(ADDED_CHANGES))
def test_changes_from_the_release_notes_are_recorded_with_category_source_and_evidence(catalog, version):
    changes = {c.id: c for c in catalog.by_version()[version].changes}
    english = {c.id: c.text for c in catalog.page(version, "en").changes}
    for change_id, category in ADDED_CHANGES[version].items():
        change = changes.get(change_id)
        assert change is not None, f"{version}: no change {change_id}"
        assert change.category == category, change_id
        assert change.evidence == "official", change_id
        assert change.source.startswith("https://"), change_id
        assert english[change_id] and english[change_id] != change.text, f"{change_id}: English text"
    if version == "2.14":
        sac = changes["sac-saved-tensors-hooks-deprecated"]
        assert "respect_saved_tensors_hooks" not in sac.before
        assert sac.after.count("respect_saved_tensors_hooks=True") == 1


def test_2_12_1_without_cp313t_is_what_pypi_says(evidence, catalog):
    assert "3.13t" in evidence["torch"]["2.12.0"]["python"]
    assert "3.13t" not in evidence["torch"]["2.12.1"]["python"]
    change = next(c for c in catalog.by_version()["2.12"].changes if c.id == "python-3-13t-wheels-2-12-1")
    assert "2.12.1" in change.source and "3.13t" in change.text


# --- dates -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2.13", "2.14"])
def test_dates_of_2_13_and_2_14_are_official_and_match_the_first_pypi_upload(catalog, evidence, version):
    release = catalog.by_version()[version]
    assert release.facts.date_evidence == "official"
    assert release.date_iso == evidence["torch"][f"{version}.0"]["uploaded"]
    for lang in ("zh", "en"):
        assert "GitHub" in release.pages[lang].date_note and "PyPI" in release.pages[lang].date_note, lang


# --- 4. Chinese calques ----------------------------------------------------------------------------------------------

CALQUES = ["树外", "完整地实例化", "现代替代", "掉出快速路径", "垫片", "open 状态", "尾部融合"]


def test_the_calques_are_in_the_term_list_so_they_cannot_come_back():
    terms = yaml.safe_load((DOCS / ".terms.yml").read_text(encoding="utf-8"))["terms"]
    avoided = {variant for term in terms for variant in term["avoid"]}
    assert not [c for c in CALQUES if c not in avoided]
    epilogue = next(t for t in terms if t["en"] == "epilogue")
    assert "尾部融合" in epilogue["avoid"]
    for version in ("2.13", "2.14"):
        assert "epilogue 融合" in body(version, "zh")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_pytorch_hub_is_on_the_1_1_page_with_its_own_post_and_no_label(catalog, lang):
    """PyTorch Hub was announced in June 2019 by "Towards Reproducible Research with PyTorch Hub", not by the 1.1
    post; that post names no PyTorch version and no maturity label. The page says so, links it, and names the API
    the post shows (torch.hub.list/help/load), whose list() and help() came with 1.1."""
    name = "1.1.md" if lang == "zh" else "1.1.en.md"
    text = (RELEASES / name).read_text(encoding="utf-8").split("---", 2)[2]
    section = text[text.index("{ #pytorch-hub }") :]
    assert "https://pytorch.org/blog/towards-reproducible-research-with-pytorch-hub/" in section
    assert "2019" in section and ("6 月" in section if lang == "zh" else "June" in section)
    for api in ("torch.hub.list()", "torch.hub.help()", "torch.hub.load()", "hubconf.py"):
        assert api in section, api
    assert "https://github.com/pytorch/pytorch/pull/18758" in section
    release = catalog.by_version()["1.1"]
    assert all("hub" not in f.id for f in release.features), "not a feature of the 1.1 post: no label given"
