"""The machine page's tables, shown with or without JavaScript: the newest release that runs per NVIDIA GPU (compute
capability and generation), per driver minimum, per glibc and per macOS, on the platforms each applies to. Every
cell is the verdict's (MachinePage.tables, decided by scripts/verdicts/machine.py); this module only words it."""

from __future__ import annotations

from scripts.verdicts.model import MachinePage, ReleaseFit, TableRow
from scripts.views.html import esc
from scripts.views.machine.words import OS_WORDS, WORDS


def _cell(fit: ReleaseFit | None, lang: str, href) -> str:
    w = WORDS[lang]
    if fit is None:
        return f"<td>{esc(w['t_none'])}</td>"
    ptx = any(n.code == "ptx" for n in fit.notes)  # only the driver's compilation of PTX runs it
    text = esc(w["t_cell_ptx" if ptx else "t_cell"].format(version=fit.version, tag=fit.tag or ""))
    url = href(fit.version)
    return f'<td><a href="{esc(url)}">{text}</a></td>' if url else f"<td>{text}</td>"


def _table(caption: str, head: str, rows: list[tuple[str, TableRow]], lang: str, href) -> str:
    if not rows:
        return ""
    platforms = [p for p, _ in rows[0][1].fits]
    columns = "".join(f'<th scope="col">{esc(OS_WORDS[lang][p])}</th>' for p in platforms)
    body = "".join(
        f'<tr><th scope="row">{esc(label)}</th>{"".join(_cell(f, lang, href) for _, f in row.fits)}</tr>'
        for label, row in rows
    )
    return (
        f'<div class="machine-table-wrap"><table class="machine-table">'
        f'<caption>{esc(caption)}</caption><thead><tr><th scope="col">{esc(head)}</th>{columns}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _bands(rows: tuple[TableRow, ...], lang: str) -> list[tuple[str, TableRow]]:
    """Floors newest first as bands: "2.28 or later", "2.17 up to 2.28" …"""
    w = WORDS[lang]
    out = []
    for i, row in enumerate(rows):
        label = w["t_from"] if i == 0 else w["t_band"]
        out.append((label.format(low=row.label, high=rows[i - 1].label if i else ""), row))
    return out


def machine_tables_view(page: MachinePage | None, lang: str, href) -> str:
    """The four tables and what they count; `href(version)`: a release page's URL (None: no link)."""
    if page is None:
        return ""
    w = WORDS[lang]
    tables = page.tables
    gpus = [(f"{row.name} {row.label}" if row.name else row.label, row) for row in tables.gpus]
    drivers = [(f"{row.label} ({w['t_cuda'].format(family=row.name)})", row) for row in tables.drivers]
    return "\n".join(
        [
            '<div class="machine-tables">',
            _table(w["t_gpus"], w["t_gpu"], gpus, lang, href),
            _table(w["t_drivers"], w["t_driver"], drivers, lang, href),
            _table(w["t_glibc"], w["t_glibc_col"], _bands(tables.glibc, lang), lang, href),
            _table(w["t_macos"], w["t_macos_col"], _bands(tables.macos, lang), lang, href),
            f'<p class="machine-tables-note">{esc(w["t_note"])}</p>',
            _conda_line(page, lang, href),
            "</div>",
        ]
    )


def _conda_line(page: MachinePage, lang: str, href) -> str:
    if page.conda is None:
        return ""
    last, channel, (zh_name, en_name), url = page.conda
    name = zh_name if lang == "zh" else en_name
    release = href(last)
    version = f'<a href="{esc(release)}">{esc(last)}</a>' if release else esc(last)
    source = f' (<a href="{esc(url)}">{esc(name)}</a>)' if url else ""
    text = esc(WORDS[lang]["t_conda"]).replace("{channel}", esc(channel)).replace("{version}", version)
    return f'<p class="machine-conda">{text}{source}</p>'
