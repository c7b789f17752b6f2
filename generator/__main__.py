import sys

from generator.entry import main

sys.exit(main())
