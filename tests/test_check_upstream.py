"""scripts/checks/upstream.py against recorded PyPI answers (tests/fixtures/upstream, trimmed from PyPI's real
simple index on 2026-11-26) and a local stand-in for PyPI: never the network. Also the two GitHub workflows and
the Makefile target that run it."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, ROOT

from scripts.checks.upstream import main

RECORDED = FIXTURES / "upstream"  # torch 2.14.0–2.15.0, torchvision 0.29.0–0.29.2, torchaudio 2.0.0 (yanked), 2.11.0
EVIDENCE_DAY = "2026-10-01"  # the fixture evidence: torch 2.14.x, torchvision 0.29.0/0.29.1, torchaudio 2.11.0


def _page_pair(docs: Path, version: str, date: str, patches: list[str], torchvision: dict[str, list[str]]) -> None:
    """A minimal valid release page pair; torchvision: library version -> torch patches it is paired with."""
    pairs = "".join(
        f'    - {{torch: {json.dumps(torch)}, version: "{lib}", sources: [PyPI], evidence: official}}\n'
        for lib, torch in torchvision.items()
    )
    compat = f"compat:\n  torchvision:\n{pairs}" if pairs else ""
    (docs / "releases").mkdir(parents=True, exist_ok=True)
    (docs / "releases" / f"{version}.md").write_text(
        f'---\nversion: "{version}"\ndate: {date}\ntitle: "PyTorch {version}：测试页"\nsummary: "测试"\n'
        f"source: https://pytorch.org/blog/\nfeatures: []\npatches: {json.dumps(patches)}\n{compat}---\n\n测试。\n",
        encoding="utf-8",
    )
    (docs / "releases" / f"{version}.en.md").write_text(
        f'---\ntitle: "PyTorch {version}: test"\nsummary: "Test"\n---\n\nTest.\n', encoding="utf-8"
    )


@pytest.fixture
def docs(tmp_path) -> Path:
    """A docs dir with the 2.14 page (0.29.0 paired with both patches) and the fixture evidence; no 2.15 page."""
    docs = tmp_path / "docs"
    _page_pair(docs, "2.14", "2026-09-02", ["2.14.0", "2.14.1"], {"0.29.0": ["2.14.0", "2.14.1"]})
    shutil.copy(RECORDED / "evidence.json", docs / ".pypi-evidence.json")
    return docs


@pytest.fixture
def answers(tmp_path) -> Path:
    """A copy of the recorded answers that a test may change."""
    return Path(shutil.copytree(RECORDED, tmp_path / "answers", ignore=shutil.ignore_patterns("evidence.json")))


def _edit(answers: Path, package: str, change) -> None:
    path = answers / f"{package}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["files"])
    path.write_text(json.dumps(data), encoding="utf-8")


def _check(capsys, docs: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--docs-dir", str(docs), "--posts", str(docs / "no-posts"), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _todo(out: str) -> list[str]:
    """The numbered lines under "Behind:"."""
    return [
        line.split(". ", 1)[1]
        for line in out.split("\n")
        if line.startswith("  ") and line.strip()[:1].isdigit() and ". " in line
    ]


def test_a_new_release_without_a_page(capsys, docs, answers):
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 1
    assert (
        "torch 2.15.0: 28 wheel(s) uploaded 2026-10-28 (new release); Python 3.11, 3.12, 3.13, 3.14, 3.14t, 3.15, 3.15t"
        in out
    )
    assert "torchvision 0.29.2: 4 wheel(s) uploaded 2026-10-28 (new release); Python py3; declares torch>=2.14.0" in out
    assert (
        "torchvision 0.29.1" not in out.split("New files")[1].split("\n\n")[0]
    )  # in the evidence already (uploaded 2026-09-30)
    todo = _todo(out)
    assert todo[0].startswith(
        "refetch the evidence: make check-upstream UPDATE=1"
    )  # first: a provisional page is written from it
    assert todo[1] == (
        "torch 2.15.0 is on PyPI but has no page: run `python -m scripts.new_release 2.15 --provisional` after the refetch "
        "(a provisional entry until its post is in shared/reference)"
    )
    assert len(todo) == 2  # torchaudio 2.0.0 (yanked years ago, and so recorded) is no news


def test_the_official_post_in_the_reference_is_named(capsys, docs, answers):
    posts = docs / "no-posts"
    posts.mkdir()
    (posts / "2.15.md").write_text("# PyTorch 2.15\n", encoding="utf-8")
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 1
    assert (
        f"torch 2.15.0 is on PyPI but has no page: its official post is in {posts / '2.15.md'}: run `python -m scripts.new_release 2.15` and fill the page in from it"
        in _todo(out)
    )


def test_newly_yanked_release_and_wheel(capsys, docs, answers):
    known = "torch-2.14.0-cp310-cp310-win_amd64.whl"
    evidence = json.loads((docs / ".pypi-evidence.json").read_text(encoding="utf-8"))
    evidence["torch"]["2.14.0"]["yanked_files"] = [known]  # yanked before the evidence was taken
    (docs / ".pypi-evidence.json").write_text(json.dumps(evidence), encoding="utf-8")

    def yank(files):
        for f in files:
            if f["filename"].startswith("torch-2.14.1-"):
                f["yanked"] = "Broken wheel metadata"
            if f["filename"] in (known, "torch-2.14.0-cp313-cp313-manylinux_2_28_x86_64.whl"):
                f["yanked"] = True

    _edit(answers, "torch", yank)
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 1
    section = out.split("Yanked or removed since:")[1].split("\n\n")[0]
    assert "torch 2.14.1: every wheel yanked (Broken wheel metadata)" in section
    assert (
        "torch 2.14.0: 1 wheel(s) yanked (no reason given): torch-2.14.0-cp313-cp313-manylinux_2_28_x86_64.whl\n"
        in section + "\n"
    )
    page = docs / "releases" / "2.14.md"
    assert (
        f"torch 2.14.1: every wheel yanked (Broken wheel metadata); {page} lists it: say so there (its install box must not offer it)"
        in _todo(out)
    )
    assert any(line.startswith("refetch the evidence") for line in _todo(out))


def test_a_yanked_library_release_that_a_page_pairs(capsys, docs, answers):
    _edit(
        answers,
        "torchvision",
        lambda files: [f.update(yanked="bad pin") for f in files if f["filename"].startswith("torchvision-0.29.0-")],
    )
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 1
    assert (
        f"torchvision 0.29.0: every wheel yanked (bad pin); {docs / 'releases' / '2.14.md'} pairs it with torch: review that pairing"
        in _todo(out)
    )


def test_a_pin_of_a_release_yanked_since_is_not_a_pairing_to_add(capsys, docs, answers):
    _page_pair(docs, "2.14", "2026-09-02", ["2.14.0", "2.14.1"], {})
    _edit(
        answers,
        "torchvision",
        lambda files: [f.update(yanked="bad pin") for f in files if f["filename"].startswith("torchvision-0.29.0-")],
    )
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert "torchvision 0.29.0: every wheel yanked (bad pin)" in out
    assert not any("declares torch==2.14.0" in line for line in _todo(out))


def test_a_new_python_tag_on_a_known_release(capsys, docs, answers):
    def add_cp316(files):
        wheel = next(f for f in files if f["filename"] == "torch-2.14.1-cp314-cp314-manylinux_2_28_x86_64.whl")
        # uploaded before the evidence day, so only its tag is news
        files.append({**wheel, "filename": "torch-2.14.1-cp316-cp316-manylinux_2_28_x86_64.whl"})

    _edit(answers, "torch", add_cp316)
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 1
    assert "New Python versions on releases the evidence has:\n  torch 2.14.1: 3.16\n" in out
    assert "torch 2.14.1:" not in out.split("New files")[1].split("\n\n")[0]
    assert any(
        line.startswith(
            f"torch 2.14.1 now has wheels for Python 3.16: add them after the refetch to {docs / 'releases' / '2.14.md'} compat python"
        )
        for line in _todo(out)
    )


def _add_torchvision_0_30(answers: Path) -> None:
    def add(files):
        wheel = next(f for f in files if f["filename"] == "torchvision-0.29.1-cp311-cp311-manylinux_2_28_x86_64.whl")
        files.append(
            {
                **wheel,
                "filename": "torchvision-0.30.0-cp311-cp311-manylinux_2_28_x86_64.whl",
                "upload-time": "2026-11-01T10:00:00Z",
            }
        )

    _edit(answers, "torchvision", add)
    metadata = "Metadata-Version: 2.1\nName: torchvision\nVersion: 0.30.0\nRequires-Dist: numpy\nRequires-Dist: torch (==2.15.0)\n"
    (answers / "metadata" / "torchvision-0.30.0-cp311-cp311-manylinux_2_28_x86_64.whl.metadata").write_text(
        metadata, encoding="utf-8"
    )


def test_the_pairing_a_new_library_release_declares(capsys, docs, answers):
    _add_torchvision_0_30(answers)
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 1
    assert (
        "torchvision 0.30.0: 1 wheel(s) uploaded 2026-11-01 (new release); Python 3.11; declares torch==2.15.0" in out
    )
    assert (
        f"torchvision 0.30.0 declares torch==2.15.0: add that pairing to {docs / 'releases' / '2.15.md'} compat (a provisional page gets it from the evidence)"
        in _todo(out)
    )

    _page_pair(docs, "2.15", "2026-10-28", ["2.15.0"], {})  # the page exists, the pairing does not yet
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert (
        f"torchvision 0.30.0 declares torch==2.15.0: add that pairing to {docs / 'releases' / '2.15.md'} compat"
        in _todo(out)
    )
    assert not any("has no page" in line for line in _todo(out))

    _page_pair(docs, "2.15", "2026-10-28", ["2.15.0"], {"0.30.0": ["2.15.0"]})
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert not any("declares torch==" in line for line in _todo(out))
    assert code == 1  # the evidence is still behind


def test_a_pin_from_the_evidence_paired_with_another_patch(capsys, docs, answers):
    _page_pair(docs, "2.14", "2026-09-02", ["2.14.0", "2.14.1"], {"0.29.0": ["2.14.1"]})  # 0.29.0 pins torch==2.14.0
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert (
        f"torchvision 0.29.0 declares torch==2.14.0: add that pairing to {docs / 'releases' / '2.14.md'} compat"
        in _todo(out)
    )


def test_files_of_the_checked_day_are_new_only_for_releases_the_evidence_lacks(capsys, docs, answers):
    evidence = json.loads((docs / ".pypi-evidence.json").read_text(encoding="utf-8"))
    evidence["checked"] = "2026-09-30"  # the day torch 2.14.1 and torchvision 0.29.1 were uploaded
    del evidence["torchvision"]["0.29.1"]
    (docs / ".pypi-evidence.json").write_text(json.dumps(evidence), encoding="utf-8")
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    new = out.split("New files (uploaded after 2026-09-30, or of a release the evidence lacks):")[1].split("\n\n")[0]
    assert "torchvision 0.29.1: 24 wheel(s) uploaded 2026-09-30 (new release)" in new
    assert "torch 2.14.1" not in new


def test_a_patch_release_the_page_does_not_list(capsys, docs, answers):
    def add_patch(files):
        wheel = next(f for f in files if f["filename"] == "torch-2.14.1-cp314-cp314-manylinux_2_28_x86_64.whl")
        files.append(
            {
                **wheel,
                "filename": "torch-2.14.2-cp314-cp314-manylinux_2_28_x86_64.whl",
                "upload-time": "2026-11-20T10:00:00Z",
            }
        )

    _edit(answers, "torch", add_patch)
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert (
        f'torch 2.14.2 is on PyPI but {docs / "releases" / "2.14.md"} does not list it: add "2.14.2" to its patches (and its pairings)'
        in _todo(out)
    )


@pytest.mark.parametrize(
    "package, text, message",
    [
        ("torch", '{"files": [\n{"filename": ', "torch.json:2: not JSON"),
        ("torchvision", '{"meta": {}}', "torchvision.json:1: not a simple index answer"),
        ("torchaudio", '{"files": [{"url": "x"}]}', "files[0]: an entry without a file name"),
        (
            "torch",
            '{"files": [{"filename": "torch-2.16.0-cp311-cp311-win_amd64.whl", "yanked": false}]}',
            "no upload-time",
        ),
    ],
)
def test_a_malformed_answer_exits_2(capsys, docs, answers, package, text, message):
    (answers / f"{package}.json").write_text(text, encoding="utf-8")
    code, out, err = _check(capsys, docs, "--recorded", str(answers))
    assert code == 2
    assert message in err
    assert "Behind" not in out and "Up to date" not in out


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", ".pypi-evidence.json:1: not JSON"),
        ('{"checked": "soon"}', 'no "checked" day'),
        ('{"checked": "2026-10-01", "torch": []}', '"torch" is not a map'),
    ],
)
def test_a_malformed_evidence_file_exits_2(capsys, docs, answers, text, message):
    (docs / ".pypi-evidence.json").write_text(text, encoding="utf-8")
    code, _, err = _check(capsys, docs, "--recorded", str(answers))
    assert code == 2
    assert message in err


def test_missing_metadata_of_a_new_library_release_exits_2(capsys, docs, answers):
    (answers / "metadata" / "torchvision-0.29.2-py3-none-manylinux_2_28_x86_64.whl.metadata").unlink()
    code, _, err = _check(capsys, docs, "--recorded", str(answers))
    assert code == 2
    assert "torchvision torchvision-0.29.2-py3-none-manylinux_2_28_x86_64.whl: cannot read its Requires-Dist" in err


# --- a local stand-in for PyPI: the recorded answers served over HTTP, each wheel a small zip with its METADATA ---


def _wheel(metadata: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as wheel:
        wheel.writestr("pkg/__init__.py", "")
        wheel.writestr("pkg-0.dist-info/METADATA", metadata)
    return buffer.getvalue()


@pytest.fixture
def fake_pypi(tmp_path):
    from browser import serve_directory

    root = tmp_path / "pypi"
    root.mkdir()
    recorded = {p.name[: -len(".metadata")]: p.read_text(encoding="utf-8") for p in (RECORDED / "metadata").iterdir()}
    with serve_directory(root) as base:
        for package in ("torch", "torchvision", "torchaudio"):
            files = json.loads((RECORDED / f"{package}.json").read_text(encoding="utf-8"))["files"]
            by_release = {name.split("-")[1]: text for name, text in recorded.items() if name.startswith(f"{package}-")}
            for f in files:
                data = _wheel(by_release.get(f["filename"].split("-")[1], f"Name: {package}\n"))
                (root / f["filename"]).write_bytes(data)
                f.update(url=base + f["filename"], size=len(data))
            (root / "simple" / package).mkdir(parents=True)
            (root / "simple" / package / "index.html").write_text(json.dumps({"files": files}), encoding="utf-8")
        yield base.rstrip("/")


def test_update_writes_the_evidence_with_the_given_date(capsys, docs, fake_pypi):
    code, out, _ = _check(capsys, docs, "--registry", fake_pypi, "--update", "--date", "2026-12-01")
    assert code == 1  # the evidence is now current, but 2.15 still has no page
    report, _, written = out.partition("\nwrote ")
    assert "torch 2.15.0 is on PyPI but has no page" in report
    assert written.startswith(f"{docs / '.pypi-evidence.json'} (checked 2026-12-01)")
    evidence = json.loads((docs / ".pypi-evidence.json").read_text(encoding="utf-8"))
    assert evidence["checked"] == "2026-12-01"
    assert evidence["torch"]["2.15.0"]["python"] == ["3.11", "3.12", "3.13", "3.14", "3.14t", "3.15", "3.15t"]
    assert evidence["torchvision"]["0.29.0"]["requires_torch"] == "2.14.0"
    assert evidence["torchvision"]["0.29.2"]["requires_torch_at_least"] == "2.14.0"

    _page_pair(docs, "2.15", "2026-10-28", ["2.15.0"], {})
    code, out, _ = _check(capsys, docs, "--recorded", str(RECORDED))
    assert code == 0, out
    assert "Up to date" in out and "Behind" not in out


def test_the_way_from_a_new_release_to_a_provisional_page_and_on(capsys, docs, answers, fake_pypi):
    """Refetch, write the provisional page the check asks for: up to date. Then a new pin, then the post."""
    from scripts.tools.new_release import main as new_release

    assert _check(capsys, docs, "--registry", fake_pypi, "--update", "--date", "2026-11-23")[0] == 1
    assert new_release(["2.15", "--provisional", "--docs-dir", str(docs)]) == 0
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 0, out

    _add_torchvision_0_30(
        answers
    )  # torchvision 0.30.0 pins torch==2.15.0: the provisional page is rewritten, not edited
    code, out, _ = _check(capsys, docs, "--recorded", str(answers))
    assert code == 1
    assert (
        "torchvision 0.30.0 declares torch==2.15.0: rerun `python -m scripts.new_release 2.15 --provisional` after the refetch"
        in _todo(out)
    )

    post = docs / "no-posts" / "2.15.md"
    post.parent.mkdir()
    post.write_text("# PyTorch 2.15\n", encoding="utf-8")
    code, out, _ = _check(capsys, docs, "--recorded", str(RECORDED))
    assert code == 1
    assert _todo(out) == [
        f"{docs / 'releases' / '2.15.md'} is provisional, and its official post is in {post} now: run `python -m scripts.new_release 2.15` "
        "(a full scaffold that keeps the registry facts) and fill it in from the post"
    ]


def test_an_unreachable_registry_exits_2(capsys, docs, tmp_path):
    from browser import serve_directory

    (tmp_path / "empty").mkdir()
    with serve_directory(tmp_path / "empty") as base:  # every URL answers 404
        code, _, err = _check(capsys, docs, "--registry", base.rstrip("/"))
    assert code == 2
    assert "/simple/torch/: HTTP Error 404" in err


def test_update_cannot_read_recorded_answers(capsys, docs):
    with pytest.raises(SystemExit) as exit_:
        main(["--docs-dir", str(docs), "--recorded", str(RECORDED), "--update"])
    assert exit_.value.code == 2


# --- the workflows and the Makefile target ---------------------------------------------------------------------


def _workflow(name: str) -> dict:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads the key `on` as true
    return workflow


def _runs(workflow: dict) -> list[str]:
    return [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]


def test_upstream_workflow_runs_the_check_weekly_and_files_an_issue():
    workflow = _workflow("upstream.yml")
    assert set(workflow["on"]) == {"schedule", "workflow_dispatch"}
    minute, hour, day, month, weekday = workflow["on"]["schedule"][0]["cron"].split()
    assert (day, month) == ("*", "*") and weekday.isdigit()  # once a week
    assert workflow["permissions"] == {}  # nothing at workflow level: each job names what it needs
    (job,) = workflow["jobs"].values()
    assert job["permissions"] == {"contents": "read", "issues": "write"}
    runs = _runs(workflow)
    assert any("make check-upstream" in run for run in runs)
    assert not any("UPDATE=1" in run for run in runs)  # CI reports; a maintainer rewrites the evidence
    issue_step = next(
        step for job in workflow["jobs"].values() for step in job["steps"] if "gh issue" in step.get("run", "")
    )
    assert "failure()" in issue_step["if"]
    assert "Upstream: new PyTorch files on PyPI" in json.dumps(issue_step)


def test_test_workflow_runs_make_test_on_pull_requests():
    workflow = _workflow("test.yml")
    assert "pull_request" in workflow["on"]
    assert workflow["on"]["push"]["branches"] == ["main"]
    job = next(iter(workflow["jobs"].values()))
    python = next(
        step["with"]["python-version"]
        for step in job["steps"]
        if step.get("uses", "").startswith("actions/setup-python")
    )
    assert python == "3.11"
    assert any(run.strip().endswith("make test") for run in _runs(workflow))
    assert "download.pytorch.org/whl/cpu" in json.dumps(workflow)


@pytest.mark.parametrize("extra, flag", [([], False), (["UPDATE=1"], True)])
def test_make_check_upstream_target(extra, flag):
    result = subprocess.run(
        ["make", "-n", "check-upstream", *extra], cwd=ROOT, capture_output=True, text=True, check=True
    )
    command = next(line for line in result.stdout.splitlines() if "scripts.checks.upstream" in line)
    assert command.rstrip().endswith("--update") is flag


def test_every_workflow_pins_its_actions_and_grants_permissions_per_job():
    """What zizmor (make lint) also holds: actions at a full commit SHA, no permissions at workflow level, checkouts
    that keep no credentials; read from the files, so a workflow added later is held to it too."""
    names = sorted(p.name for p in (ROOT / ".github" / "workflows").glob("*.yml"))
    assert names
    for name in names:
        workflow = _workflow(name)
        assert workflow.get("permissions") == {}, name
        for job_name, job in workflow["jobs"].items():
            assert "permissions" in job, (name, job_name)
            for step in job.get("steps", []):
                uses = step.get("uses")
                if uses:
                    assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", uses), (name, uses)
                if uses and uses.startswith("actions/checkout@"):
                    assert step.get("with", {}).get("persist-credentials") is False, name
