"""The search index the build writes (scripts/views/search_index.py, overrides/hooks/lazy_search_index.py): page
sections as short plain-text documents, two parts per language (the first within its byte budget), nothing
Material indexes itself."""

from __future__ import annotations

import gzip
import json

import pytest

from scripts.catalog.history import feature_history
from scripts.views.search_index import (
    FLAG_INSTALL,
    FLAG_INTRODUCES,
    FLAG_RELEASE_ROW,
    FLAG_SUPPORT,
    HEAD_BUDGET,
    Document,
    build_index,
    decode_postings,
    encode_postings,
    index_script,
    install_choices,
    is_head_token,
    page_documents,
    page_sections,
    read_index_script,
    split_index,
)

RELEASE_PAGE = """
<h1 class="release-title">PyTorch 2.0：torch.compile</h1>
<div class="release-meta"><p class="release-summary">torch.compile 以 Beta 身份登场。</p>
<div class="feature-table-wrap" data-search-exclude><table><tr><th>特性</th><td>领域：编译器</td></tr></table></div></div>
<p>正文 <code>torch</code>.compile 第一段。</p>
<h2 id="torch-compile">torch.compile<a class="headerlink" href="#torch-compile" title="Permanent link">&para;</a></h2>
<div class="highlight"><pre><span></span><code><span class="n">model</span><span class="o">=</span><span class="n">torch</span><span class="o">.</span><span class="n">compile</span>(m)
</code></pre></div>
<p class="snippet-badge snippet-ok">✓ 在 PyTorch 2.13 上运行</p>
<h2 id="install">安装</h2>
<div class="tabbed-set"><input id="t1" type="radio"><div class="tabbed-labels"><label for="t1">pip · CUDA 11.7</label><label for="t2">pip · CUDA 11.8</label></div></div>
<form><select><option>3.12</option><option>3.11</option></select><button>清除</button></form>
<nav class="release-around" data-search-exclude><p>下一版本：PyTorch 2.1</p></nav>
"""


def test_sections_of_a_release_page():
    sections = page_sections(RELEASE_PAGE)
    assert [s[0] for s in sections] == [None, "torch-compile", "install"]
    page, compile_, install = sections
    assert page[1] == "PyTorch 2.0：torch.compile"  # the H1 titles the page's own document
    assert (
        page[2] == "torch.compile 以 Beta 身份登场。 正文 torch.compile 第一段。"
    )  # no feature table; inline code joins its word
    assert compile_[1] == "torch.compile"  # no permalink sign
    assert compile_[2] == "model=torch.compile(m)"  # code as text, no badge
    assert install[2] == "pip · CUDA 11.7 pip · CUDA 11.8"  # tab labels stay apart; no form controls, no footer


def test_a_section_ends_with_the_element_holding_its_heading():
    html = '<p>前言</p><div class="timeline-entry"><h2 id="v1-6">PyTorch 1.6</h2><p>摘要</p></div><p>结语</p>'
    assert page_sections(html) == [(None, "", "前言 结语"), ("v1-6", "PyTorch 1.6", "摘要")]


def test_the_first_heading_with_an_id_titles_the_page_when_nothing_comes_before():
    assert page_sections(
        '<h1 id="_1">版本兼容性矩阵</h1><p>每行是一个版本。</p><h2 id="sources">来源</h2><p>官方</p>'
    ) == [
        (None, "版本兼容性矩阵", "每行是一个版本。"),
        ("sources", "来源", "官方"),
    ]


def test_page_documents_flag_the_sections_that_introduce_a_feature():
    docs = page_documents(
        RELEASE_PAGE, "releases/2.0/", "fallback", introduces={"torch-compile"}, keywords="2.0 latest"
    )
    assert [(d.location, d.flags, d.keywords) for d in docs] == [
        ("releases/2.0/", 0, "2.0 latest"),
        ("releases/2.0/#torch-compile", FLAG_INTRODUCES, ""),
        ("releases/2.0/#install", 0, ""),
    ]


def decode(encoded: str) -> list[tuple[int, int]]:
    return decode_postings(encoded)


def test_postings_hold_count_title_and_keyword_per_document():
    docs = [
        Document("a/", "Training", "training trains", keywords="latest"),
        Document("b/", "Other", "trained once"),
        Document("c/", "中文", "分布式训练"),
    ]
    index = build_index(docs, "en")
    postings = dict(zip(index["tokens"], index["postings"], strict=True))
    assert index["tokens"] == sorted(index["tokens"])
    assert decode(postings["train"]) == [(0, 2 * 4 + 1), (1, 1 * 4)]  # count * 4 + 1 when in the title
    assert decode(postings["latest"]) == [(0, 2)]  # a keyword: + 2
    assert all("\u4e00" > t for t in index["tokens"])  # Chinese is scanned, not indexed
    assert decode(encode_postings([(0, 5), (40, 1), (41, 100)])) == [(0, 5), (40, 1), (41, 100)]


def test_index_script_round_trips():
    index = build_index([Document("releases/1.0/", "PyTorch 1.0", '发布 "quoted" </script> \u2028')], "zh")
    assert read_index_script(index_script(index, "zh")) == json.loads(json.dumps(index))


def test_page_documents_flag_the_install_section_and_the_pages_that_answer_support_questions():
    release = page_documents(RELEASE_PAGE, "releases/2.0/", "x", section_flags={"install": FLAG_INSTALL})
    assert [d.flags for d in release] == [0, 0, FLAG_INSTALL]
    support = page_documents(
        '<h1>支持</h1><p>各版本</p><h2 id="python">Python</h2><p>3.12</p>', "support/", "x", page_flags=FLAG_SUPPORT
    )
    assert [d.flags for d in support] == [FLAG_SUPPORT, FLAG_SUPPORT]


SPLIT_DOCS = [
    Document(
        "releases/2.0/", "PyTorch 2.0", "torch.compile 登场；x.shape 与 channels_last。训练更快。", keywords="2.0"
    ),
    Document(
        "releases/2.0/#install", "安装", "pip install torch==2.0.1 torchvision==0.15.2 Python 3.8–3.11", FLAG_INSTALL
    ),
]


def test_the_first_part_holds_no_text_and_the_postings_of_titles_versions_and_api_names():
    whole = build_index(SPLIT_DOCS, "zh", {"location": "compare/", "title": "t", "text": "x", "versions": ["2.0"]})
    parts = split_index(whole)
    head, text = parts["head"], parts["text"]
    assert [d[2] for d in head["docs"]] == ["", ""] and [d[:2] + d[3:] for d in head["docs"]] == [
        d[:2] + d[3:] for d in whole["docs"]
    ]
    assert head["upgrade"] == whole["upgrade"] and "upgrade" not in text
    postings = dict(zip(head["tokens"], head["postings"], strict=True))
    # Versions and API names wherever they are, with their counts; what a version is of (python, torchvision).
    for token in ("torch.compile", "channels_last", "2.0.1", "2.0", "0.15", "3.9", "python", "torchvision"):
        assert token in postings, token
    assert decode(postings["2.0"]) == [(0, 2 + 1), (1, 4)]  # keyword + title on the page; in the text of the section
    # Other words only where a title or the keywords hold them, without their count in the text.
    assert "x.shape" not in postings and "pip" not in postings and "install" not in postings
    assert decode(postings["pytorch"]) == [(0, 1)]
    # The text part completes it: every text, every token.
    assert text["texts"] == [d.text for d in SPLIT_DOCS] and text["count"] == 2
    assert (text["tokens"], text["postings"]) == (whole["tokens"], whole["postings"])


@pytest.mark.parametrize("token, head", [("3.12", True), ("2.0.1", True), ("torch.compile", True), ("torchvision.io", True), ("weights_only", True),
                                         ("cuda", True), ("x.shape", False), ("pytorch.org", False), ("2024", False), ("training", False)])  # fmt: skip
def test_which_tokens_the_first_part_keeps_wherever_they_occur(token, head):
    assert is_head_token(token) == head


# --- the real build ---------------------------------------------------------------------------------------


def load_index(site, lang):
    """A language's whole index, from the two parts the build writes."""
    head = json.loads((site / "search" / f"index.{lang}.json").read_text(encoding="utf-8"))
    text = json.loads((site / "search" / f"index.{lang}.text.json").read_text(encoding="utf-8"))
    assert head["part"] == "head" and text["part"] == "text" and len(text["texts"]) == len(head["docs"])
    return {
        **head,
        "docs": [doc[:2] + [body] + doc[3:] for doc, body in zip(head["docs"], text["texts"], strict=True)],
        "tokens": text["tokens"],
        "postings": text["postings"],
    }


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_first_part_of_each_language_is_within_its_byte_budget(built_site, lang):
    """What the first answer loads (issue 23: the first answer on Fast 3G within a second): the first part,
    gzipped as a static host serves it, within HEAD_BUDGET; the full text is the other file."""
    head = (built_site / "search" / f"index.{lang}.json").read_bytes()
    text = (built_site / "search" / f"index.{lang}.text.json").read_bytes()
    gzipped = len(gzip.compress(head, 6))
    assert gzipped <= HEAD_BUDGET, f"search/index.{lang}.json is {gzipped} bytes gzipped; the budget is {HEAD_BUDGET}"
    assert len(gzip.compress(text, 6)) > 4 * gzipped  # the text is what stays behind


def test_the_build_flags_install_sections_and_the_support_pages(built_site, catalog):
    for lang, prefix in (("zh", ""), ("en", "en/")):
        docs = {d[0]: d for d in load_index(built_site, lang)["docs"]}
        for release in catalog.releases:
            assert docs[f"{prefix}releases/{release.version}/#install"][4] & FLAG_INSTALL, release.version
        assert not docs[f"{prefix}releases/2.0/"][4] & FLAG_INSTALL
        assert docs[f"{prefix}support/#python"][4] & FLAG_SUPPORT and docs[f"{prefix}compatibility/"][4] & FLAG_SUPPORT
        assert not any(d[4] & FLAG_SUPPORT for location, d in docs.items() if "releases/" in location)


def test_the_build_writes_one_index_per_language_and_material_indexes_nothing(built_site):
    material = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert material["docs"] == []  # Material's jieba pass never runs
    for lang in ("zh", "en"):
        docs = load_index(built_site, lang)["docs"]
        assert len(docs) > 300
        assert all(d[0].startswith("en/") == (lang == "en") for d in docs)


def test_release_documents_are_short_and_generated_sections_are_searchable(built_site, catalog):
    docs = {d[0]: d for d in load_index(built_site, "en")["docs"]}
    release = catalog.by_version()["2.0"]
    top = docs["en/releases/2.0/"]
    names = [f.name for f in release.pages["en"].features]
    # The fact box's feature table is left out: its names are the sections below.
    assert sum(name in top[2] for name in names) <= 2, top[2][:400]
    assert "torchvision==0.15" in docs["en/releases/2.0/#install"][2]
    assert "Python 3.7" in docs["en/releases/2.0/#changes"][2]
    newest = catalog.releases[0].version
    assert "latest" in docs[f"en/releases/{newest}/"][5]
    assert docs["en/releases/2.0/"][5].split()[0] == "2.0" and "latest" not in docs["en/releases/2.0/"][5]


def test_only_the_release_that_first_lists_a_feature_introduces_it(built_site, catalog):
    docs = {d[0]: d for d in load_index(built_site, "zh")["docs"]}
    checked = later = 0
    for entry in feature_history(catalog, "zh"):
        first = entry["steps"][0][0]
        for version in entry["cells"]:
            section = docs.get(f"releases/{version}/#{entry['id']}")
            if section is None:
                continue
            assert bool(section[4] & FLAG_INTRODUCES) == (version == first), (version, entry["id"])
            checked += 1
            later += version != first
    assert checked > 100 and later > 0
    assert docs["releases/2.0/#torch-compile"][4] & FLAG_INTRODUCES


def test_pages_answer_to_the_words_of_their_address():
    import importlib.util

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("lazy_search_index", ROOT / "overrides/hooks/lazy_search_index.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    assert [hook.address_keywords(u) for u in ("en/compare/", "topics/distributed.html", "en/", "index.html")] == [
        "compare",
        "topics distributed",
        "",
        "",
    ]
    assert hook.release_keywords("2.0", "2.14") == f"2.0 {hook.RELEASE_KEYWORDS}"
    assert "new" in hook.release_keywords("2.0", "2.14").split() and "latest" not in hook.release_keywords(
        "2.0", "2.14"
    )
    assert (
        hook.release_keywords("2.14", "2.14").split()[0] == "2.14"
        and "latest" in hook.release_keywords("2.14", "2.14").split()
    )


def test_each_index_offers_the_upgrade_view_of_its_language_for_every_release(built_site, catalog):
    for lang, prefix in (("zh", ""), ("en", "en/")):
        upgrade = load_index(built_site, lang)["upgrade"]
        assert (
            upgrade["location"] == prefix + "compare/" and (built_site / upgrade["location"] / "index.html").is_file()
        )
        assert upgrade["versions"] == [release.version for release in catalog.releases]
        assert "{from}" in upgrade["title"] and "{to}" in upgrade["text"]
    zh = json.loads((built_site / "search" / "index.zh.json").read_text(encoding="utf-8"))["upgrade"]
    assert zh["title"].startswith("升级") and upgrade["title"].startswith("Upgrade")


# --- a release's matrix row and install choices -----------------------------------------------------------------

MATRIX = """<h1>兼容性矩阵</h1><p>每个版本一行。</p><table><tbody>
<tr id="compat-2-15" class="compat-row" data-search-section="PyTorch 2.15 的兼容性：Python、CUDA"><th>2.15</th><td>3.11–3.15</td>
<td><button type="button">来源</button></td></tr>
<tr class="compat-sources-row" hidden><td colspan="9">PyPI · torch 2.15.0</td></tr>
<tr id="compat-2-14" data-search-section="PyTorch 2.14 的兼容性"><th>2.14</th><td>3.10–3.14</td></tr>
</tbody></table><p>表后的说明。</p>"""


def test_an_element_with_a_search_section_title_is_a_section_of_its_own():
    sections = page_sections(MATRIX)
    assert sections == [
        (None, "兼容性矩阵", "每个版本一行。 PyPI · torch 2.15.0 表后的说明。"),
        ("compat-2-15", "PyTorch 2.15 的兼容性：Python、CUDA", "2.15 3.11–3.15"),
        ("compat-2-14", "PyTorch 2.14 的兼容性", "2.14 3.10–3.14"),
    ]
    docs = page_documents(MATRIX, "compatibility/", "x", section_flags={"compat-2-15": FLAG_RELEASE_ROW}, page_flags=4)
    assert [d.flags for d in docs] == [4, 4 | FLAG_RELEASE_ROW, 4]


def test_install_choices_are_the_pickers_compute_values():
    page = (
        '<input type="radio" id="a" name="os" value="linux"><input type="radio" name="compute" id="b" value="default">'
        '<input value="cuda-11.8" name="compute" type="radio"><input type="radio" name="compute" value="cpu">'
        '<input type="radio" name="compute" value="cpu">'
    )
    assert install_choices(page) == ["default", "cuda-11.8", "cpu"]


def test_the_first_part_knows_the_releases_and_their_install_choices():
    index = build_index(SPLIT_DOCS, "zh", None, ["2.0", "1.13"], {"2.0": ["default", "cpu", "cuda-11.8"]})
    head = split_index(index)["head"]
    assert head["releases"] == ["2.0", "1.13"] and head["install"] == {"2.0": ["default", "cpu", "cuda-11.8"]}


def test_the_build_gives_each_release_its_matrix_row_and_install_choices(built_site, catalog):
    from scripts.views.matrix import matrix_row_id

    for lang, prefix in (("zh", ""), ("en", "en/")):
        index = load_index(built_site, lang)
        docs = {d[0]: d for d in index["docs"]}
        assert index["releases"] == [r.version for r in catalog.releases]
        for release in catalog.releases:
            row = docs[f"{prefix}compatibility/#{matrix_row_id(release.version)}"]
            assert row[4] & FLAG_RELEASE_ROW and release.version in row[1], row[:2]
            assert row[2].startswith(release.version)  # the row's own text, its cells
        assert index["install"]["1.12"][:2] == ["default", "cpu"] and "cuda-11.6" in index["install"]["1.12"]
        assert "cuda-13.0" in index["install"]["2.15"]
