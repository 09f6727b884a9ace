"""The bundle's entry point: the same command line as the installed `probviz`."""

import sys

from probviz.cli import main

if __name__ == "__main__":
    sys.exit(main())
