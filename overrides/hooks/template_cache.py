"""MkDocs hook: the theme's Jinja templates are compiled once per process, not once per language.

static-i18n runs a whole build per language, and each build makes a new Jinja environment that compiles every
template it renders again (Material's base.html and its partials, overrides/main.html). Jinja's bytecode cache
keeps what it compiled, checked against each template's source (a changed template compiles again): kept here in
memory for the next language's build (MkDocs loads hooks again with the config, so `mkdocs serve` starts each
rebuild afresh).
"""

from __future__ import annotations

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates by Jinja's key (template name and file), each with the checksum of its source."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])  # ignored if the source's checksum changed

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


_CACHE = MemoryBytecodeCache()


def on_env(env, config, files):
    env.bytecode_cache = _CACHE
    return env
