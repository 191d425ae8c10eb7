"""Gate: every internal link and #anchor resolves, in the hosted build and the offline copy, both languages.
External links are listed (never fetched) in .cache/external-links*.txt for a human to review."""

from __future__ import annotations

from pathlib import Path

from test_site import SITE_URL

from scripts.checks.links import check_site, main

ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, html: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"<!doctype html><html><head><title>t</title></head><body>\n{html}\n</body></html>", encoding="utf-8"
    )


def save_external_report(report, name: str) -> None:
    (ROOT / ".cache").mkdir(exist_ok=True)
    (ROOT / ".cache" / name).write_text(report.external_listing(), encoding="utf-8")


def test_hosted_build_has_no_broken_link_or_anchor(built_site, offline_copy):
    # offline_copy: the hosted build includes the offline zip every page links to (make build makes both).
    report = check_site(built_site, SITE_URL)
    save_external_report(report, "external-links.txt")
    assert report.broken == []
    # Both languages were crawled, and the site-absolute URLs (canonical, hreflang, og:url) were followed.
    pages = {p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")}
    assert report.pages == len(pages) and "en/releases/1.6/index.html" in pages and "releases/1.6/index.html" in pages
    assert not any(url.startswith(SITE_URL) for url in report.external)
    # Every release page cites its official post: those are listed, not fetched.
    assert sum(url.startswith("https://pytorch.org/blog/") for url in report.external) >= 20


def test_offline_copy_has_no_broken_link_or_anchor(offline_copy):
    report = check_site(offline_copy)
    save_external_report(report, "external-links-offline.txt")
    assert report.broken == []
    assert (offline_copy / "en" / "releases" / "1.6.html").is_file() and report.pages > 80


def test_checker_reports_missing_pages_anchors_and_assets(tmp_path):
    write(
        tmp_path / "index.html",
        '<a href="a/">ok</a> <a href="a/#here">ok</a> <a href="a/#gone">bad anchor</a>\n'
        '<a href="missing/">bad page</a> <img src="img/x.png" srcset="img/x.png 1x, img/y.png 2x">\n'
        '<a href="#top" id="top">self</a> <a href="mailto:x@example.org">mail</a> <a href="https://example.org/">out</a>\n'
        '<link rel="canonical" href="https://site.example/repo/a/"> <a href="https://site.example/repo/nope/">bad absolute</a>',
    )
    write(tmp_path / "a" / "index.html", '<h2 id="here">h</h2>')
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "x.png").write_bytes(b"png")
    write(tmp_path / "404.html", '<a href="/repo/a/">root-relative</a>\n<a href="/repo/b/">bad root-relative</a>')
    report = check_site(tmp_path, "https://site.example/repo/")
    broken = sorted(line.split(" ", 1)[0] + " " + line.split("'")[1] for line in report.broken)
    assert broken == [
        "404.html:3: /repo/b/",
        "index.html:2: a/#gone",
        "index.html:3: img/y.png",
        "index.html:3: missing/",
        "index.html:5: https://site.example/repo/nope/",
    ]
    assert dict(report.external) == {"https://example.org/": {"index.html"}}


def test_cli_exits_non_zero_and_names_the_line(tmp_path, capsys):
    write(tmp_path / "index.html", '<p>x</p>\n<a href="gone.html#x">x</a>')
    assert main([str(tmp_path)]) == 1
    assert "index.html:3: 'gone.html#x' points at gone.html, which is not in the build" in capsys.readouterr().err
    write(tmp_path / "index.html", '<a href="https://pytorch.org/">x</a>')
    assert main([str(tmp_path), "--report", str(tmp_path / "ext.txt")]) == 0
    assert "https://pytorch.org/\n    index.html" in (tmp_path / "ext.txt").read_text(encoding="utf-8")
