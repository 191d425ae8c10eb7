"""The machine page's script (docs/assets/javascripts/machine/machine.js), run in Node's vm as the page runs it,
against scripts/verdicts/machine.py: the same query read the same way and the same answer, field by field, for a
sweep of machines (every OS with every kind of GPU and several Pythons, then drivers, glibc, macOS versions and
dates drawn from a fixed seed) and the named ones of tests/test_machine_answer.py; the words of every reason and
note in both languages; the environment check's problems on real pastes (tests/fixtures/environment/), and on
real pastes with one fact changed to make each problem appear."""

from __future__ import annotations

import itertools
import json
import random
import shutil
import subprocess
from typing import Any

import pytest
from conftest import ROOT

from scripts.verdicts.machine import machine_answer
from scripts.verdicts.machine_model import KEYS, Machine, parse_query
from scripts.views.machine.page import machine_data
from scripts.views.machine.words import WORDS

MACHINE = ROOT / "docs/assets/javascripts/machine"
SCRIPTS = [MACHINE / "gpus.js", MACHINE / "environment.js", MACHINE / "machine.js"]
FIXTURES = ROOT / "tests/fixtures/environment"
GUARD_SECONDS = 120  # a backstop for a hung script, not a measure

PROGRAM = """
const vm = require("vm"), fs = require("fs");
const ctx = vm.createContext({ URLSearchParams });
for (const f of %s) vm.runInContext(fs.readFileSync(f, "utf8"), ctx, { filename: f });
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const M = ctx.TimelineMachine, E = ctx.TimelineEnvironment;
%s
"""


def node(body: str, data: object) -> Any:
    if shutil.which("node") is None:
        pytest.fail("node is required for the machine page tests (it is on every machine of this project)")
    program = PROGRAM % (json.dumps([str(s) for s in SCRIPTS]), body)
    result = subprocess.run(
        ["node", "-e", program], input=json.dumps(data), capture_output=True, text=True, timeout=GUARD_SECONDS
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def page(verdicts):
    assert verdicts.machine_page is not None
    return verdicts.machine_page


@pytest.fixture(scope="module")
def data(page):
    return machine_data(page, "en")


def reasons_json(found) -> list:
    return [[r.code, [list(p) for p in r.params]] for r in found]


def answer_json(result) -> dict:
    fits = [
        {
            "version": f.version,
            "status": f.status,
            "tag": f.tag,
            "command": f.command,
            "pythons": list(f.pythons),
            "reasons": reasons_json(f.reasons),
            "notes": reasons_json(f.notes),
            "later": f.later,
        }
        for f in result.fits
    ]
    keys = ("best", "cpu_newer", "maybe_newer", "newest_then")
    return {"fits": fits, **{k: getattr(result, k) for k in keys}}


def parsed_json(parsed) -> dict:
    machine = None if parsed.machine is None else {k: getattr(parsed.machine, k) for k in KEYS}
    return {
        "machine": machine,
        "release": parsed.release,
        "problems": [[p.key, p.value, p.code] for p in parsed.problems],
        "values": [list(v) for v in parsed.values],
    }


OSES = ("linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows")
GPUS = (
    "",
    "none",
    "mps",
    "rocm",
    "xpu",
    "3.5",
    "3.7",
    "5.0",
    "5.2",
    "6.1",
    "7.0",
    "7.5",
    "8.6",
    "8.9",
    "9.0",
    "10.0",
    "12.0",
)
# The named machines of tests/test_machine_answer.py.
NAMED = [
    "os=linux-x86_64&python=3.10&gpu=6.1&driver=535",
    "os=linux-x86_64&gpu=8.9&driver=580",
    "os=linux-x86_64&gpu=3.7",
    "os=linux-x86_64&gpu=3.5",
    "os=linux-x86_64&driver=470",
    "os=linux-x86_64&glibc=2.26",
    "os=macos-x86_64&macos=10.15",
    "os=macos-arm64&macos=13",
    "os=macos-arm64&macos=13&gpu=mps",
    "os=windows&gpu=8.6&python=3.12",
    "os=linux-x86_64&python=3.9",
    "os=linux-x86_64&python=3.13t",
    "os=linux-x86_64&date=2023-06-01",
    "os=linux-x86_64&date=2023-04-01",
    "os=linux-x86_64&gpu=7.0",
    "os=linux-x86_64&gpu=12.0",
    "os=linux-aarch64&gpu=9.0",
    "os=linux-x86_64&gpu=rocm",
    "os=windows&gpu=rocm",
    "os=linux-x86_64&gpu=xpu",
    "os=windows",
]


def sweep(pythons: tuple[str, ...]) -> list[str]:
    """Every OS with every kind of GPU and three Pythons (255 machines), then 150 drawn from a fixed seed with a
    driver, glibc, macOS version and date too."""
    queries = [
        "&".join(f"{k}={v}" for k, v in (("os", os), ("gpu", gpu), ("python", py)) if v)
        for os, gpu, py in itertools.product(OSES, GPUS, ("", "3.9", "3.12"))
    ]
    draw = random.Random(20261127)
    for _ in range(150):
        values = {
            "os": draw.choice(OSES),
            "python": draw.choice(("",) + pythons),
            "gpu": draw.choice(GPUS),
            "driver": draw.choice(("", "384.81", "440.33", "450.80.02", "470.82", "525", "535.104.05", "580.65")),
            "glibc": draw.choice(("", "2.17", "2.26", "2.28", "2.35")),
            "macos": draw.choice(("", "10.15", "11", "12.3", "13.5", "14", "15.1")),
            "date": draw.choice(("", "2019-08-08", "2021-01-01", "2023-06-01", "2025-12-31")),
        }
        queries.append("&".join(f"{k}={v}" for k, v in values.items() if v))
    return queries


def test_the_script_answers_every_machine_as_the_python_verdict_does(page, data):
    queries = NAMED + sweep(page.pythons)
    assert len(queries) >= 200 + len(NAMED)
    releases = tuple(r.version for r in page.releases)
    expected = []
    for query in queries:
        parsed = parse_query(query, page.pythons, releases)
        result = machine_answer(page.releases, parsed.machine) if parsed.machine else None
        expected.append({"parsed": parsed_json(parsed), "answer": answer_json(result) if result else None})
    got = node(
        """
        const out = input.queries.map(q => {
          const parsed = M.parseQuery(q, input.data);
          const a = parsed.machine ? M.answer(input.data, parsed.machine) : null;
          return { parsed, answer: a && { fits: a.fits, best: a.best, cpu_newer: a.cpu_newer,
                   maybe_newer: a.maybe_newer, newest_then: a.newest_then } };
        });
        console.log(JSON.stringify(out));""",
        {"queries": queries, "data": data},
    )
    assert len(got) == len(expected)
    machines = 0
    for query, want, have in zip(queries, expected, got, strict=True):
        assert have["parsed"] == want["parsed"], query
        if want["answer"] is None:
            assert have["answer"] is None, query
            continue
        machines += 1
        for key in ("best", "cpu_newer", "maybe_newer", "newest_then"):
            assert have["answer"][key] == want["answer"][key], (query, key)
        for mine, theirs in zip(want["answer"]["fits"], have["answer"]["fits"], strict=True):
            for field in mine:
                assert theirs[field] == mine[field], (query, mine["version"], field)
    assert machines >= 200


QUERIES = [
    "",
    "?",
    "os=linux-x86_64&os=windows",
    "os=linux-x86_64&&python=3.10&=x&novalue",
    "os=linux%2Dx86_64&python=3%2E10",
    "os=linux-x86_64&gpu=8%2E6+",
    "os=+linux-x86_64",
    "os=linux-x86_64&driver=%ZZ",
    "os=linux-x86_64&driver=%C3",
    "os=linux-x86_64&python=%E0%A5%A9.10",
    "os=linux-x86_64&glibc=2.%D9%A2%D9%A8",
    "os=macos-arm64&macos=" + "1" * 80,
    "os=macos-arm64&date=" + "é" * 45,
    "os=windows&glibc=2.28&macos=14&gpu=mps&driver=1",
    "os=linux-x86_64&gpu=none&driver=535",
    "os=linux-x86_64&gpu=xpu&driver=535",
    "os=linux-x86_64&date=2024-02-29&release=2.14",
    "os=linux-x86_64&date=2023-02-29&release=0.9",
    "os=linux-x86_64&date=0000-01-01",
    "python=3.10&gpu=6.1&release=2.14",
    "os=LINUX-X86_64",
    "release=2.14",
]


@pytest.mark.parametrize("query", QUERIES)
def test_the_script_reads_a_query_as_the_python_reader_does(page, data, query):
    parsed = parse_query(query, page.pythons, tuple(r.version for r in page.releases))
    got = node("console.log(JSON.stringify(M.parseQuery(input.query, input.data)));", {"query": query, "data": data})
    assert got == parsed_json(parsed)


def test_the_query_a_machine_writes_reads_back_as_the_same_machine(page, data):
    machine = Machine("linux-x86_64", python="3.10", gpu="7.5", driver="535.104", glibc="2.35", date="2024-01-01")
    got = node(
        "const q = M.machineQuery(input.m, '2.14'); console.log(JSON.stringify([q, M.parseQuery(q, input.data)]));",
        {"m": {k: getattr(machine, k) for k in KEYS}, "data": data},
    )
    assert got[0] == "os=linux-x86_64&python=3.10&gpu=7.5&driver=535.104&glibc=2.35&date=2024-01-01&release=2.14"
    assert got[1]["machine"] == {k: getattr(machine, k) for k in KEYS} and got[1]["release"] == "2.14"


def test_every_reason_and_note_the_verdict_gives_has_words_in_both_languages(page):
    found: set[str] = set()
    releases = tuple(r.version for r in page.releases)
    for query in NAMED + sweep(page.pythons):
        parsed = parse_query(query, page.pythons, releases)
        if parsed.machine:
            for f in machine_answer(page.releases, parsed.machine).fits:
                found |= {
                    ("r_platform_" + dict(r.params)["kind"]) if r.code == "platform" else "r_" + r.code
                    for r in f.reasons
                }
                found |= {"n_" + r.code for r in f.notes}
    assert {"r_arch", "r_driver", "r_python", "r_glibc", "r_macos", "n_ptx", "n_needs-driver"} <= found
    for lang in ("zh", "en"):
        assert sorted(found - set(WORDS[lang])) == [], lang
    assert set(WORDS["zh"]) == set(WORDS["en"])


# --- the environment check -------------------------------------------------------------------------------------


def problems_of(data: dict, texts: dict[str, str]) -> dict[str, list]:
    """For each pasted text: the machine it fills in (its query) and the problems found, as the page finds them."""
    return node(
        """
        const out = {};
        for (const [name, text] of Object.entries(input.texts)) {
          const read = E.read(text);
          if (!read.ok) { out[name] = { refused: read.reason }; continue; }
          const parsed = M.parseQuery(M.machineOfRead(read), input.data);
          const a = parsed.machine ? M.answer(input.data, parsed.machine) : null;
          out[name] = { machine: parsed.machine, problems: M.problems(read, input.data, parsed.machine, a) };
        }
        console.log(JSON.stringify(out));""",
        {"texts": texts, "data": data},
    )


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def changed(name: str, old: str, new: str) -> str:
    """A real paste with one fact changed wherever it is written (the test says which): the problem it makes must
    be found."""
    text = fixture(name)
    assert old in text, (name, old)
    return text.replace(old, new)


def test_real_pastes_fill_in_the_machine_and_show_no_false_problem(data):
    found = problems_of(
        data, {p.name: p.read_text(encoding="utf-8") for p in FIXTURES.glob("*.txt") if p.name != "README.txt"}
    )
    assert found["collect_env-2.2-linux-rtx3060ti.txt"]["machine"] == {
        "os": "linux-x86_64", "python": "3.12", "gpu": "8.6", "driver": "550.67", "glibc": "2.39", "macos": None,
        "date": None,
    }  # fmt: skip
    assert found["collect_env-2.1-rocm6.1-wsl.txt"]["machine"]["gpu"] == "rocm"
    assert found["collect_env-1.12-macos-arm64.txt"]["machine"]["gpu"] == "mps"
    # conda-forge's torch and pip's torch in one environment: which one imports is unknown.
    assert [p["code"] for p in found["conda_list-conda-forge-and-pypi.txt"]["problems"]] == ["ambiguous"]
    # An AMD GPU is not looked up in NVIDIA's list.
    assert found["collect_env-2.1-rocm6.1-wsl.txt"]["problems"] == []
    quiet = [n for n, r in found.items() if r.get("problems") == [] and n != "collect_env-2.1-rocm6.1-wsl.txt"]
    assert len(quiet) >= 15, found


def test_each_problem_is_found_with_the_command_that_fixes_it(data):
    texts = {
        # 2.2.2+cu121 needs driver 525 or later (CUDA 12.x, NVM); this paste's driver made a 470 one.
        "driver": changed("collect_env-2.2-linux-rtx3060ti.txt", "Nvidia driver version: 550.67", "Nvidia driver version: 470.82"),
        # A Kepler GTX 780 (3.5, NVIDIA's list) in place of the RTX 3090s: 1.12's cu116 build starts at 3.7.
        "arch": changed("collect_env-1.12-linux-3x3090.txt", "NVIDIA GeForce RTX 3090", "GeForce GTX 780"),
        # An RTX 5090 (12.0) under 2.2.2+cu121, whose list ends at 9.0 (BLD release/2.1-2.5).
        "arch-fixed": changed("collect_env-2.2-linux-rtx3060ti.txt", "NVIDIA GeForce RTX 3060 Ti", "NVIDIA GeForce RTX 5090"),
        # torch 2.4.0+cpu on a Windows machine that has a GTX 1080 Ti.
        "cpu": changed("collect_env-2.4-windows-cpu.txt", "GPU models and configuration: No CUDA", "GPU models and configuration: GPU 0: NVIDIA GeForce GTX 1080 Ti"),
        # torchvision 0.15.2 beside torch 2.2.2 (2.2.2 pairs with 0.17.2: PyPI's Requires-Dist).
        "pairing": changed("collect_env-2.2-linux-rtx3060ti.txt", "torchvision==0.17.2", "torchvision==0.15.2"),
    }  # fmt: skip
    found = problems_of(data, texts)
    codes = {name: [p["code"] for p in r["problems"]] for name, r in found.items()}
    assert codes == {
        "driver": ["driver"], "arch": ["arch"], "arch-fixed": ["arch"], "cpu": ["cpu"], "pairing": ["pairing"]
    }, found  # fmt: skip
    driver = found["driver"]["problems"][0]
    assert driver["values"] == {"torch": "2.2.2+cu121", "cuda": "12.1", "need": "525", "driver": "470.82"}
    # The same release's CUDA 11.8 build loads with that driver (11.x: 450.80.02).
    assert (
        driver["fix"]
        == "pip install torch==2.2.2 torchvision==0.17.2 torchaudio==2.2.2 --index-url https://download.pytorch.org/whl/cu118"
    )
    # No release runs a Kepler 3.5 on this paste's Python 3.9 (sm_35 ends with 1.3, which has no cp39 wheel).
    assert found["arch"]["problems"][0]["values"]["sm"] == "sm_35" and found["arch"]["problems"][0]["fix"] is None
    # Blackwell with driver 550: the newest build that has sm_120 and loads with a 12.x driver is 2.11's cu128.
    blackwell = found["arch-fixed"]["problems"][0]
    assert blackwell["values"] == {"torch": "2.2.2+cu121", "tag": "cu121", "sm": "sm_120"}
    assert (
        blackwell["fix"]
        == "pip install torch==2.11.0 torchvision==0.26.0 torchaudio==2.11.0 --index-url https://download.pytorch.org/whl/cu128"
    )
    assert found["cpu"]["problems"][0]["fix"].endswith("--index-url https://download.pytorch.org/whl/cu126")
    assert found["pairing"]["problems"][0]["values"] == {
        "lib": "torchvision",
        "have": "0.15.2",
        "torch": "2.2.2",
        "want": "0.17.2",
    }


def test_junk_empty_and_a_megabyte_are_refused_plainly(data):
    found = problems_of(data, {"empty": "  \n", "junk": "hello\nworld\n", "big": "torch==2.0.0\n" * 90000})
    assert found == {
        "empty": {"refused": "empty"},
        "junk": {"refused": "unrecognized"},
        "big": {"refused": "too-large"},
    }
    for lang in ("zh", "en"):
        assert all(WORDS[lang][f"env_fail_{code}"] for code in ("empty", "unrecognized", "too-large", "not-text"))
