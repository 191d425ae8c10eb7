"""Unit tests of the "your machine" page's environment reader (docs/assets/javascripts/machine/environment.js) and
its GPU table (machine/gpus.js), run in Node's vm as the page would run them: the reader's whole answer for every
real paste in tests/fixtures/environment/, its refusals, bounded time on hostile input, and the GPU names."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Mapping
from typing import Any

import pytest
from conftest import ROOT

MACHINE = ROOT / "docs/assets/javascripts/machine"
GPUS = MACHINE / "gpus.js"
READER = MACHINE / "environment.js"
FIXTURES = ROOT / "tests/fixtures/environment"
# A backstop for a reader that hangs, not a measure: every case below takes milliseconds.
GUARD_SECONDS = 120

LOAD = """
const vm = require("vm"), fs = require("fs");
function load(files, global) {
  const ctx = vm.createContext(global || {});
  for (const f of files) vm.runInContext(fs.readFileSync(f, "utf8"), ctx, { filename: f });
  return ctx;
}
const input = JSON.parse(fs.readFileSync(0, "utf8"));
"""


def node(program: str, data: object = None) -> Any:
    if shutil.which("node") is None:
        pytest.fail("node is required for the environment reader tests (it is on every machine of this project)")
    result = subprocess.run(
        ["node", "-e", LOAD + program],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def read_all(texts: Mapping[str, object], files: tuple = (GPUS, READER)) -> dict[str, dict]:
    """TimelineEnvironment.read of each text, the scripts loaded into one fresh context."""
    program = f"""
const ctx = load({json.dumps([str(f) for f in files])});
const out = {{}};
for (const [name, text] of Object.entries(input)) out[name] = ctx.TimelineEnvironment.read(text);
console.log(JSON.stringify(out));"""
    return node(program, texts)


def pkg(version: str | None, local: str | None = None) -> dict:
    return {"version": version, "local": local}


def gpu(name: str, cc: str | None) -> dict:
    return {"name": name, "cc": cc}


def answer(fmt, torch=None, torchvision=None, torchaudio=None, ambiguous=(), python=None, os=None, glibc=None,
           macos=None, gpus=(), driver=None, cuda=None, cuda_available=None, rocm=None) -> dict:  # fmt: skip
    return {
        "ok": True, "format": fmt, "packages": {"torch": torch, "torchvision": torchvision, "torchaudio": torchaudio},
        "ambiguous": list(ambiguous), "python": python, "os": os, "glibc": glibc, "macos": macos, "gpus": list(gpus),
        "driver": driver, "cuda_runtime": cuda, "torch_cuda_available": cuda_available, "rocm": rocm,
    }  # fmt: skip


RTX3090 = gpu("NVIDIA GeForce RTX 3090", "8.6")
# What each real paste states, read by hand from the file (sources in tests/fixtures/environment/README.txt).
EXPECTED = {
    "collect_env-1.0-windows-conda-gtx1050.txt": answer(
        "collect-env", torch=pkg("1.0.0", "cu90"), torchvision=pkg("0.2.2"), python="3.7", os="windows",
        gpus=[gpu("GeForce GTX 1050", "6.1")], driver="398.36", cuda="9.0", cuda_available=True),
    "collect_env-1.1-windows-gtx1080ti.txt": answer(
        "collect-env", torch=pkg("1.1.0", "cu90"), torchvision=pkg("0.2.2"), python="3.6", os="windows",
        gpus=[gpu("GeForce GTX 1080 Ti", "6.1")], driver="419.67", cuda="9.0", cuda_available=True),
    "collect_env-1.3-windows-garbled-os.txt": answer(
        "collect-env", torch=pkg("1.3.0a0", "de394b6"), torchvision=pkg("0.4.1a0", "d94043a"), python="3.6",
        os="windows", gpus=[gpu("GeForce GTX 1080 Ti", "6.1")], driver="411.31", cuda="10.0", cuda_available=True),
    "collect_env-1.4-windows-cpu.txt": answer(
        "collect-env", torch=pkg("1.4.0", "cpu"), torchvision=pkg("0.5.0", "cpu"), python="3.7", os="windows",
        cuda_available=False),
    "collect_env-1.8-macos-arm64-source.txt": answer(
        "collect-env", torch=pkg("1.8.0a0", "c068180"), torchvision=pkg("0.9.0a0", "83171d6"), python="3.9",
        os="macos-arm64", macos="11.1", cuda_available=False),
    "collect_env-1.12-linux-3x3090.txt": answer(
        "collect-env", torch=pkg("1.12.1", "cu116"), torchvision=pkg("0.13.1", "cu116"),
        torchaudio=pkg("0.12.1", "cu116"), python="3.9", os="linux-x86_64", glibc="2.35",
        gpus=[RTX3090, RTX3090, RTX3090], driver="515.65.01", cuda="11.6", cuda_available=True),
    # "PyTorch version: 1.12.1" is what ran; the paste's "[pip3] torch==1.12.0" is pip's stale record.
    "collect_env-1.12-macos-arm64.txt": answer(
        "collect-env", torch=pkg("1.12.1"), torchvision=pkg("0.13.1"), torchaudio=pkg("0.12.1"), python="3.9",
        os="macos-arm64", macos="12.5", cuda_available=False),
    "collect_env-2.0-linux-cpu.txt": answer(
        "collect-env", torch=pkg("2.0.0.dev20230228", "cpu-cxx11-abi"), python="3.9", os="linux-x86_64",
        glibc="2.28", cuda_available=False),
    "collect_env-2.1-linux-aarch64.txt": answer(
        "collect-env", torch=pkg("2.1.0"), torchvision=pkg("0.16.0"), python="3.10", os="linux-aarch64",
        glibc="2.35", cuda_available=True),
    "collect_env-2.1-rocm6.1-wsl.txt": answer(
        "collect-env", torch=pkg("2.1.2", "rocm6.1.3"), python="3.10", os="linux-x86_64", glibc="2.35",
        gpus=[gpu("AMD Radeon RX 6800 XT", None)], cuda_available=True, rocm="6.1"),
    # The [conda] rows of the same versions say what pip's "torch==2.2.2" does not: built for CUDA 12.1.
    "collect_env-2.2-linux-rtx3060ti.txt": answer(
        "collect-env", torch=pkg("2.2.2", "cu121"), torchvision=pkg("0.17.2", "cu121"),
        torchaudio=pkg("2.2.2", "cu121"), python="3.12", os="linux-x86_64", glibc="2.39",
        gpus=[gpu("NVIDIA GeForce RTX 3060 Ti", "8.6")], driver="550.67", cuda="12.1", cuda_available=True),
    "collect_env-2.2-macos-x86_64-email-wrapped.txt": answer(
        "collect-env", torch=pkg("2.2.2"), python="3.10", os="macos-x86_64", macos="14.5", cuda_available=False),
    "collect_env-2.4-windows-cpu.txt": answer(
        "collect-env", torch=pkg("2.4.0", "cpu"), torchvision=pkg("0.19.0"), python="3.10", os="windows",
        cuda_available=False),
    "conda_list-1.3-defaults-cuda100.txt": answer(
        "conda-list", torch=pkg("1.3.1", "cu100"), torchvision=pkg("0.4.2", "cu100"), python="3.6", cuda="10.0"),
    # conda-forge's pytorch 2.5.1 and pip's torch 2.2.0+cu121 in one environment: which one imports is unknown.
    "conda_list-conda-forge-and-pypi.txt": answer(
        "conda-list", torchvision=pkg("0.17.0", "cu121"), torchaudio=pkg("2.2.0", "cu121"), ambiguous=["torch"],
        python="3.11"),
    "conda_list_export-2.4-pytorch-cuda11.8.txt": answer(
        "conda-list", torch=pkg("2.4.1", "cu118"), torchvision=pkg("0.19.1", "cu118"),
        torchaudio=pkg("2.4.1", "cu118"), python="3.10", os="linux-x86_64", cuda="11.8"),
    # The wheel's file name says cp36 / linux_x86_64; its /cu101/ directory is not its version.
    "pip_freeze-1.4-wheel-url.txt": answer("pip-freeze", torch=pkg("1.4.0"), python="3.6", os="linux-x86_64"),
    "pip_freeze-2.3-cu121-wheel-url.txt": answer(
        "pip-freeze", torch=pkg("2.3.1", "cu121"), torchvision=pkg("0.18.1", "cu121"),
        torchaudio=pkg("2.3.1", "cu121"), python="3.11", os="linux-x86_64", cuda="12.1"),
    "pip_freeze-2.4-cu121-file-urls.txt": answer(
        "pip-freeze", torch=pkg("2.4.0", "cu121"), torchvision=pkg("0.19.1"), python="3.11", os="linux-x86_64",
        cuda="12.1"),
    "pip_list-2.5-cu121.txt": answer(
        "pip-list", torch=pkg("2.5.0", "cu121"), torchvision=pkg("0.20.0", "cu121"),
        torchaudio=pkg("2.5.0", "cu121"), python="3.10", cuda="12.1"),
}  # fmt: skip


@pytest.fixture(scope="module")
def fixture_answers() -> dict[str, dict]:
    texts = {path.name: path.read_text(encoding="utf-8") for path in sorted(FIXTURES.glob("*.txt"))}
    texts.pop("README.txt")
    crlf = {f"crlf:{name}": text.replace("\n", "\r\n") for name, text in texts.items()}
    return read_all(texts | crlf)


def test_every_fixture_has_an_expected_answer_and_a_source():
    names = {path.name for path in FIXTURES.glob("*.txt")} - {"README.txt"}
    assert names == set(EXPECTED)
    assert len(names) >= 10
    readme = (FIXTURES / "README.txt").read_text(encoding="utf-8")
    for name in names:
        assert re.search(rf"^{re.escape(name)}\n  \S*github\.com/", readme, re.M), f"{name}: no source in README.txt"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_real_paste_is_read_exactly(fixture_answers, name):
    assert fixture_answers[name] == EXPECTED[name]
    assert fixture_answers[f"crlf:{name}"] == EXPECTED[name]  # as pasted from Windows


def test_the_formats_of_every_era_are_covered():
    formats = {a["format"] for a in EXPECTED.values()}
    systems = {a["os"] for a in EXPECTED.values()}
    assert formats == {"collect-env", "pip-list", "pip-freeze", "conda-list"}
    assert {"linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows"} <= systems
    assert any(a["rocm"] for a in EXPECTED.values()) and any(a["gpus"] for a in EXPECTED.values())


# --- refusals and hostile input --------------------------------------------------------------------------------

HTML_PAGE = (
    "<!doctype html><html><head><title>PyTorch</title></head><body><p>Install: pip install torch</p></body></html>"
)
TRACEBACK = """Traceback (most recent call last):
  File "/home/user/train.py", line 3, in <module>
    import torch
  File "/usr/lib/python3.10/site-packages/torch/__init__.py", line 229, in <module>
    from torch._C import *
ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"""


def test_what_is_not_an_environment_is_refused_with_a_reason():
    prose = "I installed torch 2.1 with CUDA 12.1 on Ubuntu and my RTX 3090 is not found"
    texts = {"empty": "", "blank": " \n\t\r\n ", "html": HTML_PAGE, "traceback": TRACEBACK, "one line": "torch"}
    answers = read_all(texts | {"prose": prose})
    assert {name: a["reason"] for name, a in answers.items()} == {
        "empty": "empty", "blank": "empty", "html": "unrecognized", "traceback": "unrecognized",
        "one line": "unrecognized", "prose": "unrecognized",
    }  # fmt: skip
    assert all(a == {"ok": False, "reason": a["reason"]} for a in answers.values())


def test_names_of_object_properties_are_plain_words():
    """Lookups by pasted words ("constructor", "__proto__") never reach JavaScript's object machinery."""
    answers = read_all(
        {
            "conda": "# platform: constructor\nconstructor 1.0 py3.9_0 pytorch\npytorch 1.10.0 py3.9_cpu_0 pytorch",
            "collect_env": "PyTorch version: 2.0.0\nIs CUDA available: None\nconstructor: 1\n__proto__: x\n"
            "GPU models and configuration: GPU 0: NVIDIA toString",
        }
    )
    assert answers["conda"] == answer("conda-list", torch=pkg("1.10.0", "cpu"))
    assert answers["collect_env"] == answer("collect-env", torch=pkg("2.0.0"), gpus=[gpu("NVIDIA toString", None)])


def test_what_is_not_text_is_refused_not_thrown():
    answers = node(
        f"""const ctx = load({json.dumps([str(GPUS), str(READER)])});
console.log(JSON.stringify([null, undefined, 42, {{}}, ["torch==2.1.0"]].map(v => ctx.TimelineEnvironment.read(v))));"""
    )
    assert answers == [{"ok": False, "reason": "not-text"}] * 5


# Built in Node (no 1 MB through a pipe): 1 MB of each, and a MiB plus one character.
HOSTILE = """
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const MB = 1000000;
const fill = (line, head) => { let s = head || ""; while (s.length + line.length + 1 < MB) s += line + "\\n"; return s; };
const cases = {
  "random code units": Array.from({ length: MB }, () => String.fromCharCode(Math.floor(random() * 0xd7ff))).join(""),
  "one long line": "x".repeat(MB),
  "a space, repeated": "a ".repeat(MB / 2),
  "nested brackets": "[".repeat(MB / 2) + "]".repeat(MB / 2),
  "nested parentheses": "(".repeat(MB / 2) + ")".repeat(MB / 2),
  "newlines only": "\\n".repeat(MB),
  "a key, repeated": "PyTorch version: ".repeat(MB / 17),
  "long pip rows": fill("torch 1" + " ".repeat(1000) + "x".repeat(990), "Package Version\\n------- -------\\n"),
  "long versions": fill("torch " + "1.111111111".repeat(180), "Package Version\\n------- -------\\n"),
  "conda URL of slashes": fill("https://" + "a/".repeat(995) + ".conda"),
  "endless GPU line": fill("GPU 0: " + "x".repeat(1990), "PyTorch version: 2.0\\nIs CUDA available: True\\nGPU models and configuration:\\n"),
  "dashes": fill("--- ".repeat(499), "Package Version\\n"),
  "wheel of dashes": fill("torch @ https://x/" + "a-".repeat(990) + ".whl"),
  "platform without its end": fill("Python platform: Linux" + "-x86_64-wit".repeat(180), "PyTorch version: 2.0\\nIs CUDA available: True\\n"),
  "GPU rows": fill("GPU 0: NVIDIA A100-SXM4-80GB"),
  "over a MiB": "x".repeat(1048577),
};
"""


def test_hostile_input_is_answered_and_a_mib_is_the_limit():
    answers = node(
        HOSTILE
        + f"""const ctx = load({json.dumps([str(GPUS), str(READER)])});
const out = {{}};
for (const [name, text] of Object.entries(cases)) out[name] = ctx.TimelineEnvironment.read(text);
out["exactly a MiB"] = ctx.TimelineEnvironment.read("y".repeat(ctx.TimelineEnvironment.limits.chars));
console.log(JSON.stringify(out));"""
    )
    reasons = {name: a.get("reason") for name, a in answers.items()}
    assert reasons.pop("over a MiB") == "too-large"
    assert reasons.pop("exactly a MiB") == "unrecognized"
    assert reasons.pop("newlines only") == "empty"
    # Lines past the length a line may have are no rows; a few lines keep their shape and are read, as nothing.
    read = {name for name, reason in reasons.items() if reason is None}
    assert read == {"long pip rows", "long versions", "endless GPU line", "wheel of dashes", "platform without its end"}
    for name in read:
        assert answers[name]["gpus"] == [] and answers[name]["python"] is None, name
    assert set(reasons.values()) == {"unrecognized", None}


def test_patterns_cannot_backtrack_without_bound():
    """Every pattern is a RE_ constant; none repeats a group or a wildcard without bound (linear time)."""
    for script in (READER, GPUS):
        source = script.read_text(encoding="utf-8")
        assert "RegExp(" not in source, script.name
        patterns = re.findall(r"^\s*var RE_\w+ = /(.+)/[a-z]*;$", source, re.M)
        assert len(patterns) == source.count("var RE_"), script.name
        for pattern in patterns:
            assert not re.search(r"\)[*+]|\)\{\d+,\}|\.[*+]", pattern), f"{script.name}: {pattern}"


# --- the reading rules, on real lines ----------------------------------------------------------------------------

# Build strings from the fixtures and from the pytorch channel's and conda-forge's packages: the local label each means.
BUILDS = {
    "py3.9_cuda11.3_cudnn8.2.0_0": "cu113",
    "py3.10_cuda11.8_cudnn9.1.0_0": "cu118",
    "py3.7_cuda10.1.243_cudnn7.6.3_0": "cu101",
    "py3.7_cuda90_cudnn7_1": "cu90",
    "py310_cu118": "cu118",
    "py39_cpu": "cpu",
    "cuda100py36h53c1284_0": "cu100",
    "cuda126_generic_py311_he8bc7c1_207": "cu126",
    "cpu_generic_py311_h8a3ad28_0": "cpu",
    "py3.12_0": None,
    "pypi_0": None,
    "<pip>": None,
}


def test_conda_build_strings_say_what_torch_was_built_for():
    program = f"""const ctx = load({json.dumps([str(READER)])});
console.log(JSON.stringify(input.map(b => ctx.TimelineEnvironment.localOfBuild(b))));"""
    assert dict(zip(BUILDS, node(program, list(BUILDS)), strict=True)) == BUILDS


def test_the_shorter_shapes_of_each_list_are_read():
    """`conda list --explicit` (package URLs), and a list filtered by grep, without its header."""
    explicit = (
        "# platform: osx-arm64\n@EXPLICIT\n"
        "https://conda.anaconda.org/pytorch/osx-arm64/pytorch-2.1.0-py3.11_0.tar.bz2\n"
        "https://conda.anaconda.org/conda-forge/osx-arm64/python-3.11.6-h47c9636_0_cpython.conda\n"
    )
    answers = read_all(
        {
            "explicit": explicit,
            "conda | grep": "pytorch                   1.10.0          py3.9_cuda11.3_cudnn8.2.0_0    pytorch",
            "pip list | grep": "torch                     2.1.0+cu121\ntorchvision               0.16.0+cu121",
            "grep for another package": "numpy                     1.26.4",
        }
    )
    assert answers["explicit"] == answer("conda-list", torch=pkg("2.1.0"), python="3.11", os="macos-arm64")
    assert answers["conda | grep"] == answer("conda-list", torch=pkg("1.10.0", "cu113"), cuda="11.3")
    assert answers["pip list | grep"] == answer(
        "pip-list", torch=pkg("2.1.0", "cu121"), torchvision=pkg("0.16.0", "cu121"), cuda="12.1"
    )
    assert answers["grep for another package"] == {"ok": False, "reason": "unrecognized"}


# Python's own sys.version of free-threaded builds: 3.13 calls it experimental, 3.14 does not.
FREE_THREADED = {
    "collect_env 3.13t": "PyTorch version: 2.6.0\nIs CUDA available: False\nPython version: 3.13.0 experimental "
    "free-threading build (main, Oct  8 2024, 01:06:48) [Clang 18.1.8 ] (64-bit runtime)",
    "collect_env 3.14t": "PyTorch version: 2.9.0\nIs CUDA available: False\nPython version: 3.14.7 free-threading "
    "build (main, Sep  1 2026, 14:07:44) [Clang 22.1.3 ] (64-bit runtime)",
    "pip list under python -VV": "Python 3.13.1 experimental free-threading build (main, Dec 10 2024, 14:07:41) "
    "[Clang 16.0.0 (clang-1600.0.26.4)]\nPackage Version\n------- -------\ntorch 2.6.0",
    "freeze of a cp313t wheel": "torch @ file:///w/torch-2.6.0-cp313-cp313t-manylinux_2_28_x86_64.whl",
    "conda python_abi": "python 3.13.0 h9ebbce0_100_cp313t conda-forge\npytorch 2.6.0 py3.13_0 pytorch",
    "gil build": "PyTorch version: 2.6.0\nIs CUDA available: False\nPython version: 3.13.0 (main, Oct  8 2024) [GCC]",
}


def test_a_free_threaded_python_is_read_only_where_the_text_says_so():
    answers = read_all(FREE_THREADED)
    assert {name: a["python"] for name, a in answers.items()} == {
        "collect_env 3.13t": "3.13t", "collect_env 3.14t": "3.14t", "pip list under python -VV": "3.13t",
        "freeze of a cp313t wheel": "3.13t", "conda python_abi": "3.13t", "gil build": "3.13",
    }  # fmt: skip


def test_without_the_gpu_table_a_gpu_is_named_but_not_guessed():
    text = (FIXTURES / "collect_env-2.2-linux-rtx3060ti.txt").read_text(encoding="utf-8")
    answer_alone = read_all({"t": text}, files=(READER,))["t"]
    assert answer_alone["gpus"] == [gpu("NVIDIA GeForce RTX 3060 Ti", None)]
    assert answer_alone["packages"] == EXPECTED["collect_env-2.2-linux-rtx3060ti.txt"]["packages"]


def test_the_scripts_publish_on_self_in_a_page():
    """In a page `self` is the window: both scripts define their object there, not on the script's `this`."""
    program = f"""const page = load({json.dumps([str(GPUS), str(READER)])}, {{ self: {{}} }});
console.log(JSON.stringify([typeof page.self.TimelineEnvironment.read, typeof page.self.TimelineGpus.computeCapability,
  typeof page.TimelineEnvironment, page.self.TimelineEnvironment.read("").reason]));"""
    assert node(program) == ["function", "function", "undefined", "empty"]


# --- GPU names ---------------------------------------------------------------------------------------------------

# Names as drivers and torch.cuda.get_device_name print them (the fixtures, issue reports), and what NVIDIA's list says.
DEVICE_NAMES = {
    "NVIDIA GeForce RTX 3090": "8.6",
    "NVIDIA A100-SXM4-40GB": "8.0",
    "NVIDIA A100 80GB PCIe": "8.0",
    "Tesla V100-SXM2-16GB": "7.0",
    "Tesla T4": "7.5",
    "NVIDIA H100 80GB HBM3": "9.0",
    "NVIDIA H100 NVL": "9.0",
    "NVIDIA GeForce RTX 3060 Laptop GPU": "8.6",
    "NVIDIA GeForce RTX 2080 with Max-Q Design": "7.5",
    "NVIDIA RTX 6000 Ada Generation": "8.9",
    "Quadro RTX 6000": "7.5",
    "Quadro M6000 24GB": "5.2",
    "NVIDIA TITAN X": "6.1",
    "GeForce GTX TITAN X": "5.2",
    "nvidia geforce rtx 5090": "12.0",
    "NVIDIA GB10": "12.1",
    "Tesla K80": "3.7",
    # Not on NVIDIA's list, or another product than a listed name: no value.
    "TITAN X (Pascal)": None,
    "NVIDIA A10G": None,
    "NVIDIA GeForce RTX 4090 D": None,
    "NVIDIA GeForce GTX 1660 Ti": None,
    "AMD Radeon RX 6800 XT": None,
    "Orin": None,
    "": None,
}


@pytest.fixture(scope="module")
def gpu_table() -> dict:
    program = f"""const G = load({json.dumps([str(GPUS)])}).TimelineGpus;
console.log(JSON.stringify({{rows: G.rows, keys: G.rows.map(r => G.normalize(r.name)),
  cc: input.map(n => G.computeCapability(n)), odd: [null, 3, {{}}].map(v => [G.normalize(v), G.computeCapability(v)]),
  examples: ["NVIDIA A100-SXM4-80GB", "NVIDIA GeForce RTX 3060 Laptop GPU", "Tesla V100-PCIE-32GB",
             "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"].map(G.normalize)}}));"""
    return node(program, list(DEVICE_NAMES))


def test_device_names_find_the_compute_capability_nvidia_lists(gpu_table):
    assert dict(zip(DEVICE_NAMES, gpu_table["cc"], strict=True)) == DEVICE_NAMES


def test_the_name_key_drops_brands_and_board_suffixes_only(gpu_table):
    assert gpu_table["examples"] == ["a100", "rtx 3060", "v100", "rtx pro 6000 blackwell max q workstation edition"]
    assert gpu_table["odd"] == [["", None], ["", None], ["", None]]


def test_the_gpu_table_is_well_formed_and_covers_the_common_cards(gpu_table):
    rows, keys = gpu_table["rows"], gpu_table["keys"]
    assert len(rows) >= 100
    assert [r for r in rows if not re.fullmatch(r"\d{1,2}\.\d", r["cc"])] == []
    assert {r["source"] for r in rows} == {"official", "legacy", "copies"}
    assert all(keys) and len(set(keys)) == len(keys), sorted(k for k in keys if keys.count(k) > 1)
    assert len({r["name"].lower() for r in rows}) == len(rows)
    by_key = dict(zip(keys, (r["cc"] for r in rows), strict=True))
    common = {"k80": "3.7", "p100": "6.0", "v100": "7.0", "t4": "7.5", "a10": "8.6", "a100": "8.0", "rtx a6000": "8.6",
              "l4": "8.9", "l40": "8.9", "h100": "9.0", "h200": "9.0", "b200": "10.0", "gtx 1080 ti": "6.1",
              "gtx 1650 ti": "7.5", "rtx 2080 ti": "7.5", "rtx 3090": "8.6", "rtx 4090": "8.9", "rtx 5090": "12.0",
              "jetson agx orin": "8.7"}  # fmt: skip
    assert {key: by_key.get(key) for key in common} == common
