#!/usr/bin/env bash
# Remove what install.sh put in place (and nothing else: the data folder with its autosaves stays).
set -euo pipefail
dest="$HOME/.local/lib/probviz"
if [ -f "$dest/.probviz-bundle" ]; then
    "$dest/probviz" install-desktop --uninstall || true
    rm -rf "$dest"
fi
link="$HOME/.local/bin/probviz"
if [ -L "$link" ] && [ "$(readlink "$link")" = "$dest/probviz" ]; then rm "$link"; fi
echo "probviz is uninstalled."
