"""Bad input through the real command line: each gives the right `path:line` message and a non-zero exit.

The fixture site (tests/fixtures/snippets/site) is a zh/en release pair that passes; each case copies it
and breaks one thing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "tests" / "fixtures" / "snippets" / "site"
CPP_SITE = ROOT / "tests" / "fixtures" / "snippets" / "cpp"
SUMMARY_RE = re.compile(r"^(\d+) passed, (\d+) failed(, (\d+) skipped)?$")

HAS_TORCH = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        [sys.executable, "-m", "scripts.snippets", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def summary(stdout: str) -> tuple[int, int, int]:
    last = stdout.strip().split("\n")[-1]
    match = SUMMARY_RE.match(last)
    assert match, f"last line is not 'N passed, N failed': {last!r}"
    return int(match.group(1)), int(match.group(2)), int(match.group(4) or 0)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the fixture site at tmp_path/docs; the CLI runs in tmp_path so paths read docs/..."""
    shutil.copytree(SITE, tmp_path / "docs")
    return tmp_path


def edit(root: Path, name: str, old: str, new: str) -> tuple[str, int]:
    """Replace `old` (once) in docs/releases/<name>; returns the page path and the line where it was."""
    path = root / "docs" / "releases" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return f"docs/releases/{name}", line


def test_help():
    result = cli("--help", cwd=ROOT)
    assert result.returncode == 0 and "extract" in result.stdout and "check" in result.stdout
    result = cli("check", "--help", cwd=ROOT)
    assert result.returncode == 0 and "--no-run" in result.stdout and "--check-status" in result.stdout


@pytest.mark.skipif(not HAS_TORCH, reason="running snippets needs torch")
def test_good_site_passes_and_writes_a_reproducible_status_file(site):
    result = cli("check", "--no-cpp", "--jobs", "1", "--status-file", "docs/.snippet-status.json", cwd=site)
    assert result.returncode == 0, result.stdout + result.stderr
    assert summary(result.stdout) == (6, 0, 2)
    assert "docs/releases/9.9.md:36: python: needs CUDA" in result.stdout
    # The en page's group is the zh page's code but for its comments: not byte-identical, so each page runs its
    # own (a comment can change what runs), both in the one sandbox of the one job's thread.
    assert "for 2 unit(s) in 1 sandbox(es)" in result.stdout, result.stdout
    assert "0 block(s) judged on the run of the same code on another page" in result.stdout
    status_file = site / "docs" / ".snippet-status.json"
    status = json.loads(status_file.read_text(encoding="utf-8"))
    entry = status["snippets"]["releases/9.9.en#02"]
    assert entry["status"] == "output-matched" and entry["page"] == "releases/9.9.en.md" and entry["torch"]
    assert status["snippets"]["releases/9.9#04"]["reason"] == "needs CUDA"
    first = status_file.read_text(encoding="utf-8")
    again = cli("check", "--no-cpp", "--status-file", "docs/.snippet-status.json", cwd=site)
    assert "(unchanged)" in again.stdout and status_file.read_text(encoding="utf-8") == first
    # --check-status: up to date now, stale after a code edit
    assert cli("check", "--check-status", cwd=site).returncode == 0
    edit(site, "9.9.en.md", "x = torch.ones(1, 3)", "x = torch.ones(1, 3) * 2")
    stale = cli("check", "--check-status", cwd=site)
    assert stale.returncode == 1
    assert "docs/releases/9.9.en.md:11:1: error: this code block (releases/9.9.en#01) changed" in stale.stdout


@pytest.mark.parametrize(
    ("name", "old", "new", "needle"),
    [
        ("9.9.md", "```text\n这是一段输出示例\n```\n", "```text\n这是一段输出示例\n", "opened here is never closed"),
        ("9.9.md", "```text\n", "```\n", "no language tag"),
        ("9.9.md", "x = torch.ones(1, 3)", "x = torch.ones(1, 3", "SyntaxError"),
        ("9.9.md", ">>> torch.tensor([0.1, 0.2]) * 3", ">>> torch.tensor([0.1, 0.2] * 3", "SyntaxError"),
        (
            "9.9.md",
            "    pip install torch==2.13.0 numpy",
            "    if pip install torch==2.13.0 numpy",
            "bash: syntax error",
        ),
        (
            "9.9.en.md",
            "layer = nn.Linear(3, 2)",
            "layer = nn.Linear(3, 4)",
            "code differs from docs/releases/9.9.md:16",
        ),
        ("9.9.md", "# 固定随机种子, 便于复现", "# 固定随机种子，便于复现", "full-width punctuation '，'"),
    ],
    ids=[
        "unclosed-fence",
        "untagged-fence",
        "python-syntax",
        "pycon-syntax",
        "shell-syntax",
        "zh-en-drift",
        "full-width-comma",
    ],
)
def test_bad_input_without_torch(site, name, old, new, needle):
    page, line = edit(site, name, old, new)
    result = cli("check", "--no-run", "--no-cpp", cwd=site)
    assert result.returncode == 1, result.stdout
    messages = [m for m in result.stdout.split("\n") if needle in m]
    assert messages, result.stdout
    assert messages[0].startswith(f"{page}:{line}:"), (messages[0], line)
    assert summary(result.stdout)[1] >= 1


def test_cpp_syntax_error_through_cli(site):
    pytest.importorskip("tree_sitter_cpp")
    for name in ("9.9.md", "9.9.en.md"):
        path = site / "docs" / "releases" / name
        path.write_text(
            path.read_text(encoding="utf-8")
            + "\n```cpp\n#include <torch/torch.h>\nint main() {\n  auto t = torch::ones({2})\n}\n```\n",
            encoding="utf-8",
        )
    result = cli("check", "--no-run", "--no-cpp", cwd=site)
    assert result.returncode == 1
    lines = (site / "docs" / "releases" / "9.9.md").read_text(encoding="utf-8").split("\n")
    line = lines.index("  auto t = torch::ones({2})") + 1
    assert f"docs/releases/9.9.md:{line}:" in result.stdout and "tree-sitter" in result.stdout


@pytest.mark.skipif(not HAS_TORCH, reason="running snippets needs torch")
def test_bad_input_with_torch(site):
    """Wrong pycon output and an unknown torch name (one run for both, to pay torch's import once)."""
    lines = {}
    for name in ("9.9.md", "9.9.en.md"):
        lines[name, "output"] = edit(site, name, "tensor([0.3, 0.6])", "tensor([0.3, 0.7])")[1] - 1  # the >>> line
        lines[name, "name"] = edit(site, name, 'y = torch.ones(2, device="cuda")', 'y = torch.oness(2, device="cuda")')[
            1
        ]
    result = cli("check", "--no-cpp", cwd=site)
    assert result.returncode == 1
    out = result.stdout
    for name in ("9.9.md", "9.9.en.md"):
        assert f"docs/releases/{name}:{lines[name, 'output']}:1: error: output differs from the page" in out, out
        assert f"docs/releases/{name}:{lines[name, 'name']}:5: error: unknown name 'torch.oness'" in out, out
    assert "did you mean 'torch.ones'" in out
    passed, failed, skipped = summary(out)
    assert failed == 4 and skipped == 0  # the requires=cuda blocks fail the names check
    assert "status file: not written" in out  # --no-cpp is a partial check


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None or not HAS_TORCH, reason="needs g++ and the torch wheel's headers")
def test_gxx_tier_one_translation_unit(tmp_path):
    """One TU per page: a good program, a good fragment with a deprecated call, and an unknown function. The
    zh and en pages hold the same blocks at different lines: g++ checks their unit once, and each page gets
    the verdicts at its own lines (that a comment alone makes two units: test_snippets_share.py). Nothing is
    kept for a later run."""
    shutil.copytree(CPP_SITE, tmp_path / "docs")
    result = cli("check", "--no-run", "--status-file", "docs/.snippet-status.json", cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    for name in ("9.9.md", "9.9.en.md"):
        text = (tmp_path / "docs" / "releases" / name).read_text(encoding="utf-8").split("\n")
        bad_line = next(i for i, line in enumerate(text, start=1) if "no_such_function" in line)
        col = text[bad_line - 1].index("no_such_function") + 1
        assert re.search(
            rf"^docs/releases/{re.escape(name)}:{bad_line}:{col}: error: g\+\+: .*no_such_function", out, re.M
        ), out
    assert summary(out) == (4, 2, 0)
    assert "(1 compiled, 1 same code as another page)" in out
    status = json.loads((tmp_path / "docs" / ".snippet-status.json").read_text(encoding="utf-8"))["snippets"]
    for page in ("releases/9.9", "releases/9.9.en"):
        assert status[f"{page}#01"]["status"] == "compiled"
        assert "deprecated" in (status[f"{page}#02"]["deprecation"] or "")
        assert status[f"{page}#03"]["status"] == "failed"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs"], "the check wrote into the checkout"
