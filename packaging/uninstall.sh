#!/usr/bin/env bash
# Remove what install.sh put in place.
set -euo pipefail
data="${XDG_DATA_HOME:-$HOME/.local/share}"
if [ -x "$data/probviz/probviz" ]; then "$data/probviz/probviz" install-desktop --uninstall; fi
rm -rf "$data/probviz"
if [ -L "$HOME/.local/bin/probviz" ]; then rm "$HOME/.local/bin/probviz"; fi
echo "probviz is uninstalled."
