"""The release catalog against the references: the whole history, labels as each post prints them, one id per
feature, changes in the release that made them, compatibility checked against PyPI, and facts computed across
releases (status today, drops, chains). No build: these read the catalog (and the PyPI evidence file)."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import FIXTURES, ROOT
from reference_data import (
    ID_TRAPS,
    LABEL_TRAPS,
    LABELS_BY_RULE,
    LTS,
    OFFICIAL,
    PAIRINGS,
    PROVISIONAL,
    UNIFIED_IDS,
    UPGRADE_1_13_TO_2_6,
)

from scripts.catalog.history import status_today
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import ReleaseDataError
from scripts.checks.verify_compat import disagreements
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.verdicts.compute import verdicts_of
from scripts.verdicts.install import install_options
from scripts.verdicts.rules import library_pin
from scripts.views.release.install import install_section
from scripts.views.upgrade import upgrade_items

# Where breaking-changes.md (and releases-0.x.md §3) puts each change: change id -> release.
CHANGE_HOMES = {
    "thd-deprecated": "1.0",
    "bool-comparisons": "1.2",
    "python-2-dropped": "1.5",
    "int-div-error": "1.6",
    "fft-functions-removed": "1.8",
    "linalg-old-functions-deprecated": "1.9",
    "python-3-7-dropped": "2.0",
    "macos-x86-dropped": "2.3",
    "device-specific-amp-deprecated": "2.4",
    "weights-only-default": "2.6",
    "conda-packages-ended": "2.6",
    "torchscript-deprecated": "2.10",
    "export-for-training-removed": "2.11",
    "named-tensors-removed": "2.13",
    "cholesky-qr-removed": "2.14",
    "scalar-indexing": "0.4",
    "volatile-deprecated": "0.4",
    "keepdim-default-false": "0.2",
}
# Deprecation -> removal chains the site must link (breaking-changes.md §2).
CHAINS = {
    ("1.6", "int-div-error"): ("1.5", "int-div-warning"),
    ("1.8", "fft-functions-removed"): ("1.7", "fft-functions-deprecated"),
    ("2.6", "weights-only-default"): ("2.4", "torch-load-weights-only-warning"),
    ("2.14", "torchscript-warnings-visible"): ("2.10", "torchscript-deprecated"),
    ("2.14", "cholesky-qr-removed"): ("1.9", "linalg-old-functions-deprecated"),
    ("2.11", "export-for-training-removed"): ("2.9", "export-for-training-deprecated"),
}


def test_the_whole_history_is_covered(catalog):
    # Every release with an official post, and after them the releases PyPI lists whose post is not in yet.
    assert [r.version for r in reversed(catalog.releases) if not r.provisional] == list(OFFICIAL)
    assert [r.version for r in reversed(catalog.releases) if r.provisional] == list(PROVISIONAL)
    assert [r.version for r in reversed(catalog.releases)] == list(OFFICIAL) + list(PROVISIONAL)
    assert len(catalog.releases) == 34


def test_the_lts_line_is_a_fact_of_its_release_with_its_source(catalog):
    assert {r.version: (r.lts.patches, r.lts.source) for r in catalog.releases if r.lts} == LTS
    for version, (patches, _) in LTS.items():
        release = catalog.by_version()[version]
        assert set(patches) <= set(release.patches) and set(patches) <= set(release.compat.not_on_pypi)
        zh, en = release.pages["zh"].lts, release.pages["en"].lts
        assert zh.evidence == en.evidence == "official" and zh.note != en.note and "LTS" in zh.note and "LTS" in en.note


@pytest.mark.parametrize("trap", list(LABEL_TRAPS), ids=lambda t: f"{t[0]}-{t[1]}")
def test_labels_the_post_does_not_print_stay_out(catalog, trap):
    version, feature_id = trap
    features = {f.id: f.maturity for f in catalog.by_version()[version].features}
    if feature_id == "*":
        assert set(features.values()) == {LABEL_TRAPS[trap]}, f"{version}: {features}"
    else:
        assert features.get(feature_id) == LABEL_TRAPS[trap]


@pytest.mark.parametrize("case", list(LABELS_BY_RULE), ids=lambda c: f"{c[0]}-{c[1]}")
def test_the_label_rule_is_the_same_in_every_release(catalog, case):
    version, feature_id = case
    features = {f.id: f.maturity for f in catalog.by_version()[version].features}
    assert features.get(feature_id) == LABELS_BY_RULE[case]


@pytest.mark.parametrize("trap", list(ID_TRAPS), ids=lambda t: f"{t[0]}-{t[1]}")
def test_one_id_is_one_feature(catalog, trap):
    version, feature_id = trap
    features = {f.id: f.maturity for f in catalog.by_version()[version].features}
    assert features.get(feature_id) == ID_TRAPS[trap]


# Maturity rank in both schemes (2.8 on: API-Unstable ~ Beta, API-Stable ~ Stable). "no label" has no rank.
MATURITY_RANK = {"Experimental": 0, "Prototype": 0, "Beta": 1, "API-Unstable": 1, "Stable": 2, "API-Stable": 2}


def test_no_label_journey_steps_down(catalog):
    # A step down (Stable 1.9 -> API-Unstable 2.10) has so far always meant one id given to two things.
    from scripts.catalog.history import feature_history

    for entry in feature_history(catalog, "en"):
        ranked = [(version, label) for version, label in entry["steps"] if label in MATURITY_RANK]
        for (v1, l1), (v2, l2) in zip(ranked, ranked[1:], strict=False):
            assert MATURITY_RANK[l2] >= MATURITY_RANK[l1], f"{entry['id']}: {l1} {v1} -> {l2} {v2}"


def test_unified_ids_keep_one_area_and_span_releases(catalog):
    for feature_id, area in UNIFIED_IDS.items():
        found = [(r.version, f.area) for r in catalog.releases for f in r.features if f.id == feature_id]
        assert len(found) >= 3 and {a for _, a in found} == {area}, found
    assert not any(f.id == "arm-performance" for r in catalog.releases for f in r.features)


@pytest.mark.parametrize("change_id, version", sorted(CHANGE_HOMES.items()))
def test_each_change_is_listed_in_the_release_that_made_it(catalog, change_id, version):
    homes = [r.version for r in catalog.releases if any(c.id == change_id for c in r.changes)]
    assert homes == [version]


@pytest.mark.parametrize("later, earlier", sorted(CHAINS.items()))
def test_deprecation_chains_are_linked(catalog, later, earlier):
    change = next(c for c in catalog.by_version()[later[0]].changes if c.id == later[1])
    assert change.follows == earlier


def test_every_change_has_an_english_text_and_a_source(catalog):
    for release in catalog.releases:
        zh, en = release.pages["zh"].changes, release.pages["en"].changes
        assert [c.id for c in zh] == [c.id for c in en]
        for a, b in zip(zh, en, strict=True):
            assert a.text and b.text and a.text != b.text and a.source.startswith("https://")


def test_status_today_is_computed_from_the_catalog(catalog):
    statuses = status_today(catalog)
    assert (statuses["torchscript"].kind, statuses["torchscript"].version) == ("deprecated", "2.10")
    assert (statuses["named-tensors"].kind, statuses["named-tensors"].version) == ("removed", "2.13")
    assert statuses["torch-compile"].kind == "label"
    assert statuses["flex-attention"].version == max(
        (r.version for r in catalog.releases if any(f.id == "flex-attention" for f in r.features)),
        key=lambda v: tuple(map(int, v.split("."))),
    )


def test_status_today_changes_when_a_later_release_relabels_a_feature(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    before = status_today(load_catalog(docs))["torchscript-fork-join"]
    assert (before.kind, before.label, before.version) == ("label", "Beta", "1.6")
    for name in ("1.7.md", "1.7.en.md"):
        text = (docs / "releases" / name.replace("1.7", "1.6")).read_text(encoding="utf-8")
        text = (
            text.replace('version: "1.6"', 'version: "1.7"')
            .replace("date: 2020-07-28", "date: 2020-10-27")
            .replace("1.6.0", "1.7.0")
        )
        text = text.replace("    maturity: Beta", "    maturity: Stable").replace(
            '    follows: "1.5#int-div-warning"\n', ""
        )
        (docs / "releases" / name).write_text(text, encoding="utf-8")
    after = status_today(load_catalog(docs))["torchscript-fork-join"]
    assert (after.kind, after.label, after.version) == ("label", "Stable", "1.7")


def test_catalog_and_registry_agree_or_say_why(catalog):
    evidence = load_evidence(ROOT / "docs" / EVIDENCE_FILE)
    assert evidence["checked"] == "2026-11-28" and len(evidence["torch"]) > 40
    problems = disagreements(catalog, evidence)
    assert problems == [], "\n".join(str(p) for p in problems)


@pytest.mark.parametrize("patch", sorted(PAIRINGS))
def test_pairings_and_install_commands(catalog, patch):
    release = catalog.by_version()[".".join(patch.split(".")[:2])]
    vision, audio = PAIRINGS[patch]
    assert release.compat.library_version("torchvision", patch) == vision
    assert release.compat.library_version("torchaudio", patch) == audio
    # The commands pin what PyPI's own metadata admits: the sources' pairing, or the fix of its line that PyPI's
    # Requires-Dist accepts with this patch (2.14.1: torchvision 0.29.1, not 0.29.0).
    evidence = load_evidence(ROOT / "docs" / EVIDENCE_FILE)
    p, options = install_options(release, evidence)
    if p.patch != patch:
        return
    want = {name: library_pin(release, evidence, name, patch) for name in ("torchvision", "torchaudio")}
    plain = f"pip install torch=={p.patch} "
    for option in options:
        if option.manager != "pip" or (option.compute == "default" and not option.command.startswith(plain)):
            continue  # a platform's own PyPI command (another patch) is held to pip in tests/test_install_resolver.py
        pins = dict(part.split("==") for part in option.command.split() if "==" in part)
        if option.compute == "default" and option.command != options[0].command:
            # A platform's own PyPI command leaves out the libraries PyPI has no wheel of there (1.7 on Windows).
            assert set(pins) < {"torch", "torchvision", "torchaudio"} and option.systems, option
            continue
        assert (
            pins["torchvision"].split("+")[0] == want["torchvision"].version
            and pins["torchaudio"] == want["torchaudio"].version
        ), option.command
        if (vision, audio) != (want["torchvision"].version, want["torchaudio"].version):
            assert want["torchvision"].claimed == vision or want["torchaudio"].claimed == audio


def test_every_release_since_1_0_has_an_install_box(catalog):
    verdicts = verdicts_of(catalog, load_evidence(ROOT / "docs" / EVIDENCE_FILE))
    for release in catalog.releases:
        for lang in ("zh", "en"):
            box = install_section(release, verdicts, lang)
            assert "{ #install }" in box, release.version
            if tuple(map(int, release.version.split("."))) >= (1, 0):
                on_pypi = [p for p in release.patches if p not in release.compat.not_on_pypi]
                assert f"pip install torch=={on_pypi[-1]}" in box, release.version


def test_every_plain_pip_command_pins_a_torch_that_pypi_has(catalog):
    # 1.8.2 (LTS) was never on PyPI: `pip install torch==1.8.2` fails, so the box offers 1.8.1 and says why.
    evidence = load_evidence(ROOT / "docs" / EVIDENCE_FILE)
    on_pypi = set(evidence["torch"])
    verdicts = verdicts_of(catalog, evidence)
    for release in catalog.releases:
        for line in install_section(release, verdicts, "en").splitlines():
            command = line.strip()
            if command.startswith("pip install torch==") and "download.pytorch.org" not in command:
                pinned = command.split()[2].split("==")[1]
                assert pinned in on_pypi, f"{release.version}: {command}"


def test_upgrade_from_1_13_to_2_6_lists_the_famous_three_once_in_order(catalog):
    items = upgrade_items(catalog, "1.13", "2.6", "en")
    flat = [(i["version"], i["id"]) for group in items.values() for i in group]
    for wanted in UPGRADE_1_13_TO_2_6:
        assert flat.count(wanted) == 1, wanted
    assert not any(item == ("2.0", "python-3.7") for item in flat), "the drop is listed by its change, not twice"
    for group in items.values():
        versions = [tuple(map(int, i["version"].split("."))) for i in group]
        assert versions == sorted(versions), "oldest first within a group"


def test_releases_json_carries_compat_and_changes(catalog):
    from scripts.views.feeds import releases_json

    document = json.loads(releases_json(catalog, "https://example.org/"))
    by_version = {r["version"]: r for r in document["releases"]}
    assert by_version["2.6"]["compat"]["torchvision"][0]["values"] == ["0.21.0"]
    assert any(c["id"] == "weights-only-default" for c in by_version["2.6"]["changes"])
    assert by_version["0.1"]["date"] == "2017-01" and by_version["0.1"]["date_precision"] == "month"


def test_a_fact_written_twice_is_impossible(tmp_path):
    """The English page cannot carry a fact at all, so the two languages cannot disagree on one."""
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site", docs)
    page = docs / "releases/1.6.en.md"
    page.write_text(
        page.read_text(encoding="utf-8")
        .replace("features:\n", "features:\n  native-amp: AMP\n", 1)
        .replace('  native-amp: "Native automatic mixed precision"\n', "")
        .replace("---\n", "---\ndate: 2020-07-29\n", 1),
        encoding="utf-8",
    )
    with pytest.raises(ReleaseDataError) as info:
        load_catalog(docs)
    assert "'date' is a fact, written once in the Chinese page 1.6.md" in str(info.value)


def test_the_facts_an_independent_read_corrected_stay_corrected(catalog):
    """Issue "Every page in our own words, and right": each fact the read found wrong or missing."""
    releases = catalog.by_version()
    features = {f.id: f for f in releases["2.14"].features}
    assert features["tunableop"].maturity == features["cublaslt-grouped-gemm"].maturity == "API-Unstable"
    changes = {c.id: c for c in releases["2.14"].changes}
    for change_id in (
        "profiler-pattern-matcher-removed",
        "control-collectives-removed",
        "sparse-weights-only-validation",
        "compile-on-one-rank-alias-deprecated",
    ):
        assert change_id in changes
    en = {lang: {c.id: c.text for c in releases["2.12"].pages[lang].changes} for lang in ("zh", "en")}
    assert any("2.13 or later" in text for text in en["en"].values()) and any(
        "2.13 或更晚" in text for text in en["zh"].values()
    )
    # The "<1 %" overhead is the post's figure on create_block_mask: the qualifier stays with the figure.
    for name, figure in (
        ("2.13.en.md", "measured on `create_block_mask`: there the\nend-to-end overhead stays well below 1%"),
        ("2.13.md", "在 `create_block_mask` 上测得的端到端开销：序列较长时远低于 1%"),
    ):
        assert figure in (ROOT / "docs" / "releases" / name).read_text(encoding="utf-8"), name
    zero_four = (ROOT / "docs" / "releases" / "0.4.en.md").read_text(encoding="utf-8")
    assert "converts only the floating-point parameters and buffers" in zero_four
    two_ten = (ROOT / "docs" / "releases" / "2.10.en.md").read_text(encoding="utf-8")
    assert "follow only one branch" not in two_ten and "GuardOnDataDependentSymNode" in two_ten
