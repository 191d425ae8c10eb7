"""What both benchmarks share: where the project and its test harness are, progress on stderr, sizes in KB,
gzip as a static host would apply it."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
GZIP_LEVEL = 6  # what nginx / GitHub Pages style servers use by default


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def kb(n: float) -> str:
    return f"{n / 1024:.1f} KB"


def test_harness() -> None:
    """tests/ holds the shared harness (copy_project, serve_directory, browser_page); import it by path."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))


def gzip_size(data: bytes) -> int:
    return len(gzip.compress(data, GZIP_LEVEL, mtime=0))
