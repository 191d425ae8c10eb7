"""Timed builds for the site benchmark: ours against a plain Material build of the same Markdown, and the build
with synthetic releases cloned from the real ones (the scale part)."""

from __future__ import annotations

import datetime as dt
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scripts.bench.common import log, test_harness
from scripts.catalog.frontmatter import split_front_matter
from scripts.catalog.loader import load_catalog
from scripts.catalog.model import DEFAULT_LANGUAGE, LANGUAGES, RELEASES_DIR, page_file_name

PLAIN_CONFIG_NAME = "mkdocs.plain-material.yml"
SYNTHETIC_MAJOR = 10  # synthetic releases are 10.0, 10.1, ...: far above any real version


class BuildFailed(RuntimeError):
    pass


def copy_project(dest: Path) -> Path:
    """A throwaway copy of the project (mkdocs.yml, overrides, scripts, docs), as the tests make one."""
    test_harness()
    from conftest import copy_project as copy  # noqa: E402  (the tests' own copy, so both build the same tree)

    return copy(dest)


def build_env() -> dict[str, str]:
    # As `make build`: no bytecode written into the temp copy, so every repeat starts equally clean.
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def timed_build(
    project: Path, config_file: str | None = None, strict: bool = True, keep_site: Path | None = None
) -> float:
    """Wall time of one `mkdocs build` subprocess in `project`, into a fresh temp site dir (or keep_site)."""
    with tempfile.TemporaryDirectory(prefix="bench-site-out-") as out:
        site_dir = keep_site or Path(out) / "site"
        cmd = [sys.executable, "-m", "mkdocs", "build", "-q", "--site-dir", str(site_dir)]
        if strict:
            cmd.append("--strict")
        if config_file:
            cmd += ["--config-file", config_file]
        start = time.perf_counter()
        result = subprocess.run(cmd, cwd=project, env=build_env(), capture_output=True, text=True, timeout=1800)
        elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise BuildFailed(
            f"{' '.join(cmd)} in {project} failed ({result.returncode}):\n{(result.stdout + result.stderr)[-4000:]}"
        )
    return elapsed


def plain_material_config(config_file: Path) -> dict:
    """mkdocs.yml as a plain Material site: same docs, theme, Markdown extensions, extra CSS/JS and search
    settings, but no hooks, no plugin besides search (i18n off: `*.en.md` become ordinary pages), no
    polyfills, no custom_dir (overrides/sitemap.xml needs static-i18n's template extensions) and not strict (links meant for
    the i18n layout warn)."""
    from mkdocs.utils.yaml import yaml_load  # resolves !ENV like a real build

    with open(config_file, encoding="utf-8") as f:
        config = yaml_load(f)
    config.pop("hooks", None)
    config.pop("INHERIT", None)
    search = None
    plugins = config.get("plugins") or []
    if isinstance(plugins, dict):
        plugins = [{name: options} for name, options in plugins.items()]
    for plugin in plugins:
        name, options = (plugin, None) if isinstance(plugin, str) else next(iter(plugin.items()))
        if name in ("search", "material/search"):
            search = {"search": options} if options else "search"
    config["plugins"] = [search or "search"]
    extra = config.get("extra")
    if isinstance(extra, dict):
        extra.pop("polyfills", None)
    theme = config.get("theme")
    if isinstance(theme, dict):
        theme.pop("custom_dir", None)
    config["strict"] = False
    return config


def write_plain_config(project: Path) -> str:
    """Write the plain Material config beside the project's mkdocs.yml; returns its file name."""
    import yaml

    config = plain_material_config(project / "mkdocs.yml")
    (project / PLAIN_CONFIG_NAME).write_text(
        yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    return PLAIN_CONFIG_NAME


def warm_up() -> None:
    """Read the build's Python packages once so the first timed build does not pay for a cold disk cache."""
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import mkdocs.commands.build, material, mkdocs_static_i18n, pymdownx, pygments, jieba, yaml",
        ],
        env=build_env(),
        capture_output=True,
    )


def jieba_installed() -> bool:
    """Whether Material's search plugin segments Chinese in the plain build (it does when jieba imports;
    ours never asks it to: overrides/hooks/lazy_search_index.py)."""
    from importlib.util import find_spec

    return find_spec("jieba") is not None


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_build(work: Path, repeats: int) -> dict:
    """Plain Material and our build of the same project copy, alternately; medians of wall time and their ratio,
    and of CPU time (every process of a build: ours checks pages in a helper process beside MkDocs,
    scripts/checks/beside.py, so its wall time is less than its CPU time on two cores)."""
    project = copy_project(work / "project-build")
    plain_config = write_plain_config(project)
    warm_up()
    times: dict[str, list[float]] = {"plain": [], "ours": []}
    cpu: dict[str, list[float]] = {"plain": [], "ours": []}
    for i in range(repeats):
        for kind, config, strict in (("plain", plain_config, False), ("ours", None, True)):
            before = _children_cpu()
            times[kind].append(timed_build(project, config, strict=strict))
            cpu[kind].append(_children_cpu() - before)
        log(f"  build {i + 1}/{repeats}: plain {times['plain'][-1]:.2f} s, ours {times['ours'][-1]:.2f} s")
    plain, ours = statistics.median(times["plain"]), statistics.median(times["ours"])
    cpu_plain, cpu_ours = statistics.median(cpu["plain"]), statistics.median(cpu["ours"])
    return {
        "plain": plain,
        "ours": ours,
        "ratio": ours / plain,
        "times": times,
        "cpu_plain": cpu_plain,
        "cpu_ours": cpu_ours,
        "cpu_ratio": cpu_ours / cpu_plain,
    }


def _replace_field(front: str, name: str, value: str) -> str:
    new, count = re.subn(rf"(?m)^{name}:.*$", f"{name}: {value}", front, count=1)
    if count != 1:
        raise ValueError(f"front matter has no '{name}' line")
    return new


def clone_release_text(text: str, old_version: str, new_version: str, new_date: dt.date, facts: bool = True) -> str:
    """A release page with another version and date: front matter version/date replaced (`facts`: only the
    default language's page holds them), its patch versions (1.6.0) renamed with it, and "PyTorch <old>" in
    the front matter's texts (title, summary, description) renamed. The body is left as it is."""
    text = text.replace("\r\n", "\n")
    split = split_front_matter(text)
    if not text.startswith("---\n") or split is None:
        raise ValueError("release page has no front matter")
    front, body, _ = split
    if facts:
        front = _replace_field(front, "version", f'"{new_version}"')
        front = _replace_field(front, "date", new_date.isoformat())
    front = re.sub(rf"PyTorch {re.escape(old_version)}(?![\d.]*\d)", f"PyTorch {new_version}", front)
    # Its patch releases (1.6.0 -> 10.3.0) wherever the facts name them: patches, PyPI notes, compat pins.
    front = re.sub(rf"(?<![\d.]){re.escape(old_version)}\.(\d+)(?![\d.])", rf"{new_version}.\1", front)
    return f"---\n{front}\n---\n{body}"


def add_synthetic_releases(docs_dir: Path, total: int) -> list[str]:
    """Add release page pairs cloned from the real ones (round robin, oldest first) until docs_dir holds
    `total` releases. New versions are 10.0, 10.1, ... and their dates spread from the day after the newest
    real release to today (a release may not be dated in the future; several may share a day), so versions
    and dates rise together. Returns the new versions."""
    catalog = load_catalog(docs_dir)
    sources = list(reversed(catalog.releases))  # oldest first
    missing = total - len(sources)
    if missing < 0:
        raise ValueError(f"{docs_dir} already holds {len(sources)} releases, more than {total}")
    taken = {r.version for r in catalog.releases}
    newest = max(r.date for r in catalog.releases)
    major = max(SYNTHETIC_MAJOR, max(int(v.split(".")[0]) for v in taken) + 1)
    today = dt.date.today()
    room = max(0, (today - newest).days)
    added = []
    for i in range(missing):
        source = sources[i % len(sources)]
        version = f"{major}.{i}"
        date = min(newest + dt.timedelta(days=1 + i * room // max(missing, 1)), today) if room else newest
        for lang in LANGUAGES:
            page = source.pages[lang]
            text = (docs_dir / page.src_uri).read_text(encoding="utf-8-sig")
            target = docs_dir / RELEASES_DIR / page_file_name(version, lang)
            target.write_text(
                clone_release_text(text, source.version, version, date, facts=lang == DEFAULT_LANGUAGE),
                encoding="utf-8",
            )
        added.append(version)
    return added


def bench_scale(work: Path, sizes: list[int], repeats: int, reuse: dict[int, float] | None = None) -> list[dict]:
    """Strict build time per release count; `reuse` maps a size to a median already measured."""
    rows: list[dict[str, Any]] = []
    for size in sizes:
        if reuse and size in reuse:
            rows.append({"size": size, "seconds": reuse[size], "reused": True})
            log(f"  scale {size}: {reuse[size]:.2f} s (median from the build part)")
            continue
        project = copy_project(work / f"project-scale-{size}")
        try:
            add_synthetic_releases(project / "docs", size)
        except ValueError as exc:
            log(f"  scale {size}: skipped ({exc})")
            continue
        count = len(load_catalog(project / "docs").releases)
        warm_up()
        times = []
        for i in range(repeats):
            times.append(timed_build(project))
            log(f"  scale {size} ({count} releases) {i + 1}/{repeats}: {times[-1]:.2f} s")
        rows.append({"size": count, "seconds": statistics.median(times), "times": times})
        shutil.rmtree(project, ignore_errors=True)
    return rows
