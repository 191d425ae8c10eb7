"""A release page's layout and words, on one real build (the session's `built_site`), every release in both
languages: the answer first (quick facts, then install, then the features), no sentence or command twice, one label
per feature with its state today only where it differs, folds for long lists, and a status that says what matters
today, computed from the catalog and the verdicts (scripts/views/release/: status.py, features.py, install.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from conftest import ROOT
from parsed_pages import parsed_page, within

from scripts.catalog.history import status_today
from scripts.catalog.model import LANGUAGES, version_key
from scripts.catalog.python_eol import SOURCE as PYTHON_EOL_SOURCE
from scripts.catalog.python_eol import ended_by
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.compute import verdicts_of
from scripts.views.release.features import FOLD_AFTER
from scripts.views.words import SYSTEM_NAMES

PREFIX = {"zh": "", "en": "en/"}

# What a sentence is on a page: the text of a prose element, cut after . ! ? (and 。！？；). Chinese has no spaces
# between words: a word of running Chinese text is about one and a half characters long, so that many count as one.
PROSE = ("p", "li", "dd", "dt", "td", "th", "summary", "caption", "h1", "h2", "h3", "h4", "figcaption")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])")
LATIN_WORD = re.compile(r"[A-Za-z0-9][\w.+/-]*")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# Lines that are labels of an item, repeated per item by design, not sentences: the badge under each code block
# (what the snippet check proved about that block) and each change's citation line (its source and its links).
LABELS = (".snippet-badge", ".change-meta")


def article_of(site: Path, version: str, lang: str) -> Tag:
    article = parsed_page(site / f"{PREFIX[lang]}releases/{version}/index.html").select_one("article")
    assert article is not None, (version, lang)
    return article


def word_count(sentence: str) -> float:
    return len(LATIN_WORD.findall(sentence)) + len(HAN.findall(sentence)) / 1.5


def repeated_sentences(article: Tag, min_words: int = 8) -> list[str]:
    labels = article.select(", ".join(LABELS))  # left out as the page is read (it is shared: tests/parsed_pages.py)
    counts: Counter[str] = Counter()
    for element in article.find_all(PROSE):
        if within(element, labels) or element.find_parent("pre"):
            continue
        if any(not within(inner, labels) for inner in element.find_all(PROSE)):
            continue  # a container whose own prose elements are counted
        text = " ".join(" ".join(s for s in element.strings if not within(s, labels)).split())
        for sentence in SENTENCE_END.split(text):
            sentence = sentence.strip()
            if word_count(sentence) >= min_words:
                counts[sentence] += 1
    return [f"{n}× {sentence}" for sentence, n in counts.items() if n > 1]


def repeated_pip_commands(article: Tag) -> list[str]:
    """`pip install` lines shown twice in code blocks (a command to copy; prose may name one in a code span)."""
    counts: Counter[str] = Counter()
    for code in article.select("pre code"):
        for line in code.get_text().splitlines():
            line = " ".join(line.split())
            if "pip install" in line:
                counts[line] += 1
    return [f"{n}× {line}" for line, n in counts.items() if n > 1]


def test_the_repetition_scan_finds_what_it_looks_for():
    """The scan itself: a repeated sentence (Chinese counted by characters) and a repeated command are found; a
    short one, a label under a code block and a citation line are not."""
    html = """<article>
      <p>The plain command installs the CUDA build on Linux x86_64. Short one.</p>
      <ul><li><p>The plain command installs the CUDA build on Linux x86_64.</p></li></ul>
      <p>Short one.</p><p>这段代码需要 GPU，本站的检查不运行它：</p><p>这段代码需要 GPU，本站的检查不运行它：</p>
      <p>这一项没有标签。</p><p>这一项没有标签。</p>
      <p class="snippet-badge">✓ runs on PyTorch 2.14, output matches this page</p>
      <p class="snippet-badge">✓ runs on PyTorch 2.14, output matches this page</p>
      <pre><code>pip install torch==2.14.1 torchvision==0.29.1</code></pre>
      <div><pre><code>pip install torch==2.14.1   torchvision==0.29.1</code></pre></div>
      <pre><code>pip install torch==2.14.1 --index-url https://download.pytorch.org/whl/cpu</code></pre>
      <p>The <code>pip install torch==2.14.1 --index-url https://download.pytorch.org/whl/cpu</code> line pins it.</p>
    </article>"""
    article = BeautifulSoup(html, "html.parser").select_one("article")
    assert repeated_pip_commands(article) == ["2× pip install torch==2.14.1 torchvision==0.29.1"]
    assert repeated_sentences(article) == [
        "2× The plain command installs the CUDA build on Linux x86_64.",
        "2× 这段代码需要 GPU，本站的检查不运行它：",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_release_page_says_a_sentence_or_a_pip_command_twice(built_site, catalog, lang):
    found = {}
    for release in catalog.releases:
        article = article_of(built_site, release.version, lang)
        problems = repeated_pip_commands(article) + repeated_sentences(article)
        if problems:
            found[release.version] = problems
    assert found == {}


CLAUSE_END = re.compile(r"[；。]|; |\. ")


def _refusal_clauses(option: Tag) -> dict[str, set[str]]:
    """What a Requires-Python refuses, as said on the platform lines of one option: {clause: platforms}."""
    found: dict[str, set[str]] = {}
    for line in option.select(".install-system"):
        for clause in CLAUSE_END.split(" ".join(line.get_text(" ").split())):
            if "Requires-Python" in clause:
                found.setdefault(clause.strip(), set()).add(str(line["data-system"]))
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refusal_several_platforms_share_is_said_once_under_their_lines(built_site, catalog, lang):
    """What a Requires-Python refuses on several platforms of one PyPI option (torchvision 0.29.1: Python 3.14.1
    everywhere; torch 1.10.2: 3.6.0 and 3.6.1 on three) is one note under the lines naming those platforms
    (`data-systems`, which install.js shows with their line), never a clause repeated on each platform's line."""
    shared: dict[str, list[str]] = {}
    for release in catalog.releases:
        article = article_of(built_site, release.version, lang)
        for option in article.select(".install-option[data-pm=pip][data-compute=default]"):
            clauses = _refusal_clauses(option)
            repeated = {clause: where for clause, where in clauses.items() if len(where) > 1}
            assert repeated == {}, (release.version, repeated)
            for note in option.select(".install-system-note"):
                platforms = note["data-systems"].split()
                text = " ".join(note.get_text(" ").split())
                names, _, clause = text.partition("：" if lang == "zh" else ": ")
                assert len(platforms) > 1 and set(platforms) <= set(option["data-systems"].split()), text
                assert all(SYSTEM_NAMES[p][lang] in names for p in platforms), text
                assert "Requires-Python" in clause and clause.rstrip("。.") not in clauses, text
                shared[release.version] = platforms
    assert shared["2.14"] == ["linux-x86_64", "linux-aarch64", "macos-arm64", "windows"]
    assert shared["1.10"] == ["linux-aarch64", "macos-x86_64", "windows"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_install_section_comes_right_after_the_quick_facts_then_the_features(built_site, catalog, lang):
    for release in catalog.releases:
        article = article_of(built_site, release.version, lang)
        headings = [h["id"] for h in article.find_all("h2") if h.get("id")]
        assert headings[0] == "install", (release.version, headings)
        if release.features:
            assert headings[1] == "features", (release.version, headings)
        elements = article.find_all(True)
        assert elements.index(article.select_one(".quick-facts")) < elements.index(article.select_one("#install"))
        if version_key(release.version) >= (1, 0):
            assert article.select_one("#install-picker") is not None, release.version


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_feature_shows_one_label_and_where_it_stands_today_only_where_that_differs(built_site, catalog, lang):
    statuses = status_today(catalog)
    differing = 0
    for release in catalog.releases:
        page = release.pages[lang]
        article = article_of(built_site, release.version, lang)
        rows = article.select(".feature-areas table.feature-table tbody tr")
        by_area = sorted(page.features, key=lambda f: [x.area for x in page.features].index(f.area))
        assert [r["data-feature"] for r in rows] == [f.id for f in by_area], release.version
        for row, feature in zip(rows, by_area, strict=True):
            assert row["id"] == f"feature-{feature.id}"
            labels = row.select(".feature-label .maturity")
            assert [b["data-maturity"] for b in labels] == [feature.maturity], (release.version, feature.id)
            status = statuses[feature.id]
            differs = status.kind != "label" or status.label != feature.maturity
            today = row.select(".feature-today")
            assert len(today) == int(differs), (release.version, feature.id)
            if differs:
                differing += 1
                # The label row shows today's state once: a later label as a badge, else deprecated/removed in words.
                assert len(row.select(".maturity")) == (2 if status.kind == "label" else 1)
                assert status.version in today[0].get_text()
    assert differing > 20
    # 2.14: every feature's label is its label today, so no row says "today" (each said it twice before).
    assert not article_of(built_site, "2.14", lang).select(".feature-today")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_long_feature_lists_fold_by_area_and_short_ones_are_open(built_site, catalog, lang):
    folded = 0
    for release in catalog.releases:
        article = article_of(built_site, release.version, lang)
        folds = article.select("details.feature-area")
        assert len(folds) == len({f.area for f in release.features}), release.version
        assert all(fold.find("summary") is not None for fold in folds)
        long_list = len(release.features) > FOLD_AFTER
        assert all(fold.has_attr("open") != long_list for fold in folds), release.version
        folded += long_list
    assert folded >= 10


def _status(article: Tag) -> Tag:
    status = article.select_one(".quick-status .status-list")
    assert status is not None
    return status


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_status_says_what_matters_today_from_the_catalog_and_the_verdicts(built_site, catalog, lang):
    verdicts = verdicts_of(catalog, load_evidence(ROOT / "docs" / EVIDENCE_FILE))
    statuses = status_today(catalog)
    newest = catalog.releases[0]
    past_eol = 0
    for release in catalog.releases:
        status = _status(article_of(built_site, release.version, lang))
        text = status.get_text(" ", strip=True)
        patches = sorted(release.patches, key=version_key)
        if len(patches) > 1:
            assert patches[-1] in text, (release.version, text)
        elif release is not newest:
            assert patches[0] in text, (release.version, text)
        # Every Python it has wheels for past its end of life, by the day PyPI was checked: said, with the source.
        verdict = verdicts[release.version]
        pythons = (verdict.patch_python if verdict.pins else verdict.python).versions
        ended = bool(pythons) and all(ended_by(v, verdicts.checked) for v in pythons)
        eol_links = status.select(f'a[href="{PYTHON_EOL_SOURCE}"]')
        assert len(eol_links) == int(ended), (release.version, text)
        past_eol += ended
        # Each later deprecation or removal of its features, with a link to what to use instead where there is one.
        changes = {
            (s.version, s.change.id): s.change
            for f in release.features
            if (s := statuses[f.id]).kind != "label" and s.change is not None
        }
        for (version, change_id), change in changes.items():
            links = status.select(f'a[href$="{version}/#change-{change_id}"]')
            assert len(links) == int(bool(change.after)), (release.version, change_id)
            target = article_of(built_site, version, lang).select_one(f"#change-{change_id}")
            assert target is not None
    assert past_eol >= 10  # 1.0–1.12 as of the evidence's day (2026-11-26)


def test_1_6_status_names_its_patch_its_ended_pythons_and_what_replaced_its_torchscript_features(built_site):
    status = _status(article_of(built_site, "1.6", "en"))
    items = [li.get_text(" ", strip=True) for li in status.find_all("li")]
    assert "no patch release after 1.6.0" in items
    assert any(
        item.startswith("every Python it has wheels for is past its end of life") and "3.8" in item for item in items
    )
    deprecated = [item for item in items if item.startswith("deprecated in 2.10:")]
    assert len(deprecated) == 1 and "freezing" in deprecated[0] and "fork" in deprecated[0]
    assert status.select_one('a[href="../2.10/#change-torchscript-deprecated"]') is not None
    # 2.14 is the newest release with a post: its Pythons (3.10–3.14) are not all past their end of life.
    assert not _status(article_of(built_site, "2.14", "en")).select(f'a[href="{PYTHON_EOL_SOURCE}"]')


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_provisional_page_says_once_that_its_post_is_not_here(built_site, catalog, lang):
    provisional = [r for r in catalog.releases if r.provisional]
    assert provisional
    for release in provisional:
        page = release.pages[lang]
        article = article_of(built_site, release.version, lang)
        assert page.summary not in article.get_text(" ")  # its own text says it; the summary is for other pages
        assert article.select_one("#changes") is None  # "not recorded yet" said by the page's own text, once
        assert article.select_one(".feature-areas") is None
