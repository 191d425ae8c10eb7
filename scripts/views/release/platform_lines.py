"""The per-platform lines under the install picker's PyPI commands: on each platform, the Python versions a command
installs on as pip decides it for every package in it (the oldest glibc or macOS their wheels are tagged for, the
patch releases a Requires-Python refuses), what it installs, and, for the Python versions the command does not cover,
the command that does. Words only: every answer is the release's verdict (scripts/verdicts/platforms.py).

Each line that shows a command carries what the install-resolver check resolves, as data attributes of ours:
`data-command`, `data-system`, `data-python` (versions), `data-os` (each version's glibc/macOS, "-" for none) and
`data-refused` (patch releases that must not resolve). scripts/checks/install_resolver.py reads them.

What a Requires-Python refuses on several platforms (torchvision 0.29.1 and Python 3.14.1 on all four) is said once,
in a note under the lines naming those platforms (`data-systems`), not on each line.
"""

from __future__ import annotations

from scripts.verdicts.model import PlatformCommand, PyPIBuild, PythonOn
from scripts.views.html import esc
from scripts.views.words import SYSTEM_NAMES, python_summary

WORDS = {
    "zh": {
        "sep": "、",
        "and": " 和 ",
        "open": "（",
        "close": "）",
        "then": "；",
        "colon": "：",
        "line": "{system}：Python {python}；装到的是 {build}。",
        "floor_linux": "wheel 标注 glibc {v} 或更高",
        "floor_macos": "wheel 标注 macOS {v} 或更高",
        "not_patch": "不含 {patches}（{who} 的 Requires-Python 排除了它）",
        "from_patch": "{minor} 需 {first} 或更高（{who} 的 Requires-Python）",
        "instead": "Python {python}：PyPI 上没有 {lacking} 的 {system} wheel，请改用",
        "differs": "这一版的 PyPI 命令（见上方）在这里装不上：PyPI 上没有 {lacking} 的 {system} wheel。",
        "details": "，即 Python {details}。",
        "shared": "{systems}：{note}。",
    },
    "en": {
        "sep": ", ",
        "and": " and ",
        "open": " (",
        "close": ")",
        "then": "; ",
        "colon": ": ",
        "line": "{system}: Python {python}; installs the {build}.",
        "floor_linux": "wheels for glibc {v} or later",
        "floor_macos": "wheels for macOS {v} or later",
        "not_patch": "not {patches} ({who}'s Requires-Python excludes it)",
        "from_patch": "{minor} from {first} on, as {who}'s Requires-Python says",
        "instead": "Python {python}: PyPI has no {system} wheel of {lacking} for it; use",
        "differs": "The release's plain PyPI command (above) does not install here: PyPI has no {system} wheel of {lacking}.",
        "details": ": Python {details}.",
        "shared": "On {systems}: {note}.",
    },
}


def _floor_words(platform: str, floor: str, lang: str) -> str:
    return WORDS[lang]["floor_linux" if platform.startswith("linux") else "floor_macos"].format(v=floor)


def _joined(items: list[str], lang: str) -> str:
    w = WORDS[lang]
    return items[0] if len(items) == 1 else w["sep"].join(items[:-1]) + w["and"] + items[-1]


def _refusal(python: PythonOn, lang: str) -> str:
    """What a Requires-Python refuses of one Python version: the lowest patches (3.6.0, 3.6.1 -> "from 3.6.2 on") or
    single ones ("not 3.14.1")."""
    w = WORDS[lang]
    who = _joined(list(python.refused_by), lang)
    patches = [int(p.rsplit(".", 1)[1]) for p in python.refused]
    minor = python.version.rstrip("t")
    if patches == list(range(len(patches))):
        return w["from_patch"].format(minor=python.version, first=f"{minor}.{len(patches)}", who=who)
    return w["not_patch"].format(patches=_joined(list(python.refused), lang), who=who)


def refusals(pythons: tuple[PythonOn, ...], lang: str) -> list[str]:
    """What a Requires-Python refuses of these Python versions, each said once."""
    return list(dict.fromkeys(_refusal(p, lang) for p in pythons if p.refused))


def python_words(pythons: tuple[PythonOn, ...], platform: str, lang: str, said: frozenset[str] = frozenset()) -> str:
    """ "3.10–3.12 (wheels for macOS 11.0 or later), 3.14 (… 14.0 …); not 3.14.1 (…)": versions grouped by the OS their
    wheels need, then what a Requires-Python refuses (but for the refusals in `said`, which a note says once)."""
    groups: dict[str | None, list[str]] = {}
    for python in pythons:
        groups.setdefault(python.floor, []).append(python.version)
    parts = []
    for floor, versions in groups.items():
        text = python_summary(versions)
        w = WORDS[lang]
        parts.append(f"{text}{w['open']}{_floor_words(platform, floor, lang)}{w['close']}" if floor else text)
    own = [r for r in refusals(pythons, lang) if r not in said]
    return WORDS[lang]["sep"].join(parts) + "".join(WORDS[lang]["then"] + r for r in own)


def resolver_attrs(text: str, platform: str, pythons: tuple[PythonOn, ...]) -> str:
    """The data attributes the install-resolver check reads: the command, where and for which Python versions."""
    values = {
        "data-command": text,
        "data-system": platform,
        "data-python": " ".join(p.version for p in pythons),
        "data-os": " ".join(p.floor or "-" for p in pythons),
        "data-refused": " ".join(r for p in pythons for r in p.refused),
    }
    return " ".join(f'{name}="{esc(value)}"' for name, value in values.items())


def _lacking(command: PlatformCommand, lang: str) -> str:
    return _joined([f"{name} {version}" for name, version in command.lacking], lang)


def system_lines(
    build: PyPIBuild, option_command: str, main_command: str, build_words: str, lang: str, said: frozenset[str]
) -> list[str]:
    """The lines of one platform under one PyPI option: the option's command there, then each other command
    that covers the Python versions it does not. The refusals in `said` are left to the notes under all lines."""
    w = WORDS[lang]
    system = SYSTEM_NAMES[build.platform][lang]
    own = _own(build, option_command)
    if own is None:
        return []
    python = python_words(own.pythons, build.platform, lang, said)
    text = w["line"].format(system=system, python=python, build=build_words)
    if own.text != main_command and own.lacking:
        text += " " + w["differs"].format(lacking=_lacking(own, lang), system=system)
    attrs = resolver_attrs(own.text, build.platform, own.pythons)
    out = [f'<p class="install-system" {attrs}>{esc(text)}</p>']
    for other in build.commands:
        if other is own:
            continue
        versions = python_summary([p.version for p in other.pythons])
        words = w["instead"].format(python=versions, lacking=_lacking(other, lang), system=system)
        details = w["details"].format(details=python_words(other.pythons, build.platform, lang, said))
        attrs = resolver_attrs(other.text, build.platform, other.pythons)
        out.append(
            f'<p class="install-system install-alt" {attrs}>{esc(words)} <code>{esc(other.text)}</code>{esc(details)}</p>'
        )
    return out


def _own(build: PyPIBuild, option_command: str) -> PlatformCommand | None:
    return next((c for c in build.commands if c.text == option_command), None)


def shared_refusals(builds: list[PyPIBuild], option_command: str, lang: str) -> dict[str, list[str]]:
    """The refusals more than one platform's lines would say ({words: platforms}), in the order first met."""
    where: dict[str, list[str]] = {}
    for build in builds:
        if _own(build, option_command) is None:
            continue
        for command in build.commands:
            for words in refusals(command.pythons, lang):
                platforms = where.setdefault(words, [])
                if build.platform not in platforms:
                    platforms.append(build.platform)
    return {words: platforms for words, platforms in where.items() if len(platforms) > 1}


def platform_lines(builds: list[tuple[PyPIBuild, str]], option_command: str, main_command: str, lang: str) -> list[str]:
    """Every platform's lines under one PyPI option (`builds`: each platform's build and the words for it), then
    each refusal several platforms share, once, naming them (`data-systems`: install.js shows it with their line)."""
    shared = shared_refusals([build for build, _ in builds], option_command, lang)
    said = frozenset(shared)
    out = []
    for build, words in builds:
        out += system_lines(build, option_command, main_command, words, lang, said)
    w = WORDS[lang]
    for words, platforms in shared.items():
        systems = _joined([SYSTEM_NAMES[p][lang] for p in platforms], lang)
        note = w["shared"].format(systems=systems, note=words)
        out.append(f'<p class="install-system-note" data-systems="{esc(" ".join(platforms))}">{esc(note)}</p>')
    return out
