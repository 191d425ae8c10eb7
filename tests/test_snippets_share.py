"""A unit that another page already ran (the same code but for comments) is judged on that run's replies, not
run again (scripts/snippets/run.py: unit_key, share_unit). No torch needed: the replies are written here as
a page's supervisor sends them."""

from __future__ import annotations

from scripts.snippets.extract import scan
from scripts.snippets.run import PageRun, RunOutcome, share_unit, unit_key, units_of


def blocks(text: str, page: str, lang: str = "zh"):
    uri = page.removeprefix("docs/")
    snippets, problems = scan(text, page=page, src_uri=uri, page_lang=lang, release="9.9")
    assert problems == [], [str(p) for p in problems]
    return snippets


ZH = "```python\nimport torch\n# 求和\nx = torch.ones(2).sum()  # 两个 1\n```\n\n```pycon\n>>> 1 + 1  # 加法\n2\n```\n"
EN = "Intro line\n\n```python\nimport torch\n# sum\nx = torch.ones(2).sum()  # two ones\n```\n\n```pycon\n>>> 1 + 1  # add\n2\n```\n"


def owner_run(snippets, replies: dict[int, dict], statuses: dict[int, str] | None = None) -> PageRun:
    run = PageRun(page=snippets[0].page)
    for k, s in enumerate(snippets):
        run.replies[s.id] = replies[k]
        run.outcomes[s.id] = RunOutcome(s.id, (statuses or {}).get(k, "ran"))
    return run


def ok_replies(warnings=()):
    return {
        0: {"id": "x", "ok": True, "error": None, "examples": [], "warnings": list(warnings)},
        1: {
            "id": "y",
            "ok": True,
            "error": None,
            "examples": [{"got": "2\n", "exc": None, "line": None}],
            "warnings": [],
        },
    }


def test_comments_do_not_change_a_units_key_but_code_and_directives_do():
    zh, en = blocks(ZH, "docs/releases/9.9.md"), blocks(EN, "docs/releases/9.9.en.md", "en")
    assert [unit_key(u) for u in units_of(zh)] == [unit_key(u) for u in units_of(en)]
    changed = blocks(EN.replace("ones(2)", "ones(3)"), "docs/releases/9.9.en.md", "en")
    assert unit_key([changed[0]]) != unit_key([zh[0]])
    output = blocks(EN.replace("\n2\n", "\n3\n"), "docs/releases/9.9.en.md", "en")
    assert unit_key([output[1]]) != unit_key([zh[1]])  # a pycon block's shown output is part of the key
    directive = blocks(
        EN.replace("\n\n```python", "\n\n<!-- snippet: timeout=5 -->\n```python"), "docs/releases/9.9.en.md", "en"
    )
    assert unit_key([directive[0]]) != unit_key([zh[0]])


def test_a_shared_unit_is_judged_against_the_borrowing_blocks_own_page():
    zh, en = blocks(ZH, "docs/releases/9.9.md"), blocks(EN, "docs/releases/9.9.en.md", "en")
    warning = {"category": "FutureWarning", "message": "`torch.ones` is deprecated.", "line": 4, "deprecation": True}
    run = owner_run(zh, ok_replies([warning]))
    first = share_unit([en[0]], [zh[0]], run)
    assert list(first) == [en[0].id]
    assert first[en[0].id].status == "ran" and first[en[0].id].deprecations == [
        "FutureWarning: `torch.ones` is deprecated."
    ]
    second = share_unit([en[1]], [zh[1]], run)
    assert second[en[1].id].status == "output-matched"


def test_a_unit_is_not_shared_when_its_run_failed_or_went_unanswered_or_the_code_differs():
    zh, en = blocks(ZH, "docs/releases/9.9.md"), blocks(EN, "docs/releases/9.9.en.md", "en")
    assert share_unit([en[0]], [zh[0]], owner_run(zh, ok_replies(), {0: "failed"})) is None
    unanswered = owner_run(zh, ok_replies())
    del unanswered.replies[zh[0].id]
    assert share_unit([en[0]], [zh[0]], unanswered) is None
    changed = blocks(EN.replace("ones(2)", "ones(3)"), "docs/releases/9.9.en.md", "en")
    assert share_unit([changed[0]], [zh[0]], owner_run(zh, ok_replies())) is None
    # The reply would fail the borrowing block (its output differs): it runs on its own page instead.
    wrong = ok_replies()
    wrong[1]["examples"][0]["got"] = "3\n"
    assert share_unit([en[1]], [zh[1]], owner_run(zh, wrong)) is None
