"""A unit (or a C++ translation unit) that another page already ran is judged on that run only when the two are
byte-identical, comments included (scripts/snippets/running/units.py: unit_key; run.py: share_unit; gxx.py: unit_hash).
No torch needed: the replies are written here as a supervisor sends them."""

from __future__ import annotations

import json

from scripts.snippets.cxx.gxx import unit_hash
from scripts.snippets.extract import scan
from scripts.snippets.running.run import PageRun, RunOutcome, share_unit
from scripts.snippets.running.units import UNIT_FILE, unit_key, unit_requests, units_of


def blocks(text: str, page: str, lang: str = "zh"):
    uri = page.removeprefix("docs/")
    snippets, problems = scan(text, page=page, src_uri=uri, page_lang=lang, release="9.9")
    assert problems == [], [str(p) for p in problems]
    return snippets


CODE = (
    "```python\nimport torch\n# sum\nx = torch.ones(2).sum()  # two ones\n```\n\n```pycon\n>>> 1 + 1  # add\n2\n```\n"
)
ZH = CODE
EN = "Intro line\n\nA second line of prose, so every block sits lower on this page.\n\n" + CODE


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


def test_byte_identical_units_share_a_key_wherever_they_stand_and_any_change_breaks_it():
    zh, en = blocks(ZH, "docs/releases/9.9.md"), blocks(EN, "docs/releases/9.9.en.md", "en")
    assert zh[0].line != en[0].line
    assert [unit_key(u) for u in units_of(zh)] == [unit_key(u) for u in units_of(en)]
    # What the sandbox receives names neither the page nor its lines.
    request = json.dumps(unit_requests(units_of(en)[0], 120))
    assert "9.9" not in request and f'"filename": "{UNIT_FILE}"' in request and '"line": 1' in request
    for old, new in [
        ("# sum", "# the sum"),  # a comment is code: it can change what runs
        ("ones(2)", "ones(3)"),
        ("\n2\n", "\n3\n"),  # a pycon block's shown output
        ("\n\n```python", "\n\n<!-- snippet: timeout=5 -->\n```python"),
    ]:
        changed = blocks(EN.replace(old, new, 1), "docs/releases/9.9.en.md", "en")
        assert [unit_key(u) for u in units_of(changed)] != [unit_key(u) for u in units_of(zh)], (old, new)


def test_a_doctest_skip_in_a_comment_does_not_let_a_failing_block_borrow_a_passing_run():
    """The review's case: `# doctest: +SKIP` on the en block; the zh block, the same but for that comment, raises."""
    en = blocks("```pycon\n>>> len(3)  # doctest: +SKIP\n```\n", "docs/releases/9.9.en.md", "en")
    zh = blocks("```pycon\n>>> len(3)  # 类型错误\n```\n", "docs/releases/9.9.md")
    assert unit_key(units_of(en)[0]) != unit_key(units_of(zh)[0])
    skipped = {0: {"id": "x", "ok": True, "error": None, "examples": [{"skipped": True}], "warnings": []}}
    assert share_unit(zh, en, owner_run(en, skipped)) is None


def test_cpp_units_are_shared_only_when_byte_identical():
    """A `//` comment ending in a backslash swallows the next line: the zh unit g++ rejects must not borrow
    the en unit's verdict. Byte-identical blocks at other lines of another page compile once."""
    good = "```cpp\n#include <vector>\nint f() {\n  // count\n  return 1;\n}\n```\n"
    en = blocks(good, "docs/releases/9.9.en.md", "en")
    zh = blocks(good.replace("// count", "// 计数 \\"), "docs/releases/9.9.md")
    assert unit_hash(en) != unit_hash(zh)
    moved = blocks("Some prose first.\n\n" + good, "docs/releases/9.8.md")
    assert moved[0].line != en[0].line and unit_hash(moved) == unit_hash(en)


def test_a_shared_unit_is_judged_against_the_borrowing_blocks_own_page():
    zh, en = blocks(ZH, "docs/releases/9.9.md"), blocks(EN, "docs/releases/9.9.en.md", "en")
    warning = {"category": "FutureWarning", "message": "`torch.ones` is deprecated.", "line": 3, "deprecation": True}
    replies = ok_replies([warning])
    run = owner_run(zh, replies)
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
