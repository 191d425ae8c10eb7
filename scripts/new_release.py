"""`python -m scripts.new_release`, the command the provisional pages and check-upstream's reports name: a thin
shim over scripts/tools/new_release.py, where the scaffold lives."""

import sys

from scripts.tools.new_release import main

if __name__ == "__main__":
    sys.exit(main())
