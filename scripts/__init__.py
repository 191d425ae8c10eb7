"""Command-line tools and the shared release data model of the PyTorch Release Timeline."""
