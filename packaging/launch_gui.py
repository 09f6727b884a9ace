"""The Windows bundle's windowed entry point (probviz-gui.exe, what the Start menu starts): the window,
on a file if one is given."""

import sys

from probviz.cli import gui_main

if __name__ == "__main__":
    sys.exit(gui_main())
