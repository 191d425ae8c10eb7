"""Fail the build, naming file and line, when any release page's front matter is wrong.

Runs first (high priority) so a bad page stops the build before anything reads it.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # hooks load by path; make `scripts` importable

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402

from scripts.releases import ReleaseDataError, cached_catalog  # noqa: E402


@event_priority(100)
def on_config(config):
    try:
        cached_catalog(config.docs_dir)
    except ReleaseDataError as exc:
        count = len(exc.problems)
        raise PluginError(f"{exc}\n{count} problem(s) in the release pages; the site was not built.") from None
    return config
