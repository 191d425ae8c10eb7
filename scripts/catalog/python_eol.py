"""Python's own end-of-life dates, as the Python developer's guide lists them (SOURCE): the day each CPython minor
line stopped getting any fix. A fact about Python, not about a release, written once here; the release pages compare
it with the Pythons a release has wheels for (scripts/views/release/status.py)."""

from __future__ import annotations

import calendar

SOURCE = "https://devguide.python.org/versions/"

# The devguide's "End of life" column for every CPython line a release in the catalog names (tests/test_python_eol.py
# holds the catalog to it). A day where the line has ended; "YYYY-MM" where the guide gives the planned month only.
END_OF_LIFE: dict[str, str] = {
    "2.7": "2020-01-01",
    "3.5": "2020-09-30",
    "3.6": "2021-12-23",
    "3.7": "2023-06-27",
    "3.8": "2024-10-07",
    "3.9": "2025-10-31",
    "3.10": "2026-10",
    "3.11": "2027-10",
    "3.12": "2028-10",
    "3.13": "2029-10",
    "3.14": "2030-10",
    "3.15": "2031-10",
}


def line_of(python: str) -> str:
    """The CPython line of a version as the catalog writes it: a free-threaded build ("3.13t") is its line's."""
    return python[:-1] if python.endswith("t") else python


def end_of_life(python: str) -> str | None:
    """The line's end of life ("2024-10-07", or "2026-10" where only the month is planned), None if not listed."""
    return END_OF_LIFE.get(line_of(python))


def last_day(end: str) -> str:
    """The last day a date of END_OF_LIFE still covers: the day itself, or the last day of a planned month."""
    if len(end) == len("2026-10"):
        year, month = (int(part) for part in end.split("-"))
        return f"{end}-{calendar.monthrange(year, month)[1]:02d}"
    return end


def ended_by(python: str, day: str) -> bool:
    """Whether the line of `python` was past its end of life on `day` (ISO date); False for a line not listed."""
    end = end_of_life(python)
    return end is not None and last_day(end) < day
