"""Create the Chinese and English pages of a new release, with the front matter to fill in.

    python -m scripts.new_release 2.10 [--docs-dir docs] [--force]

The pages start with placeholder values ("TODO") that the build rejects, so a half-filled scaffold can
never be published by accident: fill every field from the official post, then run
`python -m scripts.releases` to validate.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scripts.releases import DEFAULT_LANGUAGE, LANGUAGES, RELEASES_DIR, VERSION_RE, page_file_name

TEMPLATES = {
    "zh": """\
---
# 事实（与语言无关）只写在这个中文页面里；英文页面只放译文。
version: "{version}"
date: TODO  # 官方发布文章的日期，YYYY-MM-DD（只知道月份时写 YYYY-MM，并加 date_note 说明依据）
source: TODO  # 官方发布文章的 https:// 链接
title: "PyTorch {version}：TODO"
summary: "TODO 一句话概括这个版本"
features:
  # 每个特性一项；id 在各版本间保持一致（生命周期页面据此连线），maturity 只写这一版官方文章给出的标签
  - id: TODO-feature-id
    name: TODO 特性名称
    area: Frontend  # 可选值见 scripts/releases.py 中的 AREAS
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
features:
  # the English name of each feature of {version}.md, by id
  TODO-feature-id: TODO feature name
---

## TODO area {{ #area-frontend }}

### TODO feature name {{ #TODO-feature-id }}

TODO describe the feature in your own words, with a code example of your own.
""",
}


def scaffold(version: str, docs_dir: Path, force: bool = False) -> list[Path]:
    """Write both language pages of `version`; refuse to overwrite unless force is set."""
    if not VERSION_RE.match(version):
        raise ValueError(f"bad version '{version}': expected MAJOR.MINOR, e.g. 2.10")
    targets = [docs_dir / RELEASES_DIR / page_file_name(version, lang) for lang in LANGUAGES]
    existing = [t for t in targets if t.exists()]
    if existing and not force:
        raise FileExistsError(f"{existing[0]} already exists (use --force to overwrite)")
    for lang, target in zip(LANGUAGES, targets):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(TEMPLATES[lang].format(version=version), encoding="utf-8")
    return targets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.new_release", description=__doc__.split("\n\n")[0])
    parser.add_argument("version", help="MAJOR.MINOR, e.g. 2.10")
    parser.add_argument("--docs-dir", default="docs", type=Path, help="the MkDocs docs_dir (default: docs)")
    parser.add_argument("--force", action="store_true", help="overwrite existing pages")
    args = parser.parse_args(argv)
    try:
        created = scaffold(args.version, args.docs_dir, args.force)
    except (ValueError, FileExistsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in created:
        print(f"created {path}")
    print(f"next: fill in the TODOs ({DEFAULT_LANGUAGE} is the default language), then run python -m scripts.releases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
