"""The sites the search benchmark measures: a build, the search files a first answer needs in either index layout,
a copy that runs Material's stock worker on the same documents, and a copy whose workers run slower."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from scripts.bench.common import ROOT
from scripts.views.search_index import read_index_script

LANGS = ("zh", "en")
WORKER_THROTTLE = """/* scripts/bench/search_site.py: CPU throttling for a worker, which Chromium does not throttle: each task is
 * followed by a busy wait of (rate - 1) times its length. */
(function (rate) {
  function stretch(fn) {
    return function () {
      var start = performance.now();
      try { return fn.apply(this, arguments); } finally {
        var end = performance.now() + (performance.now() - start) * (rate - 1);
        while (performance.now() < end) {}
      }
    };
  }
  var listen = self.addEventListener;
  self.addEventListener = function (type, fn, options) { return listen.call(self, type, stretch(fn), options); };
  var then = Promise.prototype.then;
  Promise.prototype.then = function (ok, fail) {
    return then.call(this, typeof ok === "function" ? stretch(ok) : ok, typeof fail === "function" ? stretch(fail) : fail);
  };
  var later = self.setTimeout;
  self.setTimeout = function (fn, ms) { return later.call(self, stretch(fn), ms); };
  // Parsing JSON is a task of its own: as a callback, so that it is stretched too.
  Response.prototype.json = function () { return this.text().then(JSON.parse); };
})(%d);
"""


def build_site(site_dir: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "--site-dir", str(site_dir)],
        cwd=ROOT,
        env=env,
        check=True,
    )


def first_query_files(site_dir: Path, lang: str) -> list[Path]:
    """The search files a reader's first answer needs: this version's first part of the reader's language's
    index (before it, the whole index of that language), or the older single file of both languages'
    documents."""
    ours = site_dir / "search" / f"index.{lang}.json"
    if ours.is_file():
        return [ours]
    return [
        p for p in [site_dir / "search" / "search_docs.json", site_dir / "search" / "search_index.json"] if p.is_file()
    ]


def _sizes(paths: list[Path]) -> tuple[int, int]:
    data = b"".join(p.read_bytes() for p in paths)
    return len(data), len(gzip.compress(data, 6))


def index_sizes(site_dir: Path) -> dict[str, tuple[int, int]]:
    """Raw and gzipped bytes the first answer needs, per reader language."""
    return {lang: _sizes(first_query_files(site_dir, lang)) for lang in LANGS}


def text_sizes(site_dir: Path) -> dict[str, tuple[int, int]]:
    """Raw and gzipped bytes of the full text that follows the first part (none in older layouts)."""
    return {
        lang: _sizes([p for p in [site_dir / "search" / f"index.{lang}.text.json"] if p.is_file()]) for lang in LANGS
    }


def material_documents(site_dir: Path) -> list[dict]:
    """Every search document in Material's shape ({location, title, text}), from either layout."""
    docs = []
    for lang in LANGS:
        hosted, offline = site_dir / "search" / f"index.{lang}.json", site_dir / "search" / f"index.{lang}.js"
        if hosted.is_file():
            docs += [
                {"location": d[0], "title": d[1], "text": d[2]}
                for d in json.loads(hosted.read_text(encoding="utf-8"))["docs"]
            ]
        elif offline.is_file():
            docs += [
                {"location": d[0], "title": d[1], "text": d[2]}
                for d in read_index_script(offline.read_text(encoding="utf-8"))["docs"]
            ]
    if docs:
        return docs
    older = site_dir / "search" / "search_docs.json"
    if older.is_file():
        return json.loads(older.read_text(encoding="utf-8"))["docs"]
    return json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


def with_stock_worker(site_dir: Path, dest: Path) -> Path:
    """A copy of a build whose pages load Material's own worker with the same documents (the reverse of
    overrides/hooks/search_worker.py and lazy_search_index.py)."""
    shutil.copytree(site_dir, dest, ignore=shutil.ignore_patterns("downloads"))
    material = next((dest / "assets/javascripts/workers").glob("search.*.min.js")).name
    for page in dest.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        page.write_text(
            re.sub(r"assets/javascripts/search/worker\.(zh|en)\.js", f"assets/javascripts/workers/{material}", text),
            encoding="utf-8",
        )
    index = json.loads((dest / "search" / "search_index.json").read_text(encoding="utf-8"))
    index["docs"] = material_documents(site_dir)
    data = json.dumps(index, ensure_ascii=False)
    (dest / "search" / "search_index.json").write_text(data, encoding="utf-8")
    if (dest / "search" / "search_index.js").is_file():
        (dest / "search" / "search_index.js").write_text(f"var __index = {data}", encoding="utf-8")
    return dest


def with_throttled_workers(site_dir: Path, dest: Path, rate: int) -> Path:
    """A copy of a hosted build whose search workers run `rate` times slower (WORKER_THROTTLE)."""
    shutil.copytree(site_dir, dest, ignore=shutil.ignore_patterns("downloads"))
    for worker in (dest / "assets/javascripts/search").glob("worker.*.js"):
        worker.write_text(WORKER_THROTTLE % rate + worker.read_text(encoding="utf-8"), encoding="utf-8")
    return dest
