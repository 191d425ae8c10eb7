"""Create the Chinese and English pages of a new release, with the front matter to fill in.

    python -m scripts.new_release 2.16 [--docs-dir docs] [--force]
    python -m scripts.new_release 2.15 --provisional [--evidence docs/.pypi-evidence.json]

Without `--provisional` the pages start with placeholder values ("TODO") that the build rejects, so a
half-filled scaffold can never be published by accident: fill every field from the official post, then run
`python -m scripts.checks.pages` to validate.

`--provisional` is for a release that PyPI already lists but whose official post is not available yet: it writes
a page pair from the registry evidence alone (`provisional: true`; the date is PyPI's first upload day, the
source the version's PyPI page, the Python versions of the Linux x86_64 wheels, the CUDA build of that wheel,
the torchvision/torchaudio releases whose Requires-Dist accepts it). No feature, label or change is written:
the catalog refuses them on a provisional page. Rerunning it refreshes the facts (a new patch release).

When the post arrives, run the plain command on the provisional page: it becomes a full scaffold that keeps the
registry facts (`patches`, `compat`, the English `compat_notes`), drops the flag, and asks for the rest (TODO).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import yaml

from scripts.catalog.frontmatter import split_front_matter
from scripts.catalog.model import DEFAULT_LANGUAGE, LANGUAGES, RELEASES_DIR, VERSION_RE, page_file_name
from scripts.registry.evidence import EVIDENCE_FILE, load_evidence
from scripts.tools.provisional import RegistryError, provisional_pages, registry_facts

TEMPLATES = {
    "zh": """\
---
# 事实（与语言无关）只写在这个中文页面里；英文页面只放译文。
version: "{version}"
date: TODO  # 官方发布文章的日期，YYYY-MM-DD（只知道月份时写 YYYY-MM，并加 date_note 说明依据）{upload_hint}
source: TODO  # 官方发布文章的 https:// 链接
title: "PyTorch {version}：TODO"
summary: "TODO 一句话概括这个版本"
{registry_facts}features:
  # 每个特性一项；id 在各版本间保持一致（生命周期页面据此连线），maturity 只写这一版官方文章给出的标签
  - id: TODO-feature-id
    name: TODO 特性名称
    area: Frontend  # 可选值见 scripts/catalog/model.py 中的 AREAS
    maturity: TODO  # Stable / Beta / Prototype / Experimental / API-Stable / API-Unstable / unlabeled
---

## TODO 领域 {{ #area-frontend }}

### TODO 特性名称 {{ #TODO-feature-id }}

TODO 用自己的话介绍这个特性，并给出自己写的代码示例。
""",
    "en": """\
---
# Words only: every fact (version, date, source, areas, labels …) is written once, in {version}.md.
title: "PyTorch {version}: TODO"
summary: "TODO one-line summary of the release"
{registry_facts}features:
  # the English name of each feature of {version}.md, by id
  TODO-feature-id: TODO feature name
---

## TODO area {{ #area-frontend }}

### TODO feature name {{ #TODO-feature-id }}

TODO describe the feature in your own words, with a code example of your own.
""",
}

# The front matter blocks of a provisional page that hold registry facts: kept when it becomes a full page.
KEPT_BLOCKS = {"zh": ("patches", "compat"), "en": ("compat_notes",)}


def _targets(version: str, docs_dir: Path) -> dict[str, Path]:
    if not VERSION_RE.match(version):
        raise ValueError(f"bad version '{version}': expected MAJOR.MINOR, e.g. 2.10")
    return {lang: docs_dir / RELEASES_DIR / page_file_name(version, lang) for lang in LANGUAGES}


def is_provisional(path: Path) -> bool:
    """Whether an existing Chinese page says `provisional: true` (read leniently: this only decides what to do)."""
    front = split_front_matter(path.read_text(encoding="utf-8"))
    values = yaml.safe_load(front[0]) if front and front[0] else None
    return isinstance(values, dict) and values.get("provisional") is True


def _front_blocks(text: str, names: tuple[str, ...]) -> list[str]:
    """The lines of the named top-level front matter fields, as written (a field runs to the next top-level key)."""
    front = split_front_matter(text)
    lines = (front[0] if front else "").split("\n")
    out: list[str] = []
    keeping = False
    for line in lines:
        top = re.match(r"^([A-Za-z_][\w-]*):", line)
        if top:
            keeping = top.group(1) in names
        elif line and not line[0].isspace() and not line.startswith("#"):
            keeping = False
        if keeping:
            out.append(line)
    return out


def _upload_day(text: str) -> str | None:
    match = re.search(r"^date:\s*(\d{4}-\d{2}-\d{2})\s*$", text, re.M)
    return match.group(1) if match else None


def scaffold(version: str, docs_dir: Path, force: bool = False) -> list[Path]:
    """Write both language pages of `version`; refuse to overwrite unless force is set. A provisional page
    pair becomes a full scaffold that keeps its registry facts."""
    targets = _targets(version, docs_dir)
    existing = [t for t in targets.values() if t.exists()]
    upgrade = targets[DEFAULT_LANGUAGE].exists() and is_provisional(targets[DEFAULT_LANGUAGE])
    if existing and not force and not upgrade:
        raise FileExistsError(f"{existing[0]} already exists (use --force to overwrite)")
    kept: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
    hint = ""
    if upgrade:
        texts = {lang: path.read_text(encoding="utf-8") if path.exists() else "" for lang, path in targets.items()}
        kept = {lang: _front_blocks(texts[lang], KEPT_BLOCKS[lang]) for lang in LANGUAGES}
        uploaded = _upload_day(texts[DEFAULT_LANGUAGE])
        hint = f"\n# PyPI 首次上传：{uploaded}（临时条目的日期）；这里要写官方发布文章的日期" if uploaded else ""
    for lang, target in targets.items():
        facts = "".join(line + "\n" for line in kept[lang])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            TEMPLATES[lang].format(
                version=version, registry_facts=facts, upload_hint=hint if lang == DEFAULT_LANGUAGE else ""
            ),
            encoding="utf-8",
        )
    return list(targets.values())


def scaffold_provisional(version: str, docs_dir: Path, evidence: dict, force: bool = False) -> list[Path]:
    """Write a provisional page pair from the registry evidence. Overwrites a provisional pair (fresh facts),
    never a full page unless force is set."""
    targets = _targets(version, docs_dir)
    zh = targets[DEFAULT_LANGUAGE]
    if zh.exists() and not force and not is_provisional(zh):
        raise FileExistsError(f"{zh} is a full release page, not a provisional one (use --force to overwrite)")
    pages = provisional_pages(registry_facts(version, evidence))
    for lang, target in targets.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(pages[lang], encoding="utf-8")
    return list(targets.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.new_release", description=__doc__.split("\n\n")[0])
    parser.add_argument("version", help="MAJOR.MINOR, e.g. 2.10")
    parser.add_argument("--docs-dir", default="docs", type=Path, help="the MkDocs docs_dir (default: docs)")
    parser.add_argument("--force", action="store_true", help="overwrite existing pages")
    parser.add_argument(
        "--provisional",
        action="store_true",
        help="write a provisional page pair from the registry evidence (the release is on PyPI, its post is not available yet)",
    )
    parser.add_argument("--evidence", type=Path, help=f"the registry evidence (default: DOCS_DIR/{EVIDENCE_FILE})")
    args = parser.parse_args(argv)
    try:
        if args.provisional:
            evidence_path = args.evidence or args.docs_dir / EVIDENCE_FILE
            if not evidence_path.is_file():
                raise RegistryError(f"{evidence_path} does not exist: fetch the registry evidence first")
            created = scaffold_provisional(args.version, args.docs_dir, load_evidence(evidence_path), args.force)
        else:
            created = scaffold(args.version, args.docs_dir, args.force)
    except (ValueError, FileExistsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in created:
        print(f"wrote {path}")
    if args.provisional:
        print(
            "next: python -m scripts.checks.pages (validate); when the official post is available, run this command without --provisional"
        )
    else:
        print(
            f"next: fill in the TODOs ({DEFAULT_LANGUAGE} is the default language), then run python -m scripts.checks.pages"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
