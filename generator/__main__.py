"""`python -m generator …` runs the `polytype` command (`python -m polytype` does the same)."""

import sys

from generator.entry import main

sys.exit(main())
