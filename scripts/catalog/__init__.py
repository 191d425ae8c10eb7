"""The catalog layer: the release pages' front matter read strictly into typed records (the source of truth of
every generated view). It imports no other layer of scripts/; see ARCHITECTURE.md."""
