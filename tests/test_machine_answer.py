"""The "your machine" answer (scripts/verdicts/machine.py) on machines whose answers are known from the sources,
each with the source of its answer beside it (../shared/reference/hardware.md with its own sources, NVIDIA's tables,
PyPI's files as the registry evidence records them); the URL query's reading (machine_model.parse_query); and the
page's static tables, which are the same verdict asked per GPU, driver, glibc and macOS."""

from __future__ import annotations

import pytest

from scripts.verdicts.machine import machine_answer
from scripts.verdicts.machine_model import Machine, MachineAnswer, ReleaseFit, parse_query


@pytest.fixture(scope="module")
def page(verdicts):
    assert verdicts.machine_page is not None
    return verdicts.machine_page


def answer(page, **machine) -> MachineAnswer:
    return machine_answer(page.releases, Machine(**machine))


def fit(result: MachineAnswer, version: str) -> ReleaseFit:
    return next(f for f in result.fits if f.version == version)


def codes(found) -> list[str]:
    return [r.code for r in found]


def index(tag: str) -> str:
    return f"--index-url https://download.pytorch.org/whl/{tag}"


# --- machines with known answers -------------------------------------------------------------------------------


def test_gtx_1080_with_driver_535_gets_2_14_from_the_cu126_index(page):
    # Pascal 6.x: last release 2.14, "cu126; PyPI default OK through 2.7 only" (hardware.md §2, #190385 ✅, B28 ✅);
    # docs/.hardware.yml: cu126 of 2.9-2.14 carries 6.0 (GH-164471, GH-182849), the cu130/cu132 builds start at 7.5;
    # NVIDIA's rule runs 6.0 code on 6.1 (Ada compatibility guide); 12.x needs driver 525 (NVM); 2.15 has no cp310
    # (PyPI: 3.11-3.15).
    result = answer(page, os="linux-x86_64", python="3.10", gpu="6.1", driver="535")
    assert result.best == "2.14"
    best = fit(result, "2.14")
    assert best.tag == "cu126" and best.command.endswith(index("cu126")) and "torch==2.14.1" in best.command
    assert [r.get("sm") for r in best.reasons if r.code == "arch"] == ["sm_61"]  # why not PyPI's cu130
    assert codes(fit(result, "2.15").reasons) == ["python"]
    # PyPI's own wheel still carried Pascal through 2.7 (cu126: 5.0-9.0).
    assert (
        fit(result, "2.7").tag == "PyPI cu126"
        and fit(result, "2.7").command == "pip install torch==2.7.1 torchvision==0.22.1 torchaudio==2.7.1"
    )


def test_rtx_4090_with_driver_580_gets_2_15(page):
    # Ada 8.9 runs 8.6 code (Ada compatibility guide); 2.15's PyPI wheel is CUDA 13.2 (PyPI), its cu130/cu132 builds
    # carry 7.5-12.0 (derived from 2.14's builds of the same CUDA: the 2.15 RFC, GH-190385, confirms nothing below
    # 7.5), and 13.x needs driver 580 (NVM). 2.14's PyPI wheel (13.0, GH-182849) runs too.
    result = answer(page, os="linux-x86_64", gpu="8.9", driver="580")
    assert result.best == "2.15" and result.maybe_newer is None
    assert fit(result, "2.15").command == "pip install torch==2.15.0 torchvision==0.29.2 torchaudio==2.11.0"
    assert fit(result, "2.14").command == "pip install torch==2.14.1 torchvision==0.29.1 torchaudio==2.11.0"


def test_k80_gets_2_7_from_the_cu118_index(page):
    # Kepler 3.7: "sm_37 only in cu11.8 builds from 2.1; cu118 last shipped in 2.7" (hardware.md §2, BLD ✅,
    # #147383 ✅); the newer releases install for the CPU only.
    result = answer(page, os="linux-x86_64", gpu="3.7")
    assert result.best == "2.7" and result.cpu_newer == "2.15"
    assert fit(result, "2.7").command.endswith(index("cu118"))
    assert fit(result, "2.8").status == "cpu" and fit(result, "2.8").command.endswith(index("cpu"))


def test_kepler_3_5_ends_with_1_3(page):
    # sm_35 leaves the pip wheels in 1.4 (base list 3.7+PTX;5.0; hardware.md §2, BLD 2d91d533 🔶).
    result = answer(page, os="linux-x86_64", gpu="3.5")
    assert result.best == "1.3" and fit(result, "1.3").tag == "PyPI cu101"


def test_driver_470_gets_the_newest_release_with_a_cuda_11_build(page):
    # 470 is in the 11.x band (>= 450.80.02, < 525: NVIDIA minor version compatibility); CUDA 11.8 builds last
    # shipped in 2.7 (#147383); 2.8 on has only 12.x/13.x builds.
    result = answer(page, os="linux-x86_64", driver="470")
    assert result.best == "2.7" and fit(result, "2.7").tag == "cu118"
    assert {r.get("need") for r in fit(result, "2.8").reasons if r.code == "driver"} == {"525"}


def test_glibc_2_26_gets_2_6(page):
    # "a glibc <2.28 system's newest pip-installable torch is 2.6.x" (hardware.md §4; 2.7-2.15 are tagged
    # manylinux_2_28 on PyPI, #126551 names Amazon Linux 2, glibc 2.26).
    result = answer(page, os="linux-x86_64", glibc="2.26")
    assert result.best == "2.6"
    assert [(r.code, r.get("need")) for r in fit(result, "2.7").reasons] == [("glibc", "2.28")]


def test_an_intel_mac_gets_2_2(page):
    # "last Intel = 2.2.2" (hardware.md §5, #114602, #131766 ✅); its wheels are macosx_10_9 (PyPI tags), which pip
    # installs on macOS 10.9 and later.
    result = answer(page, os="macos-x86_64", macos="10.15")
    assert (
        result.best == "2.2"
        and fit(result, "2.2").command == "pip install torch==2.2.2 torchvision==0.17.2 torchaudio==2.2.2"
    )
    assert [(r.code, r.get("kind"), r.get("release")) for r in fit(result, "2.3").reasons] == [
        ("platform", "after", "2.2.2")
    ]


def test_apple_silicon_on_macos_13_gets_the_release_before_the_macos_14_wheels(page):
    # 2.12-2.15: macosx_14_0 for every wheel (hardware.md §5, PyPI tags); 2.11's are macosx_11_0.
    result = answer(page, os="macos-arm64", macos="13")
    assert result.best == "2.11"
    assert [(r.code, r.get("need")) for r in fit(result, "2.12").reasons] == [("macos", "14.0")]


def test_apple_gpu_on_macos_13(page):
    # MPS: 1.12 with macOS 12.3 (the MPS post), raised later at a release no source pins (hardware.md §5 ❌), macOS
    # 14 from 2.9 (#162921 ✅): 1.12 runs; 1.13-2.8 can't be told; 2.9-2.11 install but run on the CPU only.
    result = answer(page, os="macos-arm64", macos="13", gpu="mps")
    assert (result.best, result.maybe_newer, result.cpu_newer) == ("1.12", "2.8", "2.11")
    assert [(r.code, r.get("need")) for r in fit(result, "2.9").reasons] == [("mps-macos", "14.0")]
    assert codes(fit(result, "2.8").reasons) == ["mps-unsure"]


def test_windows_with_an_nvidia_gpu_gets_the_index_never_pypis_cpu_wheel(page):
    # PyPI's win_amd64 wheels are all CPU builds; CUDA on Windows only from the index (hardware.md §6, PV1/PV2 ✅);
    # 2.14's Windows cu130 list has 8.6 (GH-182849); the release's default CUDA (PyPI's Linux 13.0) comes first.
    # 2.15's Windows cu132 build (its default CUDA, 13.2) is inferred from 2.14's (GH-190385).
    result = answer(page, os="windows", gpu="8.6", python="3.12")
    assert result.best == "2.15"
    assert fit(result, "2.15").command.endswith(index("cu132"))
    assert fit(result, "2.14").command.endswith(index("cu130"))
    for f in result.fits:
        if f.status == "runs":
            assert "--index-url" in f.command or "torch_stable" in f.command, f
    # Windows architecture lists are documented from 2.9 on only: earlier releases are "can't say".
    assert fit(result, "2.8").status == "maybe" and codes(fit(result, "2.8").reasons) == ["archs-unknown"]


def test_python_3_9_gets_the_last_release_with_cp39_wheels(page):
    # 2.7-2.8: 3.9-3.13; 2.9 on: 3.10 and later (hardware.md §6, PyPI).
    result = answer(page, os="linux-x86_64", python="3.9")
    assert result.best == "2.8"
    assert [(r.code, r.get("have")) for r in fit(result, "2.9").reasons] == [("python", "3.10–3.14")]


def test_free_threaded_3_13t_ends_before_2_12_1(page):
    # cp313t wheels from 2.7.0, dropped in 2.12.1 (hardware.md §8, PyPI); 2.12's command installs 2.12.1.
    result = answer(page, os="linux-x86_64", python="3.13t")
    assert result.best == "2.11" and fit(result, "2.7").status == "runs" and fit(result, "2.6").status == "no"


def test_on_2023_06_01_the_newest_release_was_2_0(page):
    # 2.0 was released on 2023-03-15, 2.1 on 2023-10-04 (their official posts); 2.0.1 reached PyPI on 2023-05-08.
    result = answer(page, os="linux-x86_64", date="2023-06-01")
    assert result.best == "2.0" and result.newest_then == "2.0"
    assert fit(result, "2.1").later and not fit(result, "2.0").later
    early = answer(page, os="linux-x86_64", date="2023-04-01")
    assert ("patch-later", "2.0.1") in [(n.code, n.get("patch")) for n in fit(early, "2.0").notes]


def test_volta_leaves_pypis_wheel_after_2_10(page):
    # Volta 7.0: "PyPI default OK through 2.10 (cu128)", cu128 loses Volta in 2.11, last release 2.14 (cu126)
    # (hardware.md §2, #172352 ✅, #190385 ✅).
    result = answer(page, os="linux-x86_64", gpu="7.0")
    assert fit(result, "2.10").tag == "PyPI cu128" and fit(result, "2.11").tag == "cu126"
    assert result.best == "2.14" and fit(result, "2.14").tag == "cu126"


def test_blackwell_starts_with_2_7s_experimental_cu128(page):
    # "Blackwell sm_100/sm_120 added 2.7 (cu128 only); in PyPI default from 2.8" (hardware.md §2, MOI 🔶);
    # 12.8 was experimental in 2.7 (#145544 ✅).
    result = answer(page, os="linux-x86_64", gpu="12.0")
    assert fit(result, "2.7").tag == "cu128" and codes(fit(result, "2.7").notes)[:2] == ["needs-glibc", "needs-driver"]
    assert "experimental" in codes(fit(result, "2.7").notes)
    assert fit(result, "2.8").tag == "PyPI cu128"
    assert fit(result, "2.6").status == "cpu"


def test_a_grace_hopper_arm_machine_gets_pypis_cuda_wheel_from_2_11(page):
    # Linux aarch64: PyPI's wheel is CUDA-enabled from 2.11 (13.0; hardware.md §8, EV) with 8.0-12.0 (GH-172663,
    # GH-182849); before it, the aarch64 wheel is a CPU build.
    result = answer(page, os="linux-aarch64", gpu="9.0")
    assert result.best == "2.15" and fit(result, "2.11").tag == "PyPI cu130" and fit(result, "2.15").tag == "PyPI cu132"
    assert fit(result, "2.10").status == "cpu" and codes(fit(result, "2.10").reasons) == ["cuda-none"]


def test_amd_and_intel_gpus(page):
    # ROCm: Linux x86_64 only (PV1/PV2 ✅); 2.14's ROCm build as its page writes it. Intel GPU (XPU) wheels from 2.5
    # on Linux and Windows, on their own index, with no command in the sources (XPU-DOCS).
    rocm = answer(page, os="linux-x86_64", gpu="rocm")
    assert rocm.best == "2.14" and fit(rocm, "2.14").command.endswith(index("rocm7.14"))
    windows = answer(page, os="windows", gpu="rocm")
    assert windows.best is None and codes(fit(windows, "2.14").reasons) == ["rocm-none"]
    xpu = answer(page, os="linux-x86_64", gpu="xpu")
    assert xpu.best == "2.15" and fit(xpu, "2.15").tag == "xpu" and fit(xpu, "2.15").command is None
    assert codes(fit(xpu, "2.4").reasons) == ["xpu-before"]


def test_windows_before_1_7_and_releases_before_1_0(page):
    # PyPI's Windows wheels start with 1.7.0 (hardware.md §6); 1.0-1.1 had no index command to copy; before 1.0
    # the official page gives no pip command (scripts/verdicts/install.py).
    result = answer(page, os="windows")
    assert [(r.code, r.get("kind"), r.get("release")) for r in fit(result, "1.1").reasons] == [
        ("platform", "before", "1.7.0")
    ]
    assert fit(result, "1.2").tag == "cpu" and fit(result, "1.2").status == "runs"
    assert codes(fit(result, "0.4").reasons) == ["no-pip"]


def test_every_answer_comes_from_the_facts_not_from_a_table_of_answers(page):
    """Removing a fact changes the answer: 2.14's cu126 build without its architecture list makes Pascal 'maybe'."""
    from dataclasses import replace

    releases = list(page.releases)
    at = next(i for i, r in enumerate(releases) if r.version == "2.14")
    builds = tuple(replace(b, archs=None) if b.tag == "cu126" else b for b in releases[at].builds)
    releases[at] = replace(releases[at], builds=builds)
    result = machine_answer(tuple(releases), Machine(os="linux-x86_64", gpu="6.1"))
    assert fit(result, "2.14").status == "maybe" and result.best == "2.13"


# --- the query -------------------------------------------------------------------------------------------------

PYTHONS = ("3.9", "3.10", "3.13t")
RELEASES = ("2.14", "2.0")


def parse(query: str):
    return parse_query(query, PYTHONS, RELEASES)


def test_a_query_is_read_as_urlsearchparams_reads_it():
    parsed = parse("?os=linux-x86_64&python=3.10&gpu=7.5&driver=535.104&os=windows&utm=x&release=2.14")
    assert parsed.machine == Machine(os="linux-x86_64", python="3.10", gpu="7.5", driver="535.104")
    assert parsed.release == "2.14" and parsed.problems == ()
    assert parse("os=macos-arm64&macos=14.4&python=3.13t").machine == Machine("macos-arm64", "3.13t", macos="14.4")
    assert parse("os=linux-x86_64&date=2023-06-01&glibc=2.28").machine.date == "2023-06-01"
    # An empty field is no value (a form sends every field).
    assert parse("os=windows&python=&gpu=&driver=").problems == ()


@pytest.mark.parametrize(
    "query, problem",
    [
        ("os=beos", ("os", "beos", "unknown")),
        ("os=linux-x86_64&python=3.99", ("python", "3.99", "unknown")),
        ("os=linux-x86_64&python=three", ("python", "three", "invalid")),
        ("os=linux-x86_64&gpu=nvidia", ("gpu", "nvidia", "invalid")),
        ("os=linux-x86_64&gpu=0.5", ("gpu", "0.5", "invalid")),
        ("os=linux-x86_64&driver=535.104.05.1", ("driver", "535.104.05.1", "invalid")),
        ("os=linux-x86_64&glibc=2.x", ("glibc", "2.x", "invalid")),
        ("os=linux-x86_64&glibc=２.28", ("glibc", "２.28", "invalid")),  # full-width digits are no version
        ("os=linux-x86_64&glibc=2.28%0A", ("glibc", "2.28\n", "invalid")),
        ("os=linux-x86_64&date=2023-02-29", ("date", "2023-02-29", "invalid")),
        ("os=linux-x86_64&release=9.9", ("release", "9.9", "unknown")),
        ("os=windows&glibc=2.28", ("glibc", "2.28", "not-this-os")),
        ("os=linux-x86_64&macos=14", ("macos", "14", "not-this-os")),
        ("os=linux-x86_64&gpu=mps", ("gpu", "mps", "mps-macos")),
        ("os=linux-x86_64&gpu=rocm&driver=535", ("driver", "535", "not-nvidia")),
        ("os=linux-x86_64&driver=" + "5" * 70, ("driver", "5" * 40, "invalid")),
    ],
)
def test_unknown_and_invalid_values_are_reported_and_left_out(query, problem):
    parsed = parse(query)
    assert [(p.key, p.value, p.code) for p in parsed.problems] == [problem]
    if parsed.machine is not None:
        assert getattr(parsed.machine, problem[0], None) in (None, "linux-x86_64", "windows")


def test_without_an_os_there_is_no_machine_but_the_other_values_are_kept():
    parsed = parse("python=3.10&gpu=8.6")
    assert parsed.machine is None and parsed.values == (("python", "3.10"), ("gpu", "8.6"))


# --- the tables ------------------------------------------------------------------------------------------------


def test_the_tables_are_the_verdict_asked_per_gpu_driver_glibc_and_macos(page):
    tables = page.tables
    pascal = next(r for r in tables.gpus if r.label == "6.1")
    assert pascal.name == "Pascal" and dict(pascal.fits)["linux-x86_64"].version == "2.14"
    for row in tables.gpus:
        for platform, cell in row.fits:
            expected = answer(page, os=platform, gpu=row.label)
            assert (cell.version if cell else None) == expected.best
    band = next(r for r in tables.drivers if r.name == "11.x")
    assert dict(band.fits)["linux-x86_64"].version == "2.7"
    assert [r.label for r in tables.glibc] == ["2.28", "2.17", "2.5"]
    assert dict(tables.glibc[1].fits)["linux-x86_64"].version == "2.6"
    assert dict(next(r for r in tables.macos if r.label == "10.9").fits)["macos-x86_64"].version == "2.0"
    assert page.conda and page.conda[0] == "2.5"  # the pytorch channel's last release (#138506)
