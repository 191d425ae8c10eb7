"""Replace the `<!-- timeline -->` marker on the home pages with the timeline built from front matter."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from scripts.catalog.loader import cached_catalog  # noqa: E402
from scripts.catalog.model import language_of  # noqa: E402
from scripts.checks.verify_compat import pending_release  # noqa: E402
from scripts.registry.evidence import evidence_of  # noqa: E402
from scripts.render import esc, timeline  # noqa: E402

PENDING = {
    "zh": "PyPI 上已有 PyTorch {version}（{uploaded} 首次上传，{checked} 核对），但这里还没有它的官方发布文章，所以暂不收录。",
    "en": "PyPI already lists PyTorch {version} (first uploaded {uploaded}, checked {checked}); its official release post is not available here yet, so it has no page.",
}


def _pending(config, catalog, lang):
    """A line about a release PyPI lists but the site has no page for (from docs/.pypi-evidence.json)."""
    evidence = evidence_of(config.docs_dir)
    if evidence is None:
        return None
    found = pending_release(catalog, evidence)
    if not found:
        return None
    version, uploaded = found
    return esc(PENDING[lang].format(version=version, uploaded=uploaded, checked=evidence["checked"]))


MARKER = "<!-- timeline -->"


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    lang = language_of(Path(page.file.src_uri))
    catalog = cached_catalog(config.docs_dir)
    generated = timeline(
        catalog, lang, from_src=page.file.src_uri.replace(f".{lang}.md", ".md"), pending=_pending(config, catalog, lang)
    )
    return markdown.replace(MARKER, generated)
