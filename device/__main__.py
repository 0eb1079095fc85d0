"""`python -m device` runs the `pipkeeper` command line."""

import sys

from device.cli import main

sys.exit(main())
