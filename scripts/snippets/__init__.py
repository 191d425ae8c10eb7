"""Extract the code snippets of the site's Markdown pages and prove they still work.

    python -m scripts.snippets extract|list|check [--docs-dir docs] ...

Modules, one concern each (importing any of them has no side effects):

- `model`: the `Snippet` and `Diagnostic` records shared by everything else.
- `extract`: a line scanner that finds fenced code blocks the way pymdownx.superfences does
  (admonitions, content tabs, lists, nested and tilde fences, both info-string forms, CRLF).
- `directives`: `<!-- snippet: ... -->` comments placed on the line right before a fence.
- `parse`: the syntax tier for every language (ast, doctest, tree-sitter via `cpp`, `bash -n`).
- `parity`: the zh and en page of a release hold the same code; no full-width punctuation in code.
- `names`: every `torch.*` name a snippet uses resolves in the installed torch.
- `run` / `worker` / `outputcheck`: python and pycon snippets run on real torch, one worker per page.
- `cpp`: tree-sitter parse and `g++ -fsyntax-only` against the wheel's libtorch headers, cached.
- `status`: the committed status file (`docs/.snippet-status.json`) and its staleness check.
- `badges`: the "runs on PyTorch X.Y" line the MkDocs hook puts under each code block.
- `check`: runs the checks in order; `cli`: the command line.
"""
