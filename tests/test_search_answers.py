"""The search engine's answers to questions about one release (docs/assets/javascripts/search/engine.js), run in
Node on indexes that scripts/views/search_index.py builds: a compatibility question opens the release's row of the
matrix, an install question the release's install section with the compute platform it names chosen (the picker's
`compute` values), and an API name glossed in Chinese counts as said once."""

from __future__ import annotations

import json

import pytest
from test_search_engine import node

from scripts.views.search_index import (
    FLAG_INSTALL,
    FLAG_INTRODUCES,
    FLAG_RELEASE_ROW,
    FLAG_SUPPORT,
    Document,
    build_index,
    split_index,
)

RELEASES = ["2.15", "2.14", "1.12", "1.9", "1.8"]
INSTALL = {
    "1.12": ["default", "cpu", "cuda-11.3", "cuda-11.6", "rocm-5.0"],
    "2.14": ["default", "cpu", "cuda-12.6", "cuda-13.0"],
}
ROW = FLAG_SUPPORT | FLAG_RELEASE_ROW
DOCS = {
    "zh": [
        Document("releases/2.15/", "PyTorch 2.15：临时条目", "PyPI 上的 Python 3.11–3.15。", keywords="2.15"),
        Document("releases/2.14/", "PyTorch 2.14：NVGEMM", "支持 Python 3.10–3.14；2.15 将移除 CUDA 12.6。", keywords="2.14"),
        Document("releases/2.14/#install", "安装", "pip install torch==2.14.1", FLAG_INSTALL),
        Document("releases/1.12/", "PyTorch 1.12：函数式模块调用", "Mac GPU 训练。", keywords="1.12"),
        Document("releases/1.12/#install", "安装", "pip install torch==1.12.1 CPU CUDA 11.3", FLAG_INSTALL),
        Document("releases/1.9/", "PyTorch 1.9", "torch.linalg 转正。", keywords="1.9"),
        Document("releases/1.9/#inference-mode", "Inference Mode API", "torch.inference_mode 省掉自动微分的簿记。", FLAG_INTRODUCES),
        Document("releases/1.13/#better-transformer", "BetterTransformer", "推理模式下用 inference_mode 加速推理；模式切换。"),
        Document("support/", "支持终止时间线", "各 Python 版本支持到哪个版本：3.10 到 2.14。", FLAG_SUPPORT),
        Document("compatibility/", "版本兼容性矩阵", "每个版本的 Python、CUDA。", FLAG_SUPPORT),
        Document("compatibility/#compat-2-15", "PyTorch 2.15 的兼容性：Python、CUDA", "2.15 3.11–3.15 CUDA 13.2 0.29.2", ROW),
        Document("compatibility/#compat-2-14", "PyTorch 2.14 的兼容性：Python、CUDA", "2.14 3.10–3.14 CUDA 13.0 0.29.0", ROW),
        Document("compatibility/#compat-1-12", "PyTorch 1.12 的兼容性：Python、CUDA", "1.12 3.7–3.10 CUDA 10.2 0.13.1", ROW),
    ],
    "en": [
        Document("en/releases/2.15/", "PyTorch 2.15 (provisional)", "Python 3.11–3.15 on PyPI.", keywords="2.15"),
        Document("en/releases/2.14/", "PyTorch 2.14: NVGEMM", "Python 3.10–3.14; 2.15 drops CUDA 12.6.", keywords="2.14"),
        Document("en/releases/2.14/#install", "Install", "pip install torch==2.14.1", FLAG_INSTALL),
        Document("en/releases/1.12/", "PyTorch 1.12: functional calls", "Mac GPU training.", keywords="1.12"),
        Document("en/releases/1.12/#install", "Install", "pip install torch==1.12.1 CPU CUDA 11.3", FLAG_INSTALL),
        Document("en/support/", "End-of-support timeline", "Which Python each release supports: 3.10 until 2.14.", FLAG_SUPPORT),
        Document("en/compatibility/", "Compatibility matrix", "Python and CUDA of every release.", FLAG_SUPPORT),
        Document("en/compatibility/#compat-2-15", "PyTorch 2.15 compatibility: Python, CUDA", "2.15 3.11–3.15", ROW),
        Document("en/compatibility/#compat-1-12", "PyTorch 1.12 compatibility: Python, CUDA", "1.12 3.7–3.10", ROW),
    ],
}  # fmt: skip


def ask(lang: str, query: str, releases=RELEASES, install=INSTALL, split: bool = False) -> list[list[dict]]:
    """The groups of a query on indexes built with the release list and install choices (whole, or in parts)."""
    indexes = {lg: build_index(docs, lg, None, releases, install) for lg, docs in DOCS.items()}
    parts = [p for index in indexes.values() for p in (split_index(index).values() if split else [index])]
    script = (
        f"const e = new S.Engine({json.dumps(lang)}); {json.dumps(parts, ensure_ascii=False)}.forEach(d => e.add(d));"
        f"console.log(JSON.stringify(e.search({json.dumps(query)})));"
    )
    return node(script, {})


@pytest.mark.parametrize(
    "lang, query, row",
    [
        ("en", "which python does 2.15 support", "en/compatibility/#compat-2-15"),
        ("en", "which python does 1.12 support", "en/compatibility/#compat-1-12"),
        ("en", "torchvision for 1.12", "en/compatibility/#compat-1-12"),
        ("zh", "2.15 支持哪些 python", "compatibility/#compat-2-15"),
        ("zh", "PyTorch 2.14 兼容哪些 CUDA", "compatibility/#compat-2-14"),
    ],
)
def test_a_compatibility_question_about_one_release_opens_its_matrix_row_then_its_page(lang, query, row):
    groups = ask(lang, query)
    assert [item["location"] for item in groups[0]] == [row], groups[0]
    version = row.rsplit("compat-", 1)[1].replace("-", ".")
    assert groups[1][0]["location"] == f"{'en/' if lang == 'en' else ''}releases/{version}/"
    assert version in groups[0][0]["title"]
    # The row is not offered again under the matrix's own group.
    assert all(item["location"] != row for group in groups[1:] for item in group)


@pytest.mark.parametrize(
    "query",
    [
        "python 3.12",  # a Python version, not a release
        "which releases support CUDA 12.1",  # a CUDA version
        "torchvision 0.15",
        "2.15",  # a release, but no compatibility word
        "python support in 1.12 and 2.14",  # two releases
    ],
)
def test_no_row_answer_without_exactly_one_release_and_a_compatibility_word(query):
    groups = ask("en", query)
    assert not (groups and "#compat-" in groups[0][0]["location"] and len(groups[0]) == 1), groups[:2]


def test_versions_of_other_things_are_not_releases():
    named = node(
        "console.log(JSON.stringify(["
        "'which python does 2.15 support', 'python 3.12 on 1.12', 'cuda 12.6 with 2.14', 'torchvision 0.15', 'cu118 1.12'"
        "].map(q => S.releasesNamed(S.normalize(q), ['2.15', '2.14', '1.12', '0.15', '3.12']))))"
    )
    assert named == [["2.15"], ["1.12"], ["2.14"], [], ["1.12"]]


@pytest.mark.parametrize(
    "query, choice",
    [
        ("install 1.12 cpu", "cpu"),
        ("怎么安装 1.12 的 CPU 版本", "cpu"),
        ("install 1.12 with cuda 11.6", "cuda-11.6"),
        ("pip install 1.12 cu113", "cuda-11.3"),
        ("install 1.12 cuda", "cuda-11.6"),  # no version: the newest the release offers
        ("1.12 用 ROCm 怎么安装", "rocm-5.0"),
        ("install 1.12 rocm 5.0", "rocm-5.0"),
        ("install 1.12 with cuda 12.8", ""),  # not offered by 1.12: no choice made for the reader
        ("install 1.12", ""),
    ],
)
def test_an_install_question_opens_the_install_section_with_the_compute_platform_it_names(query, choice):
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in query) else "en"
    prefix = "en/" if lang == "en" else ""
    first = ask(lang, query)[0]
    assert len(first) == 1
    expected = f"{prefix}releases/1.12/" + (f"?compute={choice}" if choice else "") + "#install"
    assert first[0]["location"] == expected, first
    assert "1.12" in first[0]["title"]


def test_the_first_part_answers_release_questions_as_the_whole_index():
    for lang, query in (("en", "which python does 2.15 support"), ("zh", "怎么安装 1.12 的 CPU 版本")):
        whole = [g[0]["location"] for g in ask(lang, query)][:2]
        head_and_text = [g[0]["location"] for g in ask(lang, query, split=True)][:2]
        assert whole == head_and_text


def test_compute_choices_read_the_pickers_values():
    choices = node(
        "console.log(JSON.stringify([['cpu only please', ['default', 'cpu']], ['rocm 6.2', ['cpu', 'rocm-6.2.4']], "
        "['cuda', ['cpu']], ['no gpu here', ['cpu', 'cuda-12.1']]].map(([q, c]) => S.computeChoice(S.normalize(q), c))))"
    )
    assert choices == ["cpu", "rocm-6.2.4", "", "cpu"]


def test_an_api_name_glossed_in_chinese_finds_the_release_that_introduced_it():
    """ "inference_mode 推理模式": 1.9's section says torch.inference_mode but not 推理模式; a later page that
    happens to hold every Chinese word must not outrank it."""
    groups = ask("zh", "inference_mode 推理模式")
    assert groups[0][0]["location"] == "releases/1.9/", [g[0]["location"] for g in groups]
    # A Chinese query with no API name keeps needing its own words.
    assert ask("zh", "推理模式")[0][0]["location"] != "releases/1.9/"
