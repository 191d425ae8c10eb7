"""The machine page's interactive part: the form (it works without JavaScript too: sent, it reloads the page with
its fields as the query), the places the script draws the answer into, the environment check's place, and the JSON
island (`#machine-data`) with every release's machine facts and this language's words, from which
docs/assets/javascripts/machine/machine.js decides each answer as scripts/verdicts/machine.py does."""

from __future__ import annotations

import json

from scripts.verdicts.model import MachineBuild, MachinePage, MachineRelease
from scripts.views.html import esc
from scripts.views.machine.words import OS_WORDS, WORDS

OSES = ("linux-x86_64", "linux-aarch64", "macos-arm64", "macos-x86_64", "windows")
INDEX_XPU = "https://download.pytorch.org/whl/xpu"


def _build(b: MachineBuild) -> dict:
    """A build as the script reads it (short keys: the island is sent with every view of the page)."""
    out: dict = {
        "p": b.platform,
        "s": b.source,
        "t": b.tag,
        "k": b.kind,
        "c": [[c.text, [[p.version, p.floor, list(p.refused)] for p in c.pythons]] for c in b.commands],
    }
    optional = {
        "v": b.version,
        "a": list(b.archs) if b.archs is not None else None,
        "x": list(b.ptx),
        "d": b.driver,
        "f": b.driver_family,
        "u": b.cuda_tag,
        "e": b.experimental,
        "n": not b.pythons_known,
    }
    out.update({k: v for k, v in optional.items() if v not in (None, False, [])})
    return out


def _release(r: MachineRelease) -> dict:
    out: dict = {"v": r.version, "date": r.date, "b": [_build(b) for b in r.builds]}
    optional = {
        "patch": r.patch,
        "up": r.uploaded,
        "prov": r.provisional,
        "nopip": not r.pip,
        "mps": list(r.mps) if r.mps else None,
        "mpsSince": r.mps_since,
        "xpuSince": r.xpu_since,
        "noWheel": [list(n) for n in r.no_wheel],
        "cuda": r.default_cuda,
        "pairs": [list(p) for p in r.pairs],
        "conda": r.conda,
    }
    out.update({k: v for k, v in optional.items() if v not in (None, False, [])})
    return out


def machine_data(page: MachinePage, lang: str, hrefs: dict[str, str] | None = None) -> dict:
    """What the script needs: the facts, the values the form offers, this language's words, and the URL of each
    release's page (`hrefs`, from this page)."""
    return {
        "lang": lang,
        "hrefs": hrefs or {},
        "releases": [_release(r) for r in page.releases],
        "pythons": list(page.pythons),
        "caps": list(page.capabilities),
        "generations": [[name, list(caps)] for name, caps in page.generations],
        "drivers": [list(d) for d in page.drivers],
        "xpuIndex": INDEX_XPU,
        "words": WORDS[lang],
        "oses": OS_WORDS[lang],
    }


def island(page: MachinePage, lang: str, hrefs: dict[str, str] | None = None) -> str:
    payload = json.dumps(machine_data(page, lang, hrefs), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    safe = payload.replace("<", "\\u003c")  # nothing inside the island a parser could take for a tag
    return f'<script type="application/json" id="machine-data">{safe}</script>'


def generation_of(page: MachinePage, capability: str) -> str | None:
    """The generation the facts name a compute capability by ("6.1" -> Pascal through "6.x")."""
    major = capability.split(".")[0]
    return next((n for n, caps in page.generations if capability in caps or f"{major}.x" in caps), None)


def _options(pairs: list[tuple[str, str]], first: tuple[str, str]) -> str:
    rows = [first, *pairs]
    return "".join(f'<option value="{esc(v)}">{esc(text)}</option>' for v, text in rows)


def _field(name: str, label: str, control: str) -> str:
    return f'<span class="machine-field machine-field-{name}"><label for="machine-{name}">{esc(label)}</label>{control}</span>'


def _text(name: str, hint: str, named: bool = True) -> str:
    attribute = f' name="{name}"' if named else ""
    return f'<input type="text" id="machine-{name}"{attribute} placeholder="{esc(hint)}" autocomplete="off">'


def machine_form(page: MachinePage, lang: str) -> str:
    """The form: OS and CPU, Python, GPU (by compute capability with the generation's name, or a kind), a GPU
    model (read with machine/gpus.js), driver, glibc, macOS, date. Its field names are the query's keys."""
    w = WORDS[lang]
    oses = _options([(os, OS_WORDS[lang][os]) for os in OSES], ("", w["choose"]))
    pythons = _options([(p, p) for p in reversed(page.pythons)], ("", w["any_python"]))
    caps = []
    for cap in reversed(page.capabilities):
        name = generation_of(page, cap)
        text = w["generation_cc"].format(name=name, cc=cap) if name else w["cc"].format(cc=cap)
        caps.append(f'<option value="{esc(cap)}">{esc(text)}</option>')
    others = "".join(f'<option value="{k}">{esc(w[k])}</option>' for k in ("rocm", "mps", "xpu"))
    gpu = (
        f'<select id="machine-gpu" name="gpu"><option value="">{esc(w["gpu_unknown"])}</option>'
        f'<option value="none">{esc(w["gpu_none"])}</option>'
        f'<optgroup label="{esc(w["nvidia"])}">{"".join(caps)}</optgroup>'
        f'<optgroup label="{esc(w["others"])}">{others}</optgroup></select>'
    )
    fields = [
        _field("os", w["os"], f'<select id="machine-os" name="os">{oses}</select>'),
        _field("python", w["python"], f'<select id="machine-python" name="python">{pythons}</select>'),
        _field("gpu", w["gpu"], gpu),
        _field("model", w["gpu_model"], _text("model", w["gpu_model_hint"], named=False)),
        _field("driver", w["driver"], _text("driver", "535.104")),
        _field("glibc", w["glibc"], _text("glibc", "2.28")),
        _field("macos", w["macos"], _text("macos", "14.4")),
        _field("date", w["date"], _text("date", w["date_hint"])),
    ]
    return (
        '<form class="machine-form" id="machine-form">'
        f"<fieldset><legend>{esc(w['legend'])}</legend>{''.join(fields)}"
        f'<button type="submit" class="md-button md-button--primary">{esc(w["submit"])}</button></fieldset></form>'
    )


def machine_view(page: MachinePage | None, lang: str, hrefs: dict[str, str] | None = None) -> str:
    """The form, the answer's places and the island; a plain note where the build has no registry evidence."""
    w = WORDS[lang]
    if page is None:
        return f'<p class="machine-none">{esc(w["noscript"])}</p>'
    return "\n".join(
        [
            '<div class="machine" id="machine">',
            machine_form(page, lang),
            '<p class="machine-problems" id="machine-problems" hidden></p>',
            f'<div class="machine-answer" id="machine-answer" aria-live="polite"><p>{esc(w["need_os"])}</p>'
            f"<noscript><p>{esc(w['noscript'])}</p></noscript></div>",
            '<div class="machine-releases" id="machine-releases"></div>',
            island(page, lang, hrefs),
            "</div>",
        ]
    )


def environment_view(lang: str) -> str:
    """The environment check's place: its text box and button are made by the script, which alone can read."""
    w = WORDS[lang]
    return "\n".join(
        [
            '<div class="machine-env" id="machine-env">',
            f"<p>{esc(w['env_intro'])}</p>",
            f"<noscript><p>{esc(w['env_noscript'])}</p></noscript>",
            '<div class="machine-env-result" id="machine-env-result" aria-live="polite"></div>',
            "</div>",
        ]
    )
