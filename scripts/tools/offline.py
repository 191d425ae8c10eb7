"""Build the offline copy of the site and pack it as a zip that the hosted site links to.

    python -m scripts.tools.offline [--site-dir site] [--project .]

Runs a second, strict MkDocs build with OFFLINE=true (Material's offline plugin: `.html` URLs, vendored
iframe-worker shim; our search index as scripts, two per language), checks that each language has its index,
drops files nothing loads (source maps, lunr stemmers of other languages, the 404 page), and writes
`<site-dir>/downloads/pytorch-timeline-offline.zip` with sorted entries and fixed timestamps, so the same
commit always gives the same bytes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from scripts.views.search_index import index_file, read_index_script

LANGUAGES = ("zh", "en")
ZIP_PATH = "downloads/pytorch-timeline-offline.zip"
TOP_FOLDER = "pytorch-timeline-offline"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold
# Material's own search worker (kept for scripts/bench/search.py's comparison) loads only these lunr files.
LUNR_KEEP = {"lunr.stemmer.support.min.js", "lunr.zh.min.js", "lunr.multi.min.js"}


class OfflineBuildError(RuntimeError):
    pass


def build_offline_site(project: Path, out_dir: Path) -> None:
    env = {**os.environ, "OFFLINE": "true", "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out_dir)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise OfflineBuildError(f"offline build failed:\n{result.stdout}{result.stderr}")


def search_entries(site: Path) -> dict[str, list[str]]:
    """Locations in each language's search index script (the offline copy's, loaded from file://)."""
    entries = {}
    for lang in LANGUAGES:
        path = site / index_file(lang, offline=True)
        entries[lang] = (
            [d[0] for d in read_index_script(path.read_text(encoding="utf-8"))["docs"]] if path.is_file() else []
        )
    return entries


def check_offline_site(site: Path) -> None:
    for lang, locations in search_entries(site).items():
        if not locations:
            raise OfflineBuildError(
                f"the offline copy has no search index for {lang} ({index_file(lang, offline=True)})"
            )
        if any(loc.startswith("en/") != (lang == "en") for loc in locations):
            raise OfflineBuildError(f"the offline search index for {lang} holds pages of another language")
        text = site / index_file(lang, offline=True, part="text")
        if not text.is_file() or len(read_index_script(text.read_text(encoding="utf-8"))["texts"]) != len(locations):
            raise OfflineBuildError(
                f"the offline copy's search text for {lang} ({index_file(lang, offline=True, part='text')}) is missing or does not match its index"
            )


def prune(site: Path) -> None:
    # A 404 page is for a web server to send; from disk nothing reaches it, and its root-absolute
    # asset URLs (/assets/...) would not load there anyway.
    (site / "404.html").unlink(missing_ok=True)
    for path in site.rglob("*.map"):
        path.unlink()
    lunr_min = site / "assets" / "javascripts" / "lunr" / "min"
    for path in lunr_min.glob("*.js"):
        if path.name not in LUNR_KEEP:
            path.unlink()
    for name in ("tinyseg.js", "wordcut.js"):
        (site / "assets" / "javascripts" / "lunr" / name).unlink(missing_ok=True)


def write_zip(site: Path, zip_path: Path) -> None:
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in site.rglob("*") if p.is_file())
    with zipfile.ZipFile(zip_path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in files:
            info = zipfile.ZipInfo(f"{TOP_FOLDER}/{path.relative_to(site).as_posix()}", date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())


def build_offline_zip(project: Path, site_dir: Path) -> Path:
    """Build, check, prune and zip the offline copy into site_dir; return the zip's path."""
    with tempfile.TemporaryDirectory(prefix="offline-") as tmp:
        offline = Path(tmp) / "site"
        build_offline_site(project, offline)
        check_offline_site(offline)
        prune(offline)
        zip_path = site_dir / ZIP_PATH
        write_zip(offline, zip_path)
    return zip_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.tools.offline", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--site-dir", type=Path, default=Path("site"), help="the hosted build to put the zip into (default: site)"
    )
    parser.add_argument("--project", type=Path, default=Path("."), help="project root holding mkdocs.yml (default: .)")
    args = parser.parse_args(argv)
    try:
        zip_path = build_offline_zip(args.project, args.site_dir)
    except OfflineBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {zip_path} ({zip_path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
