"""`python -m harness.run`: the sweep command line."""

import sys

from harness.run.cli import main

sys.exit(main())
