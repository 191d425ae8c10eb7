"""Each language checker with one passing and one failing sample; output comparison; parity; names; runs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.snippets.extract import scan  # noqa: E402
from scripts.snippets.model import Page  # noqa: E402
from scripts.snippets.parity import full_width_problems, parity_problems, strip_comments  # noqa: E402
from scripts.snippets.parse import check_syntax, shell_script  # noqa: E402
from scripts.snippets.running.outputcheck import output_matches  # noqa: E402


def one(block: str, *, directive: str = "", page: str = "docs/releases/9.9.md"):
    """The single snippet of a tiny page (fence on line 2 when there is a directive, else line 1)."""
    text = (directive + "\n" if directive else "") + block
    snippets, problems = scan(text, page=page, src_uri="releases/9.9.md", page_lang="zh", release="9.9")
    assert problems == [], [str(p) for p in problems]
    assert len(snippets) == 1
    return snippets[0]


# --- syntax tier: one passing and one failing sample per language ----------------------------------


@pytest.mark.parametrize(
    ("good", "bad", "line", "needle"),
    [
        (
            "```python\nimport torch\nx = torch.ones(2)\n```\n",
            "```python\nimport torch\nx = torch.ones(2\n```\n",
            3,
            "SyntaxError",
        ),
        ("```pycon\n>>> x = 1\n>>> x + 1\n2\n```\n", "```pycon\n>>> x = 1\n>>> x +\n2\n```\n", 3, "SyntaxError"),
        (
            "```cpp\n#include <torch/torch.h>\nint main() { auto t = torch::ones({2}); }\n```\n",
            "```cpp\n#include <torch/torch.h>\nint main() {\n  auto t = torch::ones({2})\n}\n```\n",
            4,
            "tree-sitter",
        ),
        (
            "```shell\n$ pip install numpy\nSuccessfully installed\n```\n",
            "```shell\nif [ -f x ]; then\n  echo hi\n```\n",
            3,
            "bash:",
        ),
    ],
    ids=["python", "pycon", "cpp", "shell"],
)
def test_syntax_checker_pass_and_fail(good, bad, line, needle):
    if "cpp" in good:
        pytest.importorskip("tree_sitter_cpp")
    assert check_syntax(one(good)) == []
    problems = check_syntax(one(bad))
    assert problems, bad
    assert problems[0].path == "docs/releases/9.9.md"
    assert problems[0].line == line, [str(p) for p in problems]
    assert needle in problems[0].message


def test_cpp_fragment_is_wrapped_and_hinted():
    pytest.importorskip("tree_sitter_cpp")
    fragment = "```cpp\nauto t = torch::ones({2});\nstd::cout << t << std::endl;\n```\n"
    assert check_syntax(one(fragment, directive="<!-- snippet: fragment -->")) == []
    (problem,) = check_syntax(one(fragment))
    assert "add <!-- snippet: fragment -->" in problem.message


def test_cpp_parses_template_calls():
    pytest.importorskip("tree_sitter_cpp")
    code = "```cpp\n#include <torch/torch.h>\nfloat f(torch::Tensor t) { return t.item<float>() + t.accessor<float, 2>()[0][0]; }\n```\n"
    assert check_syntax(one(code)) == []


def test_pycon_column_points_into_the_page():
    (problem,) = check_syntax(one("!!! note\n\n    ```pycon\n    >>> x = (1,\n    ```\n"))
    assert problem.line == 4
    assert problem.col > 8  # after the admonition's indentation and the prompt


def test_shell_prompts_and_output_are_separated():
    script, origin = shell_script("$ pip install \\\n    numpy\nSuccessfully installed numpy\n$ echo ok\nok")
    assert script == "pip install \\\n    numpy\necho ok\n"
    assert origin == [1, 2, 4]


# --- pycon output comparison ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("want", "got", "ok"),
    [
        ("tensor([0.3, 0.6])", "tensor([0.3000, 0.6000])", True),
        ("tensor([0.3000, 0.6000])", "tensor([0.3100, 0.6000])", False),
        ("tensor([0.2999, 0.6000])", "tensor([0.3000, 0.6000])", True),
        ("tensor([0.3, 0.7])", "tensor([0.3000, 0.6000])", False),
        ("tensor([0.33])", "tensor([0.3333])", True),
        ("tensor([[1., 2.],\n        [3., 4.]])", "tensor([[1.0000, 2.0000],\n        [3.0000, 4.0000]])", True),
        ("tensor([1, 2])", "tensor([1, 3])", False),
        ("tensor([1., 2.], dtype=torch.float16)", "tensor([1., 2.], dtype=torch.float64)", False),
        ("Linear(...)", "Linear(in_features=2, out_features=3, bias=True)", True),
        ("<object at 0x7f00aa>", "<object at 0x55d1>", True),
        ("torch.Size([2, 3])", "torch.Size([2, 4])", False),
        ("0.3", "0.30000001192092896", False),  # tolerance only inside tensors
        ("True  \n", "True", True),
    ],
)
def test_output_comparison(want, got, ok):
    assert output_matches(want, got) is ok


@pytest.mark.parametrize(
    ("want", "got", "ok"),
    [
        ("a...b...c", "aXbYc", True),
        ("a...b...c", "aXcYb", False),
        ("ab...ba", "aba", False),  # the pieces may not overlap
        ("ab...ba", "abba", True),
        ("...", "anything", True),
        ("tensor([0, 1, ..., 9])", "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])", True),
        ("tensor([0.5, ..., 0.25])", "tensor([0.5000, 0.1000, 0.2500])", True),  # tolerance on both sides of '...'
        ("tensor([0.5, ..., 0.25])", "tensor([0.5000, 0.1000, 0.3500])", False),
        ("<A at 0x...>", "<A at 0x7f3a>", True),
        ("tensor([1" + "9" * 5000 + "])", "tensor([2])", False),  # more digits than int() reads: compared as text
    ],
)
def test_output_wildcards_as_doctest_places_them(want, got, ok):
    assert output_matches(want, got) is ok


def test_output_matching_takes_linear_time_and_has_a_step_limit():
    """Eight `...` against 5,000 characters: a backtracking regex never finished (run in a subprocess, so a hang
    fails this test instead of the suite). Input that would take too many steps raises TooCostly."""
    probe = (
        "from scripts.snippets.running.outputcheck import output_matches; "
        "print(output_matches('a...' * 8 + 'b', 'a' * 5000), output_matches('a...' * 8 + 'b', 'a' * 5000 + 'b'))"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.split() == ["False", "True"], result.stderr
    from scripts.snippets.running.outputcheck import MAX_STEPS, TooCostly

    # A piece that starts with flexible space has no text to look for: every position is tried, three steps each.
    got = "tensor([1, " + "3, " * (MAX_STEPS // 6) + "1, 2])"
    with pytest.raises(TooCostly):
        output_matches("tensor([1, ... 1, ...2])", got)


# --- parity and full-width punctuation -------------------------------------------------------------


def _page(text: str, lang: str) -> Page:
    name = "9.9.md" if lang == "zh" else "9.9.en.md"
    snippets, problems = scan(text, page=f"docs/releases/{name}", src_uri=f"releases/{name}", page_lang=lang)
    assert problems == []
    return Page(
        path=Path(name),
        shown=f"docs/releases/{name}",
        src_uri=f"releases/{name}",
        lang=lang,
        release="9.9",
        snippets=snippets,
    )


def test_parity_ignores_translated_comments():
    zh = _page("```python\nx = 1  # 设置 x\n# 打印\nprint(x)\n```\n\n```cpp\nint a; // 中文注释\n```\n", "zh")
    en = _page("```python\nx = 1  # set x\nprint(x)  # print it\n```\n\n```cpp\nint a; /* comment */\n```\n", "en")
    assert parity_problems(zh, en) == []


def test_parity_reports_drift_at_both_locations():
    zh = _page("```python\nx = 1\nprint(x)\n```\n", "zh")
    en = _page("```python\nx = 1\nprint(x + 1)\n```\n", "en")
    (problem,) = parity_problems(zh, en)
    assert problem.path == "docs/releases/9.9.en.md" and problem.line == 3
    assert "docs/releases/9.9.md:3" in problem.message


def test_parity_reports_missing_block_and_directive_drift():
    zh = _page("```python\nx = 1\n```\n\n```shell\nls\n```\n", "zh")
    en = _page("```python\nx = 1\n```\n", "en")
    (problem,) = parity_problems(zh, en)
    assert "has 1 code block(s) but docs/releases/9.9.md has 2" in problem.message
    zh = _page("<!-- snippet: requires=cuda -->\n```python\nx = 1\n```\n", "zh")
    en = _page("```python\nx = 1\n```\n", "en")
    (problem,) = parity_problems(zh, en)
    assert "directives" in problem.message


def test_strip_comments_keeps_strings():
    assert strip_comments("python", "s = '# not a comment'  # comment") == ["s = '# not a comment'  "]
    assert strip_comments("shell", "echo '#x' # c") == ["echo '#x' "]
    assert strip_comments("cpp", 'auto s = "// x"; // c') == ['auto s = "// x"; ']


def test_full_width_punctuation_in_code():
    assert full_width_problems(one("```python\nx = (1, 2)  # 元组, ASCII 标点\n```\n")) == []
    (problem,) = full_width_problems(one("```python\nx = (1， 2)\n```\n"))
    assert (problem.line, problem.col) == (2, 7)
    assert "'，'" in problem.message and "ASCII ','" in problem.message
    (problem,) = full_width_problems(one("```cpp\nint a;  // 注释（中文）\n```\n"))
    assert "'（', '）'" in problem.message


# --- names exist (needs torch) --------------------------------------------------------------------


@pytest.fixture(scope="module")
def sandbox_slot():
    """One sandbox for this module's name checks: names are resolved there, never in the test's process."""
    pytest.importorskip("torch")
    from scripts.snippets.running.run import Slot

    slot = Slot()
    yield slot
    slot.close()


@pytest.fixture
def names_problems(sandbox_slot):
    """`names.names_problems` with the names resolved in the sandbox."""
    from scripts.snippets import names
    from scripts.snippets.running.run import resolve_names

    def check(snippets):
        resolved = resolve_names(sandbox_slot, names.wanted_names(snippets))
        return names.names_problems(snippets, resolved, "2.x")

    return check


def test_names_follow_aliases_and_suggest(names_problems):
    from scripts.snippets.names import collect_names

    snippet = one(
        "```python\nimport torch.nn as nn\nfrom torch import fft\nfrom torch.nn import functional as F\nnn.Linear(2, 2)\nfft.rfft\nF.relu\ntorch.backends.cudnn.benchmark = True\n```\n"
    )
    names = [u.name for u in collect_names(snippet)]
    assert names == [
        "torch.nn",
        "torch.fft",
        "torch.nn.functional",
        "torch.nn.Linear",
        "torch.fft.rfft",
        "torch.nn.functional.relu",
        "torch.backends.cudnn",
    ]
    assert names_problems([snippet])[0] == []

    bad = one("```python\nimport torch.nn as nn\nlayer = nn.Linearr(2, 2)\n```\n")
    (problem,) = names_problems([bad])[0]
    assert (problem.line, problem.col) == (3, 9)
    assert "torch.nn.Linearr" in problem.message and "did you mean 'torch.nn.Linear'" in problem.message


def test_names_removed_declaration(names_problems):
    declared = one(
        "```python\nimport torch\ntorch.no_such_thing()\n```\n",
        directive='<!-- snippet: removed="torch.no_such_thing@2.5" -->',
    )
    problems, removed = names_problems([declared])
    assert problems == [] and removed == {declared.id: ["torch.no_such_thing"]}
    wrong = one("```python\nimport torch\ntorch.ones(1)\n```\n", directive='<!-- snippet: removed="torch.ones@2.5" -->')
    (problem,) = names_problems([wrong])[0]
    assert "declared removed in 2.5 but exists" in problem.message


def test_names_in_pycon_and_groups_share_aliases(names_problems):
    text = (
        "<!-- snippet: group=g -->\n```python\nimport torch.nn.functional as F\n```\n\n"
        "<!-- snippet: group=g -->\n```pycon\n>>> F.gelu_nope\n```\n"
    )
    snippets, _ = scan(text, page="docs/releases/9.9.md", src_uri="releases/9.9.md", page_lang="zh")
    (problem,) = names_problems(snippets)[0]
    assert problem.line == 8 and "torch.nn.functional.gelu_nope" in problem.message


# --- running on torch (units forked in a sandbox) ----------------------------------------------------------


def test_run_page_python_pycon_groups_and_deprecations():
    pytest.importorskip("torch")
    from scripts.snippets.running.run import run_page

    text = (
        "<!-- snippet: group=g -->\n```python\nimport torch\nx = torch.arange(3.0)\nprint('ignored output')\n```\n\n"  # 1-6
        # Naming torch.compile has the sandbox prepare the compiler, before the group's runner is forked (x stays).
        "<!-- snippet: group=g -->\n```pycon\n>>> x * 0.1  # as torch.compile(f)(x) would\ntensor([0.0, 0.1, 0.2])\n"
        ">>> torch.rand(1)\ntensor([0.4963])\n```\n\n"  # 8-14
        "```python\nimport warnings\nwarnings.warn('old API', FutureWarning)\n```\n\n"  # 16-19
        "```python\nimport torch\ntorch.ones(2) @ torch.ones(3)\n```\n\n"  # 21-24
        "```pycon\n>>> 1 + 1\n3\n```\n\n"  # 26-29
        "```python\nimport socket\nsocket.create_connection(('example.com', 80), timeout=1)\n```\n"  # 31-34
    )
    snippets, problems = scan(text, page="docs/releases/9.9.md", src_uri="releases/9.9.md", page_lang="zh")
    assert problems == []
    result = run_page(snippets, timeout=120)
    outcome = {o.id: o for o in result.outcomes.values()}
    assert outcome["releases/9.9#01"].status == "ran"
    assert outcome["releases/9.9#02"].status == "output-matched"  # seeded rand, float tolerance
    assert outcome["releases/9.9#03"].status == "ran"
    assert outcome["releases/9.9#03"].deprecations == ["FutureWarning: old API"]
    (error,) = outcome["releases/9.9#04"].problems
    assert error.line == 23 and "RuntimeError" in error.message
    (error,) = outcome["releases/9.9#05"].problems
    assert error.line == 27 and "output differs" in error.message
    (error,) = outcome["releases/9.9#06"].problems
    assert error.line == 33 and (
        "name resolution" in error.message or "unreachable" in error.message
    )  # no network in the sandbox


def test_run_page_timeout_restarts_the_worker():
    pytest.importorskip("torch")
    from scripts.snippets.running.run import run_page

    text = (
        "```python\nwhile True:\n    pass\n```\n\n```pycon\n>>> import torch\n>>> torch.zeros(1)\ntensor([0.])\n```\n"
    )
    snippets, _ = scan(text, page="docs/releases/9.9.md", src_uri="releases/9.9.md", page_lang="zh")
    snippets[0].directives["timeout"] = 3
    result = run_page(snippets)
    first, second = (result.outcomes[s.id] for s in snippets)
    assert first.status == "failed" and "timed out after 3 s" in first.problems[0].message
    assert second.status == "output-matched"


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed")
def test_bash_is_used_for_shell():
    assert check_syntax(one("```console\n$ echo $((1 + 2))\n3\n```\n")) == []


def test_names_in_a_module_that_needs_a_missing_package(sandbox_slot):
    import importlib.util

    if importlib.util.find_spec("tensorboard") is not None:
        pytest.skip("tensorboard is installed here")
    from scripts.snippets.running.run import resolve_names

    found = resolve_names(
        sandbox_slot, ["torch.utils.tensorboard.SummaryWriter", "torch.utils.tensorboard.SummaryWritter"]
    )
    assert found["torch.utils.tensorboard.SummaryWriter"] == (True, None)  # read from the module's source
    ok, why = found["torch.utils.tensorboard.SummaryWritter"]
    assert not ok and "did you mean 'torch.utils.tensorboard.SummaryWriter'" in why


def test_a_name_whose_import_ends_its_process_is_blamed_alone(sandbox_slot):
    """Resolving `torch.utils.model_dump.__main__` runs model_dump's command line (it exits), and a module can
    also kill the process that imports it: the name is reported, and the names after it are still resolved."""
    from scripts.snippets.running.run import resolve_names

    found = resolve_names(
        sandbox_slot, ["torch.utils.model_dump.__main__", "torch.nn.Linear", "os.system", "torch.nn.Linearr"]
    )
    ok, why = found["torch.utils.model_dump.__main__"]
    assert not ok and "SystemExit" in why
    assert found["torch.nn.Linear"] == (True, None)
    assert found["os.system"] == (False, "'os.system' is not a torch name")
    assert not found["torch.nn.Linearr"][0]


def test_page_supervisor_runs_each_block_in_a_fresh_fork(tmp_path):
    """What `check` does for every page: its own sandbox whose supervisor forks each block: per-page isolation,
    distributed blocks isolated from the next, the class source that TorchScript reads, and a timeout that kills
    only that block's process."""
    pytest.importorskip("torch")
    from scripts.snippets.running.run import run_page

    text = (
        "```python\nimport torch\nfrom torch import nn\n\nclass Twice(nn.Module):\n    def forward(self, x):\n        return x * 2\n\n"
        "print(torch.jit.script(Twice())(torch.ones(1)))\n```\n\n"  # 1-11: inspect needs the class's source
        "```python\nimport tempfile\nimport torch.distributed as dist\nwith tempfile.TemporaryDirectory() as tmp:\n"
        "    dist.init_process_group('gloo', init_method=f'file://{tmp}/pg', rank=0, world_size=1)\n```\n\n"  # 13-18
        "```python\nimport torch.distributed as dist\nassert not dist.is_initialized()\n```\n\n"  # 20-23: isolated too
        "```python\nimport time\ntime.sleep(60)\n```\n\n"  # 25-28
        "```pycon\n>>> import torch\n>>> torch.tensor([1.5]) * 2\ntensor([3.])\n```\n"  # 30-34
    )
    snippets, _ = scan(text, page="docs/releases/9.9.md", src_uri="releases/9.9.md", page_lang="zh")
    snippets[3].directives["timeout"] = 3
    result = run_page(snippets)
    again = run_page(snippets[:1])  # a second page: a sandbox of its own
    status = [result.outcomes[s.id].status for s in snippets]
    assert status == ["ran", "ran", "ran", "failed", "output-matched"], [
        str(p) for o in result.outcomes.values() for p in o.problems
    ]
    assert "timed out after 3 s" in result.outcomes[snippets[3].id].problems[0].message
    assert again.outcomes[snippets[0].id].status == "ran"


def test_each_worker_compiles_into_its_own_cache(tmp_path):
    """The two languages of a page run the same torch.compile/AOTInductor code at once; a shared
    inductor cache let one read the other's half-written file (a red CI run). Each worker's cache
    lives in its own working directory."""
    pytest.importorskip("torch")
    from scripts.snippets.running.run import run_page

    text = (
        "```pycon\n>>> import os\n>>> from torch._inductor.runtime.cache_dir_utils import cache_dir\n"
        ">>> cache_dir() == os.path.join(os.getcwd(), 'torchinductor-cache')\nTrue\n"
        ">>> os.path.isdir(cache_dir())\nTrue\n```\n"
    )
    snippets, _ = scan(text, page="docs/releases/9.9.md", src_uri="releases/9.9.md", page_lang="zh")
    result = run_page(snippets)
    (outcome,) = result.outcomes.values()
    assert outcome.status == "output-matched", [str(p) for p in outcome.problems]


def test_deprecations_are_about_what_the_snippet_uses():
    from scripts.snippets.running.interpret import about_snippet as _about_snippet

    scripted = one("```python\nimport torch\nf = torch.jit.script(lambda x: x)\n```\n")
    compiled = one("```python\nimport torch\nf = torch.compile(lambda x: x)\n```\n")
    aliased = one("```python\nfrom functorch import grad\n```\n")
    jit = {"message": "`torch.jit.script` is deprecated. Please switch to `torch.compile`.", "line": None}
    method = {"message": "`torch.jit.script_method` is deprecated.", "line": 3}  # raised while torch imports itself
    assert _about_snippet(scripted, jit)
    assert not _about_snippet(compiled, jit)
    assert not _about_snippet(scripted, method)
    assert _about_snippet(aliased, {"message": "`functorch.grad` is deprecated as of PyTorch 2.0", "line": None})
    assert _about_snippet(
        compiled, {"message": "Lite Interpreter is deprecated.", "line": 3}
    )  # no subject: where it was raised
    assert not _about_snippet(compiled, {"message": "`isinstance(treespec, LeafSpec)` is deprecated", "line": None})
