"""Unit tests of the search engine (docs/assets/javascripts/search/engine.js), run in Node: the same file
the browser's worker runs."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import ROOT

ENGINE = ROOT / "docs/assets/javascripts/search/engine.js"

DOCS = [
    {"location": "releases/1.0/", "title": "PyTorch 1.0", "text": "<p>分布式\u200b存储\u200b系统\u200b的\u200b设计</p>"},
    {"location": "releases/1.1/", "title": "PyTorch 1.1", "text": "<p>模型\u200b训练</p>"},
    {"location": "releases/1.2/", "title": "PyTorch 1.2", "text": "<p>分布式\u200b训练\u200b与\u200b数据\u200b并行</p>"},
    {"location": "en/releases/1.2/", "title": "PyTorch 1.2", "text": "<p>Distributed training and <code>torch.jit.fork</code> in 1.2</p>"},
    {"location": "en/releases/1.3/", "title": "PyTorch 1.3", "text": "<p>The release trains models; <code>channels_last</code> memory format.</p>"},
    {"location": "en/releases/1.3/#named-tensors", "title": "Named tensors", "text": "<p>Dimensions carry names.</p>"},
]


def node(script: str):
    if shutil.which("node") is None:
        pytest.fail("node is required for the search engine tests (it is on every machine of this project)")
    program = f"const S = require({json.dumps(str(ENGINE))}); const DOCS = {json.dumps(DOCS, ensure_ascii=False)};\n" + script
    result = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def pages(lang: str, query: str) -> list[str]:
    return node(f"const i = new S.Index(DOCS, {json.dumps(lang)}); console.log(JSON.stringify(i.search({json.dumps(query)}).map(g => g[0].location)));")


def test_stemming_is_the_same_for_inflections():
    stems = node('console.log(JSON.stringify(["training","trained","trains","train","releases","release","deprecated","deprecate","features","feature"].map(S.stem)))')
    assert stems[0] == stems[1] == stems[2] == stems[3]
    assert stems[4] == stems[5] and stems[6] == stems[7] and stems[8] == stems[9]


def test_han_text_is_indexed_as_characters_and_bigrams():
    tokens = node('console.log(JSON.stringify(S.indexTokens("存储\\u200b系统")))')
    assert tokens == ["存", "存储", "储", "储系", "系", "系统", "统"]


def test_api_names_and_versions_are_kept_whole_and_split():
    tokens = node('console.log(JSON.stringify(S.indexTokens("torch.jit.fork and 1.6, channels_last")))')
    assert {"torch.jit.fork", "torch", "jit", "fork", "1.6", "channels_last", "channel", "last"} <= set(tokens)


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


def test_reader_language_first_other_language_marked():
    groups = node('const i = new S.Index(DOCS, "en"); console.log(JSON.stringify(i.search("1.2").map(g => [g[0].location, g[0].title])));')
    assert groups[0][0].startswith("en/")
    other = [title for location, title in groups if not location.startswith("en/")]
    assert other and all('class="search-other-language">中文<' in title for title in other)


def test_highlight_marks_text_and_keeps_tags():
    html = node('const u = S.queryUnits("数据并行"); const m = {}; u.forEach(x => m[x.key] = true); console.log(JSON.stringify(S.highlight("<p class=\\"数据\\">做数据并行</p>", u, m)))')
    assert html == '<p class="数据">做<mark>数据并行</mark></p>'


def test_worker_protocol_setup_then_query():
    messages = node(
        """
        const sent = []; const listeners = [];
        const fake = { addEventListener: (t, f) => listeners.push(f), postMessage: m => sent.push(m), SEARCH_LANG: "zh", TIMELINE_SEARCH_WORKER: true };
        const vm = require("vm"); const fs = require("fs");
        vm.runInNewContext(fs.readFileSync(%s, "utf8"), { self: fake, module: undefined });
        listeners[0]({ data: { type: 0, data: { config: {}, docs: DOCS, options: {} } } });
        listeners[0]({ data: { type: 2, data: "训练" } });
        console.log(JSON.stringify(sent.map(m => [m.type, m.data ? m.data.items.length : null])));
        """
        % json.dumps(str(ENGINE))
    )
    assert messages[0] == [1, None] and messages[1][0] == 3 and messages[1][1] >= 2


def test_group_starts_with_its_page_even_when_only_a_section_matched():
    groups = node('const i = new S.Index(DOCS, "en"); console.log(JSON.stringify(i.search("dimensions")));')
    assert [item["location"] for item in groups[0]] == ["en/releases/1.3/", "en/releases/1.3/#named-tensors"]
    assert groups[0][0]["terms"] == {"dimensions": False} and groups[0][1]["terms"] == {"dimensions": True}
    assert groups[0][1]["parent"]["location"] == "en/releases/1.3/"
