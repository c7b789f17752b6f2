"""`python -m polytype …` runs the `polytype` command."""

import sys

from polytype.entry import main

sys.exit(main())
