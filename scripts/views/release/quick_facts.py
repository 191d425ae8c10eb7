"""The quick facts at the top of a release page: the answers a reader with a version question came for (date,
Python on PyPI, the CUDA of PyPI's default wheel, the paired torchvision/torchaudio, whether it is the newest release,
LTS, what else matters today: status.py, what a machine needs: runs_on.py) and links to the install picker, the
matrix row and the full release notes. From the release's verdict."""

from __future__ import annotations

from collections.abc import Callable

from scripts.catalog.model import Catalog, Release, version_key
from scripts.verdicts.model import MAIN_PLATFORM, PYPI, Verdicts
from scripts.views.html import esc, evidence_mark
from scripts.views.release.install import UI, build_words
from scripts.views.release.runs_on import runs_on
from scripts.views.release.status import release_status
from scripts.views.words import SYSTEM_NAMES, python_summary

GITHUB_NOTES = "https://github.com/pytorch/pytorch/releases/tag/v{version}.0"
# The "your machine" page with this release chosen (docs/machine.md reads `release=` from its query).
MACHINE_LINK = {"zh": "检查你的机器 →", "en": "Check your machine →"}


def quick_facts(
    catalog: Catalog,
    release: Release,
    lang: str,
    verdicts: Verdicts,
    matrix_href: str | None = None,
    release_href: Callable[[str], str | None] | None = None,
    machine_href: str | None = None,
) -> str:
    """The answers a reader with a version question came for, first on the page: date, Python (PyPI), the CUDA of
    PyPI's default wheel, the paired torchvision/torchaudio, its status today (status.py), and links to the install
    picker, the machine page (`machine_href`, with this release chosen where it has a pip command) and the full
    release notes. `release_href(version)`: another release page's URL (the status links there)."""
    t = UI[lang]
    page = release.pages[lang]
    provisional = bool(getattr(release, "provisional", False))
    rows: list[tuple[str, str, str]] = []  # (css key, term, HTML value)
    suffix = esc(t["month_only"]) if page.date_precision == "month" else ""
    caveat = [x for x in (page.date_note, page.source_note) if x]
    # One ◆: where the page has a caveat, the marker is its disclosure (the caveat one click away, still in the
    # page for search and print); otherwise the date's own evidence mark.
    mark = "" if caveat else evidence_mark(page.date_evidence, lang)
    date_value = (
        f'<span class="release-date"><time datetime="{page.date_iso}">{page.date_iso}</time>{suffix}{mark}</span>'
    )
    if caveat:
        paragraphs = "".join(f"<p>{esc(x)}</p>" for x in caveat)
        date_value += f'<details class="quick-caveat"><summary><span class="evidence" aria-hidden="true">◆</span> {esc(t["caveat"])}</summary>{paragraphs}</details>'
    rows.append(("date", t["qf_upload"] if provisional else t["qf_date"], date_value))
    verdict = verdicts[release.version]
    p = verdict.pins
    python = verdict.patch_python if p else verdict.python
    if python.versions:
        term = t["qf_python"] if python.source == PYPI else t["qf_python_claim"]
        where = t["on"].format(system=SYSTEM_NAMES[MAIN_PLATFORM][lang]) if python.source == PYPI else ""
        rows.append(("python", term, esc(python_summary(python.versions) + where)))
    if p and verdict.systems:
        cuda = verdict.builds.get(MAIN_PLATFORM)
        rows.append(
            (
                "build",
                t["qf_build"],
                esc(
                    f"torch {p.patch}: {build_words(cuda, lang)}{t['on'].format(system=SYSTEM_NAMES[MAIN_PLATFORM][lang])}"
                ),
            )
        )
    if p and (p.vision or p.audio):
        libs = [f"{lib} {pin.version}" for lib, pin in (("torchvision", p.vision), ("torchaudio", p.audio)) if pin]
        rows.append(("libs", t["qf_libs"], esc(" · ".join(libs))))
    # The short facts above share the rows two by two on a wide screen; the long ones below take a row each.
    machine = runs_on(verdict.machine, lang)
    if machine:
        rows.append(("runs-on", *machine))
    rows.append(("status", t["qf_status"], release_status(catalog, release, lang, verdicts, release_href)))
    links = ['<a class="quick-install" href="#install">' + esc(t["qf_install"]) + "</a>"]
    if matrix_href:
        links.append(f'<a href="{esc(matrix_href)}">{esc(t["qf_matrix"])}</a>')
    if machine_href:
        chosen = f"{machine_href}?release={release.version}" if p else machine_href
        links.append(f'<a class="quick-machine" href="{esc(chosen)}">{esc(MACHINE_LINK[lang])}</a>')
    if version_key(release.version) >= (1, 0) and not provisional:
        links.append(f'<a href="{esc(GITHUB_NOTES.format(version=release.version))}">{esc(t["qf_notes"])}</a>')
    out = [
        f'<section class="quick-facts" aria-label="{esc(t["qf_title"])}" data-search-exclude>',
        '<dl class="quick-facts-list">',
    ]
    for key, term, value in rows:
        out.append(f'<div class="quick-fact quick-{key}"><dt>{esc(term)}</dt><dd>{value}</dd></div>')
    out += ["</dl>", f'<p class="quick-links">{" ".join(links)}</p>', "</section>"]
    return "\n".join(out)
