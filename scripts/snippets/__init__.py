"""Extract the code snippets of the site's Markdown pages and prove they still work.

    python -m scripts.snippets extract|list|check [--docs-dir docs] ...

Modules, one concern each (importing any of them has no side effects):

- `model`: the `Snippet` and `Diagnostic` records shared by everything else.
- `extract`: a line scanner that finds fenced code blocks the way pymdownx.superfences does
  (admonitions, content tabs, lists, nested and tilde fences, both info-string forms, CRLF).
- `directives`: `<!-- snippet: ... -->` comments placed on the line right before a fence.
- `parse`: the syntax tier for every language (ast, doctest, tree-sitter via `cpp`, `bash -n`), bounded
  nesting, no bidirectional or invisible control characters.
- `parity`: the zh and en page of a release hold the same code; no full-width punctuation in code.
- `names`: the `torch.*` names a snippet uses (read from its code; resolved in a sandbox by `run`).
- `units`: units (a block, or a group's blocks), the page-independent requests that run them, and when two
  pages' units are byte-identical.
- `sandbox` / `channel` / `inside/`: the bubblewrap sandbox, the checker's pipe to it, and what runs in it
  (the supervisor, a unit's runner, the name resolver; standard library only).
- `run` / `interpret` / `outputcheck`: units and names on the pool of sandboxes, what a reply means for a
  block, pycon output compared in linear time.
- `cpp` / `gxx`: tree-sitter parse and the page's translation unit; `g++ -fsyntax-only` against the wheel's
  libtorch headers, sandboxed and bounded.
- `execute`: steps 3-5 of `check` on one pool, costliest first, work shared only for byte-identical input.
- `status`: the committed status file (`docs/.snippet-status.json`) and its staleness check.
- `badges`: the "runs on PyTorch X.Y" line the MkDocs hook puts under each code block.
- `check`: runs the checks in order; `cli`: the command line.
"""
