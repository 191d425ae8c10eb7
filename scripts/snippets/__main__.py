"""`python -m scripts.snippets`: see scripts/snippets/cli.py."""

import sys

from scripts.snippets.cli import main

sys.exit(main())
