"""Provisional releases: a release PyPI lists whose official post is not available yet gets a page pair built
from registry facts only (scripts/tools/provisional.py, python -m scripts.new_release --provisional). The catalog refuses any fact a registry cannot
give; the entry must agree with the evidence; the views mark it; the scaffold turns it into a full page later."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, ROOT
from reference_data import PROVISIONAL
from test_site import soup_of

from scripts.catalog.loader import load_catalog
from scripts.catalog.model import ReleaseDataError
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.tools.new_release import scaffold, scaffold_provisional
from scripts.tools.provisional import provisional_problems, registry_facts

LANG_PREFIX = {"zh": "", "en": "en/"}


@pytest.fixture(scope="module")
def evidence():
    return load_evidence(ROOT / "docs" / EVIDENCE_FILE)


# --- the real catalog against the real evidence --------------------------------------------------------------


def test_every_provisional_release_agrees_with_the_registry(catalog, evidence):
    provisional = [r for r in catalog.releases if r.provisional]
    assert [r.version for r in provisional] == list(PROVISIONAL)
    for release in provisional:
        assert provisional_problems(release, evidence) == []
        date, source = PROVISIONAL[release.version]
        assert (release.date_iso, release.source) == (date, source)


def test_2_15_states_what_pypi_says(catalog, evidence):
    release = catalog.by_version()["2.15"]
    torch = evidence["torch"]["2.15.0"]
    assert release.provisional and release.patches == ("2.15.0",)
    assert release.date_iso == torch["uploaded"]
    assert set(release.compat.versions("python", patch="2.15.0")) == set(torch["wheels"]["linux-x86_64"])
    assert "3.10" not in release.compat.versions("python", patch="2.15.0")
    assert release.compat.versions("pypi_cuda", patch="2.15.0") == [torch["cuda"]["linux-x86_64"]]
    # torchvision 0.29.1 and 0.29.2 declare torch>=2.14.0: pip takes the newest; the note names both.
    assert release.compat.library_version("torchvision", "2.15.0") == "0.29.2"
    for version in ("0.29.1", "0.29.2"):
        assert evidence["torchvision"][version]["requires"] == ["torch>=2.14.0"]
        for lang in ("zh", "en"):
            assert version in release.pages[lang].compat.notes["pypi-torchvision-requires"]
    for claims in (release.compat.claims(name) for name in ("python", "torchvision", "pypi_cuda")):
        assert all(c.sources == ("PyPI",) and c.evidence == "official" for c in claims)


def test_2_15_pairs_torchaudio_2_11_as_its_docs_say_and_says_where_the_command_fails(catalog, verdicts, evidence):
    """No torchaudio declares it accepts torch 2.15.0, but 2.11.0 declares no torch requirement at all and its
    docs (source A) say it works with every PyTorch from 2.11 on: the page pairs it, with both sources, and the
    plain command is decided for every package of it (torchaudio 2.11.0 has no Python 3.15 wheel)."""
    release = catalog.by_version()["2.15"]
    record = evidence["torchaudio"]["2.11.0"]
    assert record["requires"] == [] and not record["yanked"]
    assert release.compat.library_version("torchaudio", "2.15.0") == "2.11.0"
    (claim,) = release.compat.claims("torchaudio")
    assert set(claim.sources) == {"A", "PyPI"} and claim.evidence == "official"
    command = verdicts["2.15"].command
    assert command.text == "pip install torch==2.15.0 torchvision==0.29.2 torchaudio==2.11.0"
    torch_pythons = set(evidence["torch"]["2.15.0"]["wheels"]["linux-x86_64"])
    audio_pythons = set(record["wheels"]["linux-x86_64"])
    vision_wheels = set(evidence["torchvision"]["0.29.2"]["wheels"]["linux-x86_64"])
    vision_pythons = torch_pythons if "py3" in vision_wheels else vision_wheels  # a py3 wheel fits every Python 3
    assert set(command.pythons) == torch_pythons & audio_pythons & vision_pythons
    assert "3.15" in command.torch_only and ("torchaudio", "2.11.0") in command.lacking
    for lang, words in (("zh", "3.15"), ("en", "Python 3.15")):
        assert words in release.pages[lang].compat.notes["torchaudio-211-later"]


def test_a_documented_pairing_stands_only_where_pypi_does_not_contradict_it(catalog, evidence):
    release = catalog.by_version()["2.15"]
    assert provisional_problems(release, evidence) == []
    rejecting = json.loads(json.dumps(evidence))
    rejecting["torchaudio"]["2.11.0"]["requires"] = ["torch==2.11.0"]  # a pin that refuses 2.15.0
    assert any("torchaudio 2.11.0 here" in p for p in provisional_problems(release, rejecting))


def test_no_provisional_release_carries_features_labels_or_changes(catalog):
    for release in catalog.releases:
        if release.provisional:
            for page in release.pages.values():
                assert page.features == () and page.changes == () and page.maturity_counts() == {}, release.version


@pytest.mark.parametrize(
    "name, old, new",
    [
        ("python", '"3.11", ', ""),
        ("date", "date: 2026-10-28", "date: 2026-10-29"),
        ("pypi_cuda", 'version: "13.2"', 'version: "13.0"'),
        ("torchvision", 'version: "0.29.2"', 'version: "0.29.1"'),
        ("note", "0.29.1（", "0.29.0（"),
    ],
)
def test_an_entry_that_drifts_from_the_evidence_is_caught(tmp_path, evidence, name, old, new):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs" / "releases", docs / "releases")
    page = docs / "releases" / "2.15.md"
    text = page.read_text(encoding="utf-8")
    assert old in text, name
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    release = load_catalog(docs).by_version()["2.15"]
    problems = provisional_problems(release, evidence)
    assert problems and all("releases/2.15.md:" in p for p in problems), problems


# --- what the catalog refuses on a provisional page ------------------------------------------------------------

FIXTURE_EVIDENCE = {
    "checked": "2020-11-01",
    "torch": {
        "1.7.0": {
            "files": 3, "uploaded": "2020-10-27", "yanked": False,
            "wheels": {"linux-x86_64": ["3.6", "3.7", "3.8"], "windows": ["3.7", "3.8"]},
            "cuda": {"linux-x86_64": "10.2", "windows": None},
        },
    },
    "torchvision": {
        "0.8.0": {"files": 1, "uploaded": "2020-10-27", "yanked": False, "requires": ["torch==1.7.0"]},
        "0.8.1": {"files": 1, "uploaded": "2020-10-28", "yanked": False, "requires": ["torch==1.7.0"]},
        "0.2.0": {"files": 1, "uploaded": "2018-01-01", "yanked": False, "requires": ["torch>=0.3"]},
    },
    "torchaudio": {"0.7.0": {"files": 1, "uploaded": "2020-10-27", "yanked": False, "requires": ["torch==1.7.0"]}},
}  # fmt: skip


@pytest.fixture
def provisional_docs(tmp_path):
    """The two-release fixture plus a provisional 1.7 written by the scaffold from FIXTURE_EVIDENCE."""
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    scaffold_provisional("1.7", docs, FIXTURE_EVIDENCE)
    return docs


def test_the_scaffold_writes_registry_facts_only(provisional_docs):
    release = load_catalog(provisional_docs).by_version()["1.7"]
    assert release.provisional and release.features == () and release.changes == ()
    assert (release.date_iso, release.source) == ("2020-10-27", "https://pypi.org/project/torch/1.7.0/")
    assert release.compat.versions("python", patch="1.7.0") == ["3.6", "3.7", "3.8"]
    assert release.compat.versions("pypi_cuda", patch="1.7.0") == ["10.2"]
    # The newest line that declares it accepts 1.7.0; 0.2.0's old floor (torch>=0.3) is no such statement.
    assert release.compat.library_version("torchvision", "1.7.0") == "0.8.1"
    assert "0.2.0" not in release.pages["en"].compat.notes["pypi-torchvision-requires"]
    assert release.compat.library_version("torchaudio", "1.7.0") == "0.7.0"
    assert "Windows" in release.pages["en"].compat.notes["pypi-platforms"]
    assert provisional_problems(release, FIXTURE_EVIDENCE) == []
    for lang, name in (("zh", "1.7.md"), ("en", "1.7.en.md")):
        body = (provisional_docs / "releases" / name).read_text(encoding="utf-8").split("---", 2)[2]
        assert ("官方发布文章尚未收录" if lang == "zh" else "official release post is not available here yet") in body
        # No registry fact is typed into the body, where it would go stale: the build computes them.
        assert "3.6" not in body and "10.2" not in body and "0.8.1" not in body and "补丁版本" not in body


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        ("1.7.md", "patches:", 'features:\n  - {id: amp, name: AMP, area: Frontend, maturity: Beta}\npatches:',
         "1.7.md:{line}: a provisional release carries registry facts only: remove 'features'"),
        ("1.7.md", "patches:", 'changes:\n  - {id: x, category: removal, text: "x", source: "https://pytorch.org/", evidence: official}\npatches:',
         "1.7.md:{line}: a provisional release carries registry facts only: remove 'changes'"),
        ("1.7.en.md", "title:", "features:\n  amp: AMP\ntitle:",
         "1.7.en.md:{line}: a provisional release carries registry facts only: remove 'features'"),
        ("1.7.md", 'version: "10.2", sources: [PyPI]', 'version: "10.2", sources: [W]',
         "1.7.md:{line}: a provisional release's pypi_cuda claim rests on PyPI or an official document only"),
        ("1.7.md", 'version: "10.2", sources: [PyPI], evidence: official', 'version: "10.2", sources: [A], evidence: copy',
         "1.7.md:{line}: a provisional release's pypi_cuda claim rests on PyPI or an official document only"),
        ("1.7.md", "source: https://pypi.org/project/torch/1.7.0/", "source: https://pytorch.org/blog/pytorch-1.7-released/",
         "1.7.md:{line}: a provisional release's source is its PyPI page"),
        ("1.7.md", "provisional: true", "provisional: yes",
         "1.7.md:{line}: write 'provisional: true'"),
        # The CUDA builds of download.pytorch.org may come from an official document (the release team's announcement,
        # I): official, or derived with a note saying why; never a third party's word.
        ("1.7.md", "  pypi_cuda:", '  cuda: [{stable: ["10.2"], sources: [R], evidence: derived}]\n  pypi_cuda:',
         "1.7.md:{line}: a provisional release's cuda claim rests on PyPI or an official document only"),
        ("1.7.md", "  pypi_cuda:", '  cuda: [{stable: ["10.2"], sources: [X], evidence: official}]\n  pypi_cuda:',
         "1.7.md:{line}: a provisional release's cuda claim rests on PyPI or an official document only"),
        ("1.7.md", "  pypi_cuda:", '  cuda: [{stable: ["10.2"], sources: [I], evidence: derived}]\n  pypi_cuda:',
         "1.7.md:{line}: a provisional release's cuda claim rests on PyPI or an official document only"),
    ],
)  # fmt: skip
def test_a_provisional_page_refuses_what_a_registry_cannot_say(provisional_docs, file, old, new, message):
    page = provisional_docs / "releases" / file
    text = page.read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1)
    page.write_text(text, encoding="utf-8")
    first_new_line = new.split("\n")[0]
    line = next(number for number, written in enumerate(text.split("\n"), 1) if first_new_line in written)
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(provisional_docs)
    assert message.format(line=line) in str(info.value), str(info.value)


def test_a_provisional_page_needs_its_date_note(provisional_docs):
    page = provisional_docs / "releases" / "1.7.md"
    lines = [line for line in page.read_text(encoding="utf-8").split("\n") if not line.startswith("date_note:")]
    page.write_text("\n".join(lines), encoding="utf-8")
    en = provisional_docs / "releases" / "1.7.en.md"
    en.write_text(
        "\n".join(line for line in en.read_text(encoding="utf-8").split("\n") if not line.startswith("date_note:")),
        encoding="utf-8",
    )
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(provisional_docs)
    assert "needs a 'date_note' saying its date is PyPI's first upload day" in str(info.value)


# --- from provisional to full page -------------------------------------------------------------------------------


def test_the_plain_scaffold_turns_a_provisional_page_into_a_full_one(provisional_docs):
    before = (provisional_docs / "releases" / "1.7.md").read_text(encoding="utf-8")
    compat_before = before[before.index("compat:") : before.index("\n---", before.index("compat:"))]
    scaffold("1.7", provisional_docs)
    zh = (provisional_docs / "releases" / "1.7.md").read_text(encoding="utf-8")
    en = (provisional_docs / "releases" / "1.7.en.md").read_text(encoding="utf-8")
    assert "provisional: true" not in zh and 'patches: ["1.7.0"]' in zh and compat_before in zh
    assert "date: TODO" in zh and "2020-10-27" in zh and "TODO-feature-id" in zh and "TODO-feature-id" in en
    assert "compat_notes:" in en and "pypi-torchvision-requires" in en
    with pytest.raises(ReleaseDataError) as info:  # a half-filled scaffold never builds
        load_catalog(provisional_docs)
    assert "1.7.md:4: bad date 'TODO'" in str(info.value)


def test_the_scaffold_never_overwrites_a_full_page(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    evidence = json.loads(json.dumps(FIXTURE_EVIDENCE).replace("1.7.0", "1.6.0").replace("1.7", "1.6"))
    with pytest.raises(FileExistsError):
        scaffold_provisional("1.6", docs, evidence)
    result = subprocess.run(
        [sys.executable, "-m", "scripts.new_release", "1.6", "--docs-dir", str(docs)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1 and "already exists" in result.stderr


def test_a_release_pypi_does_not_list_cannot_be_provisional(tmp_path):
    evidence_file = tmp_path / "evidence.json"
    evidence_file.write_text(json.dumps(FIXTURE_EVIDENCE), encoding="utf-8")
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    result = subprocess.run(
        [sys.executable, "-m", "scripts.new_release", "1.9", "--provisional", "--docs-dir", str(docs), "--evidence", str(evidence_file)],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 1 and "lists no torch 1.9.x wheels on PyPI" in result.stderr
    assert not (docs / "releases" / "1.9.md").exists()
    with pytest.raises(ValueError):
        registry_facts("1.9", FIXTURE_EVIDENCE)


# --- the built site ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_timeline_marks_the_provisional_release_and_drops_the_pending_line(built_site, catalog, lang):
    soup = soup_of(built_site, LANG_PREFIX[lang])
    for release in catalog.releases:
        entry = soup.select_one(f'.timeline-entry[data-version="{release.version}"]')
        assert (entry.select_one(".provisional-mark") is not None) == release.provisional, release.version
    latest = soup.select_one(".latest-release")
    assert latest.select_one(".provisional-mark") is not None, "the newest release is provisional"
    assert soup.select_one(".latest-pending") is None, "a release with a provisional page is not 'pending'"
    page = soup_of(built_site, f"{LANG_PREFIX[lang]}releases/2.15/")
    assert page.find(id="provisional") is not None
    assert not page.select(".feature-table") and not page.select(".maturity")


def test_releases_json_says_which_releases_are_provisional(built_site, catalog):
    import jsonschema

    document = json.loads((built_site / "releases.json").read_text(encoding="utf-8"))
    schema = json.loads((built_site / "releases.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, schema)
    assert {r["version"]: r["provisional"] for r in document["releases"]} == {
        r.version: r.provisional for r in catalog.releases
    }
    entry = next(r for r in document["releases"] if r["version"] == "2.15")
    assert entry["provisional"] is True and entry["features"] == [] and entry["changes"] == []
    assert "provisional" in schema["properties"]["releases"]["items"]["required"]
    lts = next(r for r in document["releases"] if r["version"] == "1.8")["lts"]
    assert lts["patches"] == ["1.8.2"] and lts["source"].startswith("https://") and set(lts["note"]) == {"zh", "en"}


# --- what changed on PyPI, what was announced, what is planned ----------------------------------------------------


def test_the_registry_changes_of_2_15_are_computed_from_the_files(verdicts, evidence):
    change = verdicts["2.15"].since_previous
    before, now = evidence["torch"][change.previous_patch], evidence["torch"][change.patch]
    assert (change.previous, change.patch) == ("2.14", "2.15.0")
    pythons = {d.platform: d for d in change.deltas if d.fact == "python"}
    for platform, delta in pythons.items():
        assert set(delta.added) == set(now["wheels"].get(platform, [])) - set(before["wheels"].get(platform, []))
        assert set(delta.removed) == set(before["wheels"].get(platform, [])) - set(now["wheels"].get(platform, []))
    assert "3.10" in pythons["linux-x86_64"].removed and "3.15" in pythons["linux-x86_64"].added
    cuda = {d.platform: d for d in change.deltas if d.fact == "cuda"}
    assert cuda["linux-x86_64"].before == (before["cuda"]["linux-x86_64"],)
    assert cuda["linux-x86_64"].now == (now["cuda"]["linux-x86_64"],) and cuda["linux-x86_64"].changed


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_2_15_page_shows_the_registry_changes_the_announcements_and_the_plan(built_site, catalog, verdicts, lang):
    page = soup_of(built_site, f"{LANG_PREFIX[lang]}releases/2.15/")
    table = page.select_one("#registry-changes ~ div table.registry-changes")
    change = verdicts["2.15"].since_previous
    header = [th.get_text(strip=True) for th in table.select("thead th")]
    assert header[1:3] == [change.previous_patch, change.patch]
    shown = [d for d in change.deltas if d.before or d.now]
    rows = table.select("tbody tr")
    assert len(rows) == len(shown)
    for row, delta in zip(rows, shown, strict=True):
        assert ("registry-changed" in (row.get("class") or [])) == delta.changed
    release = catalog.by_version()["2.15"]
    items = page.select("ul.announced li")
    assert [li["id"] for li in items] == [f"announced-{a.id}" for a in release.pages[lang].announced]
    for li, announced in zip(items, release.pages[lang].announced, strict=True):
        assert li.select_one("a")["href"] == announced.source and announced.text in li.get_text()
        assert li.select_one(".announced-mark") is not None
    plan = release.next_release
    shown_plan = page.select_one("p.release-plan")
    assert shown_plan["data-version"] == plan.version and plan.date_iso in shown_plan.get_text()
    assert shown_plan.select_one("a")["href"] == plan.source
    home = soup_of(built_site, LANG_PREFIX[lang])
    planned = home.select_one(".timeline .timeline-planned")
    assert planned["data-version"] == plan.version and planned.select_one("a")["href"] == plan.source
    assert planned.find_next_sibling(class_="timeline-entry")["data-version"] == "2.15"  # the plan leads
    full = soup_of(built_site, f"{LANG_PREFIX[lang]}releases/2.14/")
    assert not full.select("table.registry-changes, ul.announced, p.release-plan")


PLAN = 'next_release:\n  version: "1.8"\n  date: 2020-12-10\n  source: https://github.com/pytorch/pytorch/blob/main/RELEASE.md\n  evidence: official\n'
ANNOUNCED = "announced:\n  - id: py36\n    text: 不再支持 Python 3.6\n    source: https://github.com/pytorch/pytorch/issues/1\n    evidence: official\n"


@pytest.mark.parametrize(
    "zh_add, en_add, message",
    [
        (PLAN.replace('"1.8"', '"1.7"'), "", "next_release.version '1.7' must be later than 1.7"),
        (PLAN.replace("2020-12-10", "2020-10-01"), "", "next_release.date 2020-10-01 is not after this release's date"),
        (PLAN.replace("2020-12-10", "2020-12"), "", "next_release.date '2020-12': the planned day as YYYY-MM-DD"),
        (PLAN.replace("https://github.com/pytorch/pytorch/blob/main/RELEASE.md", "javascript:alert(1)"), "", "next_release.source"),
        (ANNOUNCED, "", "announced change 'py36' has no English text"),
        (ANNOUNCED.replace("    source: https://github.com/pytorch/pytorch/issues/1\n", ""), "announced:\n  py36: No Python 3.6\n", "announced item"),
        ("", "announced:\n  py36: No Python 3.6\n", "unknown announced change 'py36'"),
    ],
)  # fmt: skip
def test_plans_and_announcements_are_checked_with_their_line(provisional_docs, zh_add, en_add, message):
    for name, added in (("1.7.md", zh_add), ("1.7.en.md", en_add)):
        page = provisional_docs / "releases" / name
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("\n---\n", "\n" + added + "---\n", 1), encoding="utf-8")
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(provisional_docs)
    assert "1.7" in str(info.value) and message in str(info.value), str(info.value)


def test_announcements_belong_to_a_provisional_release(provisional_docs):
    older = provisional_docs / "releases" / "1.6.md"
    older.write_text(older.read_text(encoding="utf-8").replace("\n---\n", "\n" + ANNOUNCED + "---\n", 1), "utf-8")
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(provisional_docs)
    assert "1.6.md:" in str(info.value) and "'announced' belongs to a provisional release" in str(info.value)


def test_a_plan_is_shown_only_while_its_release_is_the_next_one(provisional_docs):
    """Adding the planned release is one page pair: the older page's plan is then no longer shown anywhere."""
    from scripts.verdicts.compute import verdicts_of
    from scripts.verdicts.support import planned_releases

    newest = provisional_docs / "releases" / "1.7.md"
    newest.write_text(newest.read_text(encoding="utf-8").replace("\n---\n", "\n" + PLAN + "---\n", 1), "utf-8")
    catalog = load_catalog(provisional_docs)
    plan = catalog.releases[0].next_release
    assert planned_releases(catalog, verdicts_of(catalog, FIXTURE_EVIDENCE)) == [plan]
    pypi_has_it = json.loads(json.dumps(FIXTURE_EVIDENCE))
    pypi_has_it["torch"]["1.8.0"] = {**pypi_has_it["torch"]["1.7.0"], "uploaded": "2020-12-10", "python": ["3.8"]}
    assert planned_releases(catalog, verdicts_of(catalog, pypi_has_it)) == []
