"""Unit tests of the search engine (docs/assets/javascripts/search/engine.js), run in Node (the same file the
browser's worker runs) on indexes that scripts/views/search_index.py builds, as the site's build does: whole, and
split in the two parts the worker loads one after the other (the first answer from titles, versions and
API names; the full text behind it)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import ROOT

from scripts.views.search_index import (
    FLAG_INSTALL,
    FLAG_INTRODUCES,
    FLAG_SUPPORT,
    Document,
    build_index,
    index_script,
    latin_tokens,
    script_key,
    split_index,
    stem,
)

ENGINE = ROOT / "docs/assets/javascripts/search/engine.js"

ZH = [
    Document("releases/1.0/", "PyTorch 1.0", "分布式存储系统的设计"),
    Document("releases/1.1/", "PyTorch 1.1", "模型训练"),
    Document("releases/1.2/", "PyTorch 1.2", "分布式训练与数据并行"),
]
EN = [
    Document("en/releases/1.2/", "PyTorch 1.2", "Distributed training and torch.jit.fork in 1.2"),
    Document("en/releases/1.3/", "PyTorch 1.3", "The release trains models; channels_last memory format."),
    Document("en/releases/1.3/#named-tensors", "Named tensors", "Dimensions carry names."),
]


def node(script: str, indexes: dict[str, list[Document]] | None = None, upgrade: dict[str, dict] | None = None):
    if shutil.which("node") is None:
        pytest.fail("node is required for the search engine tests (it is on every machine of this project)")
    data = {
        lang: build_index(docs, lang, (upgrade or {}).get(lang))
        for lang, docs in (indexes or {"zh": ZH, "en": EN}).items()
    }
    parts = {lang: split_index(index) for lang, index in data.items()}
    scripts = {
        lang: {part: index_script(data, script_key(lang, part)) for part, data in split.items()}
        for lang, split in parts.items()
    }
    program = (
        f"const S = require({json.dumps(str(ENGINE))}); const DATA = {json.dumps(data, ensure_ascii=False)};\n"
        f"const PARTS = {json.dumps(parts, ensure_ascii=False)}; const SCRIPTS = {json.dumps(scripts, ensure_ascii=False)};\n"
        + script
    )
    result = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def search(lang: str, query: str, indexes=None, upgrade=None) -> list[list[dict]]:
    script = f"const e = new S.Engine({json.dumps(lang)}); Object.values(DATA).forEach(d => e.add(d)); console.log(JSON.stringify(e.search({json.dumps(query)})));"
    return node(script, indexes, upgrade)


def pages(lang: str, query: str, indexes=None, upgrade=None) -> list[str]:
    return [group[0]["location"] for group in search(lang, query, indexes, upgrade)]


# --- the tokenizer, on both sides -----------------------------------------------------------------------

WORDS = ["training", "trained", "trains", "train", "releases", "release", "deprecated", "deprecate", "features", "feature",
         "studies", "compiles", "compiled", "compiling", "processes", "matches", "running", "stopped", "fuzz", "class", "is", "ops"]  # fmt: skip


def test_stemming_is_the_same_for_inflections_and_on_both_sides():
    stems = node(f"console.log(JSON.stringify({json.dumps(WORDS)}.map(S.stem)))")
    assert stems == [stem(w) for w in WORDS]
    assert stems[0] == stems[1] == stems[2] == stems[3]
    assert stems[4] == stems[5] and stems[6] == stems[7] and stems[8] == stems[9]


def test_api_names_and_versions_are_kept_whole_and_split():
    tokens = latin_tokens("torch.jit.fork and 1.6, channels_last; torch==2.0.1+cu118")
    assert {
        "torch.jit.fork",
        "torch",
        "jit",
        "fork",
        "1.6",
        "channels_last",
        "channel",
        "last",
        "2.0.1",
        "2.0",
        "cu118",
    } <= set(tokens)


def test_a_range_of_versions_holds_each_version():
    assert {"3.8", "3.9", "3.10", "3.11"} <= set(latin_tokens("Python: 3.8–3.11"))
    assert "3.10" not in latin_tokens("2023-03-08 to 2023-03-11")


TEXTS = [
    "torch.cuda.amp.autocast(device_type='cuda') and torch.load(weights_only=True)",
    "pip install torch==2.0.1+cu117 torchvision==0.15.2 --index-url https://download.pytorch.org/whl/cu117",
    "C++17, ROCm 5.4.2, Python 3.8–3.11, NHWC channels-last, x86_64 / aarch64",
    "The memory profiler records how much tensor memory each operator allocates.",
]


@pytest.mark.parametrize("text", TEXTS)
def test_what_the_engine_looks_up_for_a_text_is_what_the_index_holds_for_it(text):
    """The query side (JS) and the index side (Python) tokenize alike: typing a text finds it."""
    looked_up = node(
        f"console.log(JSON.stringify(S.queryUnits({json.dumps(text + ' ')}, {{keepStopWords: true}}).map(u => u.token)))"
    )
    assert looked_up and set(looked_up) <= set(latin_tokens(text))


# --- matching and ranking -------------------------------------------------------------------------------


def test_compound_typed_without_spaces_ranks_pages_with_all_words_first():
    assert pages("zh", "分布式训练")[0] == "releases/1.2/"
    assert pages("zh", "训练分布式")[0] == "releases/1.2/"  # another word order


def test_sub_words_match():
    assert "releases/1.0/" in pages("zh", "系统")  # from 存储系统
    assert "releases/1.2/" in pages("zh", "并行")  # from 数据并行


def test_inflected_english_words_match():
    # "trains" on 1.3 and "training" on 1.2 both match, and only English pages answer.
    assert set(pages("en", "training")) == {"en/releases/1.2/", "en/releases/1.3/"}
    assert pages("en", "releases")[0] == "en/releases/1.3/"


def test_api_name_and_version_queries():
    assert pages("en", "torch.jit.fork")[0] == "en/releases/1.2/"
    assert pages("en", "channels_last")[0] == "en/releases/1.3/"


def test_last_word_matches_as_a_prefix_while_typing():
    assert pages("en", "distrib")[0] == "en/releases/1.2/"
    assert pages("en", "distrib ") == []  # a finished word must match whole


def test_one_typo_in_a_longer_word_is_forgiven():
    indexes = {
        "en": [
            Document("en/releases/2.0/", "PyTorch 2.0", "torch.compile compiles a model"),
            Document("en/releases/1.0/", "PyTorch 1.0", "A complex tensor in eager mode"),
        ]
    }
    assert pages("en", "complie", indexes) == ["en/releases/2.0/"]  # two letters swapped
    assert pages("en", "compjle ", indexes) == ["en/releases/2.0/"]  # one letter wrong
    assert pages("en", "tensr ", indexes) == ["en/releases/1.0/"]  # one missing
    assert pages("en", "mdoe ", indexes) == []  # shorter words must be right
    assert pages("en", "complex", indexes) == ["en/releases/1.0/"]  # a known word is not "corrected"


def test_question_words_are_ignored_in_both_languages():
    units = node(
        'console.log(JSON.stringify(["which version added AMP", "哪个版本加入了 AMP", "AMP"].map(q => S.queryUnits(q).filter(u => !u.optional).map(u => u.key))))'
    )
    assert units[0] == units[1] == units[2] == ["amp"]
    # A page need not hold them, but one that does comes first.
    indexes = {
        "en": [
            Document("en/a/", "Profiler", "compare two traces"),
            Document("en/compare/", "Compare", "compare two releases"),
        ]
    }
    assert pages("en", "compare releases", indexes) == ["en/compare/", "en/a/"]
    assert search("en", "which version added AMP", {"en": [Document("en/1.6/", "AMP", "amp")]})[0][0]["terms"] == {
        "amp": True
    }
    # Only question words: they are what there is to search.
    assert node('console.log(JSON.stringify(S.queryUnits("版本").map(u => u.key)))') == ["版本"]


def test_now_in_a_question_asks_about_today():
    """现在/目前 and now/currently are read as 今天/today (现在 no longer loses its 在 to the question words), and 今天
    also finds a document that says 目前, below one that says 今天."""
    units = node(
        'console.log(JSON.stringify(["现在支持哪些 Python 版本", "目前支持哪些 Python 版本", "今天支持哪些 Python 版本",'
        ' "which Python versions are supported now", "which Python versions are currently supported"]'
        ".map(q => S.queryUnits(q).filter(u => !u.optional).map(u => u.key))))"
    )
    assert units[0] == units[1] == units[2] and "今天" in units[0] and "现" not in units[0]
    assert "today" in units[3] and sorted(units[3]) == sorted(units[4])
    indexes = {
        "zh": [
            Document("zh/a/", "甲", "目前支持 Python 3.12"),
            Document("zh/b/", "乙", "今天支持 Python 3.12"),
            Document("zh/c/", "丙", "支持 CUDA"),
        ]
    }
    assert pages("zh", "现在支持哪些 Python 版本", indexes)[:2] == ["zh/b/", "zh/a/"]


def test_latest_finds_the_newest_release():
    indexes = {
        "zh": [
            Document("", "版本时间线", "最新版本是 PyTorch 2.1。"),
            Document("releases/2.0/", "PyTorch 2.0", "当时最新的编译器。", keywords="2.0"),
            Document("releases/2.1/", "PyTorch 2.1", "动态形状。", keywords="2.1 latest newest 最新 最近"),
        ],
        "en": [Document("en/releases/2.1/", "PyTorch 2.1", "Dynamic shapes.", keywords="2.1 latest newest 最新 最近")],
    }
    assert pages("zh", "最新版本", indexes)[0] == "releases/2.1/"
    assert pages("en", "latest release", indexes)[0] == "en/releases/2.1/"


def test_the_release_that_introduced_a_feature_outranks_later_mentions():
    later = "torch.compile gets faster; torch.compile works with more models."
    indexes = {
        "en": [
            Document("en/releases/2.1/", "PyTorch 2.1", ""),
            Document("en/releases/2.1/#compile-faster", "torch.compile", later),
            Document("en/releases/2.0/", "PyTorch 2.0", ""),
            Document(
                "en/releases/2.0/#torch-compile", "torch.compile", "torch.compile compiles a model.", FLAG_INTRODUCES
            ),
        ]
    }
    assert pages("en", "torch.compile", indexes)[0] == "en/releases/2.0/"


def test_a_section_titled_what_was_asked_outranks_one_that_only_mentions_it():
    indexes = {
        "en": [
            Document(
                "en/releases/2.4/#compile-python-3-12",
                "torch.compile on Python 3.12",
                "torch.compile now runs on Python 3.12.",
                FLAG_INTRODUCES,
            ),
            Document(
                "en/releases/2.0/#torch-compile", "torch.compile", "torch.compile compiles a model.", FLAG_INTRODUCES
            ),
        ]
    }
    assert [g[0]["location"] for g in search("en", "torch.compile", indexes)][0] == "en/releases/2.0/#torch-compile"


# A feature that happens to say "supports Python 3.12" and "install", and the pages that answer the questions.
VERSION_QUESTIONS = {
    "en": [
        Document("en/releases/2.4/", "PyTorch 2.4", "torch.compile on Python 3.12", keywords="2.4"),
        Document(
            "en/releases/2.4/#compile-python-3-12",
            "torch.compile supports Python 3.12",
            "torch.compile now supports Python 3.12; install the nightly.",
            FLAG_INTRODUCES,
        ),
        Document(
            "en/releases/1.8/", "PyTorch 1.8", "Complex autograd, pipelines and the ROCm wheels of 1.8.", keywords="1.8"
        ),
        Document(
            "en/releases/1.8/#rocm-wheels", "ROCm wheels", "Install the ROCm build of 1.8 with pip.", FLAG_INTRODUCES
        ),
        Document("en/releases/1.8/#install", "Install", "pip install torch==1.8.1 torchvision==0.9.1", FLAG_INSTALL),
        Document("en/support/", "End-of-support timeline", "When support for each Python version ended.", FLAG_SUPPORT),
        Document(
            "en/support/#python",
            "Python versions",
            "Python 3.12 first supported by 2.2, still supported. Python 3.11 from 2.0.",
            FLAG_SUPPORT,
        ),
        Document("en/compatibility/", "Compatibility matrix", "2.2 Python 3.8–3.12; 2.4 Python 3.8–3.12", FLAG_SUPPORT),
    ],
    "zh": [
        Document("releases/2.4/", "PyTorch 2.4", "Python 3.12 上的 torch.compile", keywords="2.4"),
        Document(
            "releases/2.4/#compile-python-3-12",
            "torch.compile 支持 Python 3.12",
            "torch.compile 现在支持 Python 3.12。",
            FLAG_INTRODUCES,
        ),
        Document("releases/1.8/", "PyTorch 1.8", "复数自动微分与 1.8 的 ROCm 安装包。", keywords="1.8"),
        Document("releases/1.8/#rocm-wheels", "ROCm 安装包", "用 pip 安装 1.8 的 ROCm 版本。", FLAG_INTRODUCES),
        Document("releases/1.8/#install", "安装", "pip install torch==1.8.1 torchvision==0.9.1", FLAG_INSTALL),
        Document("support/", "停止支持时间线", "各 Python 版本的支持何时结束。", FLAG_SUPPORT),
        Document("support/#python", "Python 版本", "Python 3.12 首个支持的版本 2.2，仍受支持。", FLAG_SUPPORT),
        Document("compatibility/", "版本兼容性矩阵", "2.2 Python 3.8–3.12；2.4 Python 3.8–3.12", FLAG_SUPPORT),
    ],
}


@pytest.mark.parametrize(
    "lang, query",
    [("zh", "哪个版本支持 Python 3.12"), ("en", "which version supports Python 3.12"), ("en", "Python 3.12 supported")],
)
def test_a_support_question_ranks_the_support_page_and_the_matrix_above_a_feature_that_says_it(lang, query):
    order = pages(lang, query, VERSION_QUESTIONS)
    assert order[0] in ("support/", "compatibility/", "en/support/", "en/compatibility/"), order
    assert order[0].startswith("en/") == (lang == "en")
    # Without a support word, "Python 3.12" is a topic like any other: the feature's release leads.
    assert pages(lang, "Python 3.12", VERSION_QUESTIONS)[0].endswith("releases/2.4/")


@pytest.mark.parametrize(
    "lang, query", [("zh", "安装 1.8"), ("en", "how to install pytorch 1.8"), ("en", "install 1.8")]
)
def test_an_install_question_lands_on_the_release_install_section(lang, query):
    """The group of the release comes first, and its install section is shown above Material's threshold
    (the page's score): a section scored below it is folded away under "more on this page"."""
    group = search(lang, query, VERSION_QUESTIONS)[0]
    prefix = "en/" if lang == "en" else ""
    assert group[0]["location"] == f"{prefix}releases/1.8/"
    assert group[1]["location"] == f"{prefix}releases/1.8/#install" and group[1]["score"] >= group[0]["score"], group
    # Not an install question: the page itself leads its sections.
    plain = search(lang, "1.8", VERSION_QUESTIONS)[0]
    assert all(item["score"] < plain[0]["score"] for item in plain[1:])


def test_question_kinds_need_their_words():
    kinds = node(
        "console.log(JSON.stringify(['安装 1.8', 'pip install torch', '支持 Python 3.12', 'supports python 3.12', 'support', 'python 3.12', "
        "'installer', 'unsupported 3.12'].map(S.answeringFlags)))"
    )
    assert kinds == [FLAG_INSTALL, FLAG_INSTALL, FLAG_SUPPORT, FLAG_SUPPORT, 0, 0, 0, 0]


UPGRADE = {
    "zh": {
        "location": "compare/",
        "title": "升级：PyTorch {from} → {to}",
        "text": "从 {from} 到 {to} 之间的变化",
        "versions": ["2.0", "1.13", "1.3", "1.2"],
    },
    "en": {
        "location": "en/compare/",
        "title": "Upgrade: PyTorch {from} → {to}",
        "text": "Changes between {from} and {to}",
        "versions": ["2.0", "1.13", "1.3", "1.2"],
    },
}


@pytest.mark.parametrize(
    "lang, query, expected",
    [
        ("zh", "从 1.13 升级到 2.0", "compare/?from=1.13&to=2.0"),
        ("zh", "1.2 到 1.3", "compare/?from=1.2&to=1.3"),
        ("zh", "迁移 2.0.1 1.13", "compare/?from=2.0&to=1.13"),  # a patch names its release; typed order kept
        ("en", "upgrade from 1.13 to 2.0", "en/compare/?from=1.13&to=2.0"),
        ("en", "v1.2 -> v1.3", "en/compare/?from=1.2&to=1.3"),
        ("en", "1.3 vs 2.0", "en/compare/?from=1.3&to=2.0"),
        ("en", "breaking changes 1.13 2.0", "en/compare/?from=1.13&to=2.0"),
    ],
)
def test_a_query_naming_two_releases_and_an_upgrade_offers_the_upgrade_view_first(lang, query, expected):
    groups = search(lang, query, upgrade=UPGRADE)
    first = groups[0][0]
    assert first["location"] == expected
    versions = expected.split("?")[1].replace("from=", "").replace("to=", "").split("&")
    assert versions[0] in first["title"] and versions[1] in first["title"] and versions[0] in first["text"]
    assert len(groups[0]) == 1 and all(g[0]["location"] != expected for g in groups[1:])


@pytest.mark.parametrize(
    "query",
    [
        "1.13",  # one release
        "1.2 1.3",  # two releases, no upgrade word or arrow
        "python 3.12 to 3.13",  # not PyTorch releases
        "upgrade 1.13 to 9.9",  # 9.9 has no page
        "upgrade 1.13 to 1.13",  # the same release twice
        "upgrade from 1.2 to 1.3 to 2.0",  # three: which two is not ours to guess
    ],
)
def test_no_upgrade_view_without_exactly_two_known_releases_and_an_upgrade(query):
    assert all("compare/" not in group[0]["location"] for group in search("en", query, upgrade=UPGRADE))


def test_no_upgrade_view_when_the_index_has_none():
    assert pages("en", "upgrade from 1.2 to 1.3") == pages(
        "en", "upgrade from 1.2 to 1.3", upgrade={"zh": UPGRADE["zh"]}
    )
    assert all("compare/" not in page for page in pages("en", "upgrade from 1.2 to 1.3"))


def test_the_upgrade_view_entry_is_escaped():
    hostile = {"en": {**UPGRADE["en"], "title": "<img src=x onerror=alert(1)> {from}", "text": "<b>{to}</b>"}}
    first = search("en", "upgrade 1.2 to 1.3", upgrade=hostile)[0][0]
    assert "<img" not in first["title"] and "&lt;img" in first["title"] and "<b>" not in first["text"]


def test_reader_language_first_other_language_marked():
    groups = search("en", "1.2")
    assert groups[0][0]["location"].startswith("en/")
    other = [g[0]["title"] for g in groups if not g[0]["location"].startswith("en/")]
    assert other and all('class="search-other-language">中文<' in title for title in other)


def test_group_starts_with_its_page_even_when_only_a_section_matched():
    groups = search("en", "dimensions")
    assert [item["location"] for item in groups[0]] == ["en/releases/1.3/", "en/releases/1.3/#named-tensors"]
    assert groups[0][0]["terms"] == {"dimensions": False} and groups[0][1]["terms"] == {"dimensions": True}
    assert groups[0][1]["parent"]["location"] == "en/releases/1.3/"


# --- what a result shows --------------------------------------------------------------------------------


def test_odd_length_chinese_query_is_marked_whole():
    """Bigrams 分布|布式|式训|训练 overlap: all five characters are marked, as one run."""
    item = search("zh", "分布式训练")[0][0]
    assert "<mark>分布式训练</mark>" in item["text"]


def test_a_compound_found_as_separate_words_is_not_reported_missing():
    indexes = {"en": [Document("en/releases/1.5/", "PyTorch 1.5", "Channels last memory format for vision models.")]}
    item = search("en", "channels_last", indexes)[0][0]
    assert item["terms"] == {"channels_last": True}
    assert "<mark>Channels</mark> <mark>last</mark>" in item["text"]


def test_a_long_section_shows_a_short_snippet_around_the_match():
    filler = "这一段讲的是别的事情，和查询没有关系。" * 40
    text = filler + "这里第一次提到混合精度训练，之后" + filler
    item = search("zh", "混合精度", {"zh": [Document("releases/1.6/", "PyTorch 1.6", text)]})[0][0]
    shown = item["text"].replace("<mark>", "").replace("</mark>", "")
    assert len(shown) < 120, shown  # about two lines, not the whole section
    assert shown.startswith("<p>…") and shown.endswith("…</p>")
    assert "<mark>混合精度</mark>" in item["text"]


def test_snippets_and_titles_are_escaped_text():
    indexes = {"en": [Document("en/x/", "Tensor<T> & co", "std::vector<int> <script>alert(1)</script> tensor")]}
    item = search("en", "tensor", indexes)[0][0]
    assert "<script>" not in item["text"] and "&lt;script&gt;" in item["text"]
    assert item["title"] == "<mark>Tensor</mark>&lt;T&gt; &amp; co"


# --- the two parts of an index ---------------------------------------------------------------------------


def search_parts(lang: str, query: str, parts: str, indexes=None) -> list[list[dict]]:
    """Search an engine holding `parts` ("head", or "head text") of each language's index."""
    adds = " ".join(f"Object.values(PARTS).forEach(p => e.add(p.{part}));" for part in parts.split())
    return node(
        f"const e = new S.Engine({json.dumps(lang)}); {adds} console.log(JSON.stringify(e.search({json.dumps(query)})));",
        indexes,
    )


QUERIES = [
    "1.2",
    "torch.jit.fork",
    "training",
    "distrib",
    "named tensors",
    "分布式训练",
    "系统",
    "channels_last",
    "dimensions",
]


@pytest.mark.parametrize("query", QUERIES)
def test_both_parts_answer_as_the_whole_index(query):
    for lang in ("zh", "en"):
        assert search_parts(lang, query, "head text") == search(lang, query)


def test_the_first_part_answers_titles_versions_and_api_names_without_the_text():
    assert [g[0]["location"] for g in search_parts("en", "1.2", "head")][0] == "en/releases/1.2/"  # a title
    assert [g[0]["location"] for g in search_parts("en", "named ten", "head")] == [
        "en/releases/1.3/"
    ]  # a heading, typed
    # An API name and a version only the text holds.
    assert [g[0]["location"] for g in search_parts("en", "torch.jit.fork", "head")] == ["en/releases/1.2/"]
    assert [g[0]["location"] for g in search_parts("en", "channels_last", "head")] == ["en/releases/1.3/"]
    # Words only the text holds wait for it, and so do snippets.
    assert search_parts("en", "dimensions", "head") == [] and search_parts("zh", "分布式", "head") == []
    assert all(item["text"] == "" for group in search_parts("en", "1.2", "head") for item in group)


def test_the_text_part_must_be_the_one_of_its_first_part():
    out = node(
        """
        const e = new S.Engine("en"); e.add(PARTS.en.head);
        const broken = { ...PARTS.en.text, texts: PARTS.en.text.texts.slice(1), count: PARTS.en.text.count - 1 };
        const errors = [];
        try { e.add(broken); } catch (error) { errors.push(String(error.message)); }
        try { new S.Engine("zh").add(PARTS.zh.text); } catch (error) { errors.push(String(error.message)); }
        console.log(JSON.stringify(errors));
        """
    )
    assert "text part holds 2 documents, its first part 3" in out[0] and "before its first part" in out[1]


def test_shown_groups_keep_their_places_and_new_ones_follow():
    shown = [[{"location": "a/"}], [{"location": "b/"}, {"location": "b/#x"}], [{"location": "c/"}]]
    fresh = [[{"location": "d/"}], [{"location": "b/", "text": "now with a snippet"}], [{"location": "a/"}]]
    out = node(f"console.log(JSON.stringify(S.keepShownOrder({json.dumps(shown)}, {json.dumps(fresh)})))")
    # a and b where they were (b as the new answer has it), c kept though no longer found, d after them.
    assert out == [
        [{"location": "a/"}],
        [{"location": "b/", "text": "now with a snippet"}],
        [{"location": "c/"}],
        [{"location": "d/"}],
    ]


# --- the worker -----------------------------------------------------------------------------------------

WORKER = """
const sent = []; const listeners = []; const fetched = []; const imported = [];
const HOLD = []; const FAIL = []; const held = {};
const partOf = url => { const m = /index\\.(\\w+)(\\.text)?\\.(json|js)$/.exec(url); return [m[1], m[2] ? "text" : "head"]; };
const fake = {
  addEventListener: (t, f) => listeners.push(f), postMessage: m => sent.push(m), setTimeout: (f) => setTimeout(f, 0),
  SEARCH_LANG: READER_LANG, SEARCH_INDEX: INDEX_URLS, TIMELINE_SEARCH_WORKER: true, location: { href: "https://site.example/assets/javascripts/search/worker.zh.js" },
  fetch: url => {
    fetched.push(url);
    const [lang, part] = partOf(url);
    if (FAIL.some(f => url.includes(f))) return Promise.reject(new TypeError("Failed to fetch " + url));
    const response = { ok: true, json: () => Promise.resolve(JSON.parse(JSON.stringify(PARTS[lang][part]))) };
    if (HOLD.some(h => url.includes(h))) return new Promise(resolve => { held[url] = () => resolve(response); });
    return Promise.resolve(response);
  },
  // The build's own scripts, run as a worker runs them.
  importScripts: url => { imported.push(url); const [lang, part] = partOf(url); new Function("self", SCRIPTS[lang][part])(fake); },
};
fake.self = fake;
const vm = require("vm"); const fs = require("fs");
vm.runInNewContext(fs.readFileSync(ENGINE, "utf8"), { self: fake, module: undefined, URL, Promise, setTimeout, fetch: fake.fetch });
const send = data => listeners[0]({ data });
// Until the worker is idle: nothing sent or requested for a few turns of the event loop (a loaded machine
// can take longer than any fixed wait between a part's arrival and the next request).
const settle = async () => {
  const state = () => sent.length + "/" + fetched.length + "/" + imported.length;
  for (let quiet = 0, last = ""; quiet < 3; ) {
    await new Promise(r => setTimeout(r, 10));
    const now = state();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
};
const release = name => { HOLD.splice(HOLD.indexOf(name), 1); Object.keys(held).filter(u => u.includes(name)).forEach(u => { held[u](); delete held[u]; }); };
const answers = () => sent.filter(m => m.type === 3).map(m => m.data.items.map(g => g[0].location));
const loaded = () => sent.filter(m => m.type === "loaded").map(m => m.data.lang + "." + m.data.part);
"""

HOSTED = {
    lang: {"head": f"../../../search/index.{lang}.json", "text": f"../../../search/index.{lang}.text.json"}
    for lang in ("zh", "en")
}
OFFLINE = {
    lang: {"head": f"../../../search/index.{lang}.js", "text": f"../../../search/index.{lang}.text.js"}
    for lang in ("zh", "en")
}
SITE = "https://site.example/search/"


def worker(script: str, index_urls: dict, indexes=None, lang: str = "zh") -> dict:
    prelude = (
        WORKER.replace("INDEX_URLS", json.dumps(index_urls))
        .replace("ENGINE", json.dumps(str(ENGINE)))
        .replace("READER_LANG", json.dumps(lang))
    )
    return node(prelude + "(async () => {" + script + "})();", indexes)


def test_worker_loads_its_language_part_by_part_on_the_first_query_then_the_other():
    result = worker(
        """
        send({ type: 0, data: { config: {}, docs: [], options: {} } });
        send({ type: 2, data: "" });  // Material sends the empty box on every page load
        const before = fetched.length;
        send({ type: 2, data: "1.2" });
        await settle();
        console.log(JSON.stringify({ before, fetched, loaded: loaded(), ready: sent[0].type, answers: answers() }));
        """,
        HOSTED,
    )
    assert result["before"] == 0  # nothing loads with the page
    assert result["fetched"] == [
        SITE + "index.zh.json",
        SITE + "index.zh.text.json",
        SITE + "index.en.json",
        SITE + "index.en.text.json",
    ]
    assert result["loaded"] == ["zh.head", "zh.text", "en.head", "en.text"]
    answers = result["answers"]
    assert result["ready"] == 1 and answers[0] == []
    assert answers[1] == ["releases/1.2/"]  # the first part of the reader's language answers first
    assert answers[-1][0] == "releases/1.2/" and "en/releases/1.2/" in answers[-1]


def test_the_first_answer_does_not_wait_for_the_text_and_the_text_answers_later():
    result = worker(
        """
        HOLD.push("index.zh.text");
        send({ type: 2, data: "1.2" });
        await settle();
        const first = { answers: answers(), loaded: loaded() };
        send({ type: 2, data: "训练" });  // only the text holds it
        await settle();
        const waiting = answers().slice(-1)[0];
        release("index.zh.text");
        await settle();
        console.log(JSON.stringify({ first, waiting, after: answers().slice(-1)[0], loaded: loaded() }));
        """,
        HOSTED,
    )
    assert result["first"] == {"answers": [["releases/1.2/"]], "loaded": ["zh.head"]}
    assert result["waiting"] == []
    assert set(result["after"]) >= {"releases/1.1/", "releases/1.2/"}
    assert result["loaded"][:2] == ["zh.head", "zh.text"]


# "compile cache": the first part knows only a heading that says "compile"; the text then finds a page with both
# words, which the whole index ranks first.
STREAMING = {
    "en": [
        Document("en/releases/2.0/", "PyTorch 2.0", "", keywords="2.0"),
        Document("en/releases/2.0/#compile", "Compile", "A new compiler."),
        Document(
            "en/releases/2.4/", "PyTorch 2.4", "The compile cache keeps compiled code between runs.", keywords="2.4"
        ),
    ],
    "zh": [Document("releases/2.4/", "PyTorch 2.4", "编译缓存", keywords="2.4")],
}


def test_the_full_text_keeps_the_results_on_screen_in_place_until_the_query_changes():
    result = worker(
        """
        HOLD.push("index.en.text");
        send({ type: 2, data: "compile cache" });
        await settle();
        const before = answers().slice(-1)[0];
        release("index.en.text");
        await settle();
        const same = answers().slice(-1)[0];
        send({ type: 2, data: "compile cache " });  // the next key
        await settle();
        console.log(JSON.stringify({ before, same, next: answers().slice(-1)[0] }));
        """,
        HOSTED,
        STREAMING,
        lang="en",
    )
    assert search("en", "compile cache", STREAMING)[0][0]["location"] == "en/releases/2.4/"  # the full ranking
    assert result["before"] == ["en/releases/2.0/"]
    assert result["same"][:2] == ["en/releases/2.0/", "en/releases/2.4/"]  # kept first; the new page follows
    assert result["next"][0] == "en/releases/2.4/"  # the next key ranks anew


def test_a_failed_text_part_keeps_the_first_answer_and_the_next_query_tries_again():
    result = worker(
        """
        FAIL.push("index.zh.text");
        let unhandled = 0;
        process.on("unhandledRejection", () => { unhandled++; });
        send({ type: 2, data: "1.2" });
        await settle();
        const first = answers();
        FAIL.length = 0;
        send({ type: 2, data: "训练" });
        await settle();
        console.log(JSON.stringify({ first, unhandled, fetched, after: answers().slice(-1)[0] }));
        """,
        HOSTED,
    )
    assert result["first"] == [["releases/1.2/"]]  # no empty answer after the failure
    assert (
        result["fetched"].count(SITE + "index.zh.text.json") == 2
        and result["fetched"].count(SITE + "index.zh.json") == 1
    )
    assert "releases/1.2/" in result["after"]
    assert result["unhandled"] == 1  # the failure is reported, not swallowed


def test_opening_search_loads_the_readers_language_and_offline_each_part_is_a_script():
    """docs/assets/javascripts/search/box.js says "open" when the reader opens search; from file:// the index
    parts are scripts (the iframe-worker shim cannot fetch)."""
    result = worker(
        """
        send({ type: 0, data: { config: {}, docs: [], options: {} } });
        await settle();
        const onSetup = imported.slice();
        send({ type: "open" });
        await settle();
        const onOpen = imported.slice();
        send({ type: 2, data: "训练" });
        await settle();
        console.log(JSON.stringify({ onSetup, onOpen, imported, last: answers().slice(-1)[0] }));
        """,
        OFFLINE,
    )
    assert result["onSetup"] == []  # Material's setup is no reason: hosted, it comes with every page view
    assert result["onOpen"] == [SITE + "index.zh.js", SITE + "index.zh.text.js"]
    assert result["imported"] == result["onOpen"] + [SITE + "index.en.js", SITE + "index.en.text.js"]
    assert len(result["last"]) >= 2


def test_a_query_after_search_opened_is_answered_at_once_then_with_the_other_language():
    result = worker(
        """
        send({ type: 0, data: { config: {}, docs: [], options: {} } });
        send({ type: "open" });
        await settle();
        send({ type: 2, data: "1.2" });
        await settle();
        console.log(JSON.stringify(answers()));
        """,
        HOSTED,
    )
    assert result[0] == ["releases/1.2/"]  # the reader's language, whole, at once
    assert result[-1] == ["releases/1.2/", "en/releases/1.2/"] and len(result) == 3  # + the other's two parts


def test_index_scripts_register_each_part():
    parts = split_index(build_index(ZH, "zh"))
    out = node(
        f"const g = {{}}; new Function('self', {json.dumps(index_script(parts['head'], 'zh'))})(g);"
        f"new Function('self', {json.dumps(index_script(parts['text'], 'zh.text'))})(g); console.log(JSON.stringify(g.TIMELINE_SEARCH_INDEX));"
    )
    assert out == json.loads(json.dumps({"zh": parts["head"], "zh.text": parts["text"]}, ensure_ascii=False))
    assert script_key("zh", "head") == "zh" and script_key("en", "text") == "en.text"
