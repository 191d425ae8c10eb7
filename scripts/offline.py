"""Build the offline copy of the site and pack it as a zip that the hosted site links to.

    python -m scripts.offline [--site-dir site] [--project .]

Runs a second, strict MkDocs build with OFFLINE=true (Material's offline plugin: `.html` URLs, search index
as a script, vendored iframe-worker shim), checks that the offline search index holds both languages,
drops files nothing loads (source maps, lunr stemmers of other languages, the 404 page), and writes
`<site-dir>/downloads/pytorch-timeline-offline.zip` with sorted entries and fixed timestamps, so the same
commit always gives the same bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ZIP_PATH = "downloads/pytorch-timeline-offline.zip"
TOP_FOLDER = "pytorch-timeline-offline"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold
# The search worker loads only these lunr files for `lang: [en, zh]`.
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


def search_entries(site: Path) -> tuple[list[str], list[str]]:
    """Locations in search_index.json and in search_index.js (the one used from file://)."""
    as_json = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    script = (site / "search" / "search_index.js").read_text(encoding="utf-8")
    as_js = json.loads(re.sub(r"^\s*var __index\s*=\s*", "", script).rstrip().rstrip(";"))
    return [d["location"] for d in as_json["docs"]], [d["location"] for d in as_js["docs"]]


def check_offline_site(site: Path) -> None:
    json_locations, js_locations = search_entries(site)
    if json_locations != js_locations:
        raise OfflineBuildError(
            f"offline search index differs from search_index.json ({len(js_locations)} vs {len(json_locations)} entries): "
            "is the offline plugin listed after i18n in mkdocs.yml?"
        )
    if not any(loc.startswith("en/") for loc in js_locations) or not any(not loc.startswith("en/") for loc in js_locations):
        raise OfflineBuildError("offline search index does not hold both languages")


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
    parser = argparse.ArgumentParser(prog="python -m scripts.offline", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", type=Path, default=Path("site"), help="the hosted build to put the zip into (default: site)")
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
