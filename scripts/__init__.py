"""The code of the PyTorch Release Timeline, in layers (catalog, registry, verdicts, views; snippets; checks, bench and tools on top): see ARCHITECTURE.md."""
