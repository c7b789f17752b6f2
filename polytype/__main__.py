"""`python -m polytype …` runs the `polytype` command."""

import sys

from generator.entry import main

sys.exit(main())
