"""Fast checks of the site benchmark's parts (scripts/bench/) (no timed builds, no browser, no Lighthouse run)."""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, ROOT

from scripts.bench import lighthouse
from scripts.bench import site as bench_site
from scripts.bench.builds import add_synthetic_releases, clone_release_text, plain_material_config, write_plain_config
from scripts.bench.lighthouse import failing_audits
from scripts.bench.site import markdown_table, parse_parts, parse_sizes
from scripts.bench.weight import account, index_sizes
from scripts.catalog.frontmatter import split_front_matter
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import version_key


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6, mtime=0))


def real_releases(tmp_path):
    """docs/ with only the real release pages: all load_catalog reads."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs" / "releases", docs / "releases")
    return docs


def test_help_runs_as_a_module():
    result = subprocess.run(
        [sys.executable, "-m", "scripts.bench.site", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    for option in ("--repeats", "--sizes", "--only", "--skip-builds", "--skip-lighthouse", "--site-dir"):
        assert option in result.stdout


def test_synthetic_releases_pass_the_data_model(tmp_path):
    docs = real_releases(tmp_path)
    real = load_catalog(docs)
    added = add_synthetic_releases(docs, len(real.releases) + 30)
    catalog = load_catalog(docs)  # raises ReleaseDataError on any invalid page
    assert len(added) == 30
    assert len(catalog.releases) == len(real.releases) + 30
    assert len(list((docs / "releases").glob("*.md"))) == 2 * len(catalog.releases)
    versions = [r.version for r in catalog.releases]
    dates = [r.date for r in catalog.releases]
    assert len(set(versions)) == len(versions)
    # Newest first by version is also newest first by date: synthetic releases come after every real one,
    # and none is dated after today (the data model refuses that).
    assert dates == sorted(dates, reverse=True) and max(dates) <= dt.date.today()
    assert min(version_key(v) for v in added) > max(version_key(r.version) for r in real.releases)
    newest = catalog.releases[0]
    assert newest.version == added[-1]
    for lang, page in newest.pages.items():
        assert f"PyTorch {newest.version}" in page.title, (lang, page.title)


def test_synthetic_releases_cycle_through_few_sources(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "site" / "releases", docs / "releases")
    assert add_synthetic_releases(docs, 7) == ["10.0", "10.1", "10.2", "10.3", "10.4"]
    catalog = load_catalog(docs)
    assert len(catalog.releases) == 7
    assert add_synthetic_releases(docs, 7) == []  # already there
    with pytest.raises(ValueError):
        add_synthetic_releases(docs, 3)


def test_clone_changes_only_the_front_matter():
    text = '---\nversion: "1.6"\ndate: 2020-07-28\ntitle: "PyTorch 1.6: AMP"\nsummary: "PyTorch 1.60 is not 1.6"\n---\n\nPyTorch 1.6 body\n'
    cloned = clone_release_text(text, "1.6", "10.3", dt.date(2026, 1, 2))
    front, body, _ = split_front_matter(cloned)
    assert 'version: "10.3"' in front and "date: 2026-01-02" in front
    assert 'title: "PyTorch 10.3: AMP"' in front
    assert "PyTorch 1.60" in front  # another version is not renamed
    assert body == "\nPyTorch 1.6 body\n"


def test_plain_material_config_strips_hooks_and_plugins(tmp_path):
    from mkdocs.utils.yaml import yaml_load

    with open(ROOT / "mkdocs.yml", encoding="utf-8") as f:
        ours = yaml_load(f)
    plain = plain_material_config(ROOT / "mkdocs.yml")
    assert "hooks" not in plain
    names = [p if isinstance(p, str) else next(iter(p)) for p in plain["plugins"]]
    assert names == ["search"]
    assert "polyfills" not in plain.get("extra", {})
    assert "custom_dir" not in plain["theme"]
    assert plain["strict"] is False
    # Same Markdown: docs, extensions and the site's own CSS/JS are untouched.
    for key in ("docs_dir", "markdown_extensions", "extra_css", "extra_javascript"):
        assert plain.get(key) == ours.get(key), key
    assert plain["theme"]["name"] == "material"

    project = tmp_path / "project"
    project.mkdir()
    shutil.copy2(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    name = write_plain_config(project)
    with open(project / name, encoding="utf-8") as f:
        assert yaml_load(f) == plain


def test_plain_material_config_handles_other_plugin_forms(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: x\nplugins:\n  material/search: {}\n  i18n: {languages: []}\nhooks: [a.py]\n", encoding="utf-8"
    )
    assert plain_material_config(config)["plugins"] == ["search"]
    config.write_text("site_name: x\nplugins:\n  - material/search: {lang: en}\n  - offline\n", encoding="utf-8")
    assert plain_material_config(config)["plugins"] == [{"search": {"lang": "en"}}]
    config.write_text("site_name: x\nplugins: [i18n]\n", encoding="utf-8")
    assert plain_material_config(config)["plugins"] == ["search"]


def test_gzip_accounting_sums_each_file_once(tmp_path):
    site = tmp_path / "site"
    files = {
        "index.html": b"<html>" + b"hello " * 200 + b"</html>",
        "en/index.html": b"<html>bonjour</html>",
        "assets/app.css": b"body{color:red}" * 50,
        "search/search_index.json": json.dumps({"docs": [{"location": "", "text": "x" * 3000}]}).encode(),
    }
    for rel, data in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(data)
    base = "http://127.0.0.1:8123/"
    urls = [
        base,
        base + "assets/app.css?v=1",
        base + "assets/app.css",  # again: from cache
        base + "search/search_index.json",
        base + "missing.js",
        "https://fonts.example.com/x.woff2",
        "data:image/png;base64,AAAA",
    ]
    weight = account(site, base, urls)
    sizes = {rel: gz(data) for rel, data in files.items()}
    assert weight.files == {rel: sizes[rel] for rel in ("index.html", "assets/app.css", "search/search_index.json")}
    assert weight.total == sizes["index.html"] + sizes["assets/app.css"] + sizes["search/search_index.json"]
    assert weight.search == sizes["search/search_index.json"]
    assert weight.without_search == weight.total - weight.search
    assert weight.missing == ["missing.js"]
    assert weight.foreign == ["https://fonts.example.com/x.woff2"]
    assert weight.by_kind() == {
        "html": sizes["index.html"],
        "css": sizes["assets/app.css"],
        "json": sizes["search/search_index.json"],
    }
    assert account(site, base, [base + "en/"]).files == {"en/index.html": sizes["en/index.html"]}


def test_index_sizes_sum_every_search_file_per_language(tmp_path):
    search = tmp_path / "search"
    search.mkdir()
    config = {"lang": ["en", "zh"]}
    zh = [{"location": "", "title": "首页"}, {"location": "releases/1.6/", "title": "1.6"}]
    en = [{"location": "en/", "title": "Home"}]
    (search / "search_index.json").write_text(
        json.dumps({"config": config, "docs": zh + en}, ensure_ascii=False), encoding="utf-8"
    )
    full = [{"location": "en/releases/1.6/", "text": "long text " * 100}]
    (search / "full.json").write_text(json.dumps(full), encoding="utf-8")
    (search / "notes.txt").write_text("not json", encoding="utf-8")
    per_lang, per_file = index_sizes(tmp_path)
    assert list(per_file) == ["search/search_index.json", "search/full.json"]
    for name, (raw, gzipped) in per_file.items():
        data = (tmp_path / name).read_bytes()
        assert (raw, gzipped) == (len(data), gz(data))

    def share(obj):
        data = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return len(data), gz(data)

    assert per_lang["zh"] == share({"config": config, "docs": zh})
    en_index, en_full = share({"config": config, "docs": en}), share(full)
    assert per_lang["en"] == (en_index[0] + en_full[0], en_index[1] + en_full[1])


def test_index_sizes_count_a_language_index_file_whole(tmp_path):
    search = tmp_path / "search"
    search.mkdir()
    (search / "search_index.json").write_text(json.dumps({"config": {}, "docs": []}), encoding="utf-8")
    zh = json.dumps(
        {
            "lang": "zh",
            "docs": [["releases/1.6/", "PyTorch 1.6", "混合精度", 3, 0]],
            "tokens": ["1.6"],
            "postings": ["0,1"],
        },
        ensure_ascii=False,
    )
    (search / "index.zh.json").write_text(zh, encoding="utf-8")
    per_lang, per_file = index_sizes(tmp_path)
    data = zh.encode("utf-8")
    assert per_file["search/index.zh.json"] == (len(data), gz(data))
    assert per_lang["zh"] == (len(data), gz(data))
    assert per_lang["en"] == (0, 0)


def test_failing_audits_skip_informative_and_not_applicable():
    report = {
        "audits": {
            "color-contrast": {
                "title": "Contrast.",
                "score": 0,
                "scoreDisplayMode": "binary",
                "details": {"items": [{"node": {"selector": "a.x"}}]},
            },
            "fcp": {"title": "FCP", "score": 0.9, "scoreDisplayMode": "numeric", "displayValue": "1.2 s"},
            "ok": {"title": "OK", "score": 1, "scoreDisplayMode": "binary"},
            "info": {"title": "Info", "score": 0, "scoreDisplayMode": "informative"},
            "na": {"title": "NA", "score": None, "scoreDisplayMode": "notApplicable"},
            "manual": {"title": "Manual", "score": None, "scoreDisplayMode": "manual"},
            "broken": {"title": "Broken", "score": None, "scoreDisplayMode": "error", "errorMessage": "boom"},
        }
    }
    assert [a["id"] for a in failing_audits(report)] == ["broken", "color-contrast", "fcp"]
    failing = {a["id"]: a for a in failing_audits(report)}
    assert failing["broken"]["display"] == "boom"
    assert failing["color-contrast"]["title"] == "Contrast" and "`a.x`" in failing["color-contrast"]["display"]


def test_missing_lighthouse_is_skipped_with_a_hint(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lighthouse, "LIGHTHOUSE", tmp_path / "node_modules" / ".bin" / "lighthouse")
    (tmp_path / "site").mkdir()
    assert bench_site.main(["--only", "lighthouse", "--site-dir", str(tmp_path / "site")]) == 0
    out = capsys.readouterr().out
    assert "npm ci" in out and "| Figure" in out


def test_options_and_table():
    assert parse_sizes("200,24,100,24") == [24, 100, 200]
    assert parse_parts("build,bytes") == ["build", "bytes"]
    with pytest.raises(argparse.ArgumentTypeError, match="nope"):
        parse_parts("build,nope")
    table = markdown_table([("a|b", "1 s", ""), ("longer figure", "2", "< 3")]).splitlines()
    assert table[0].startswith("| Figure") and set(table[1]) <= {"|", "-"}
    assert "a\\|b" in table[2]
    assert len({len(line) for line in table}) == 1


def test_lighthouse_measures_every_page_type_on_mobile_in_both_languages(tmp_path):
    site = tmp_path / "site"
    for path, size in [
        ("", 10),
        ("releases/1.6/", 10),
        ("releases/2.14/", 99),
        ("lifecycle/", 1),
        ("compare/", 1),
        ("compatibility/", 1),
        ("support/", 1),
        ("topics/distributed/", 1),
    ]:
        (site / path).mkdir(parents=True, exist_ok=True)
        (site / path / "index.html").write_text("x" * size, encoding="utf-8")
    urls = lighthouse.lighthouse_urls(site, "1.6")
    types = {page for page, _, _ in urls}
    assert types == {"home", "release", "release 2.14 (longest)", "lifecycle", "upgrade", "matrix", "support", "topic"}
    assert all((page, lang, "mobile") in urls for page in types for lang in ("zh", "en"))
    assert {(page, ff) for page, _, ff in urls if ff == "desktop"} == {("home", "desktop"), ("release", "desktop")}
    assert urls[("release 2.14 (longest)", "en", "mobile")] == "en/releases/2.14/"
    report = {
        "audits": {
            "first-contentful-paint": {"displayValue": "1.4 s"},
            "total-blocking-time": {"displayValue": "150 ms"},
        }
    }
    assert lighthouse.performance_metrics(report) == "FCP 1.4 s · TBT 150 ms"
