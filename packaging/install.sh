#!/usr/bin/env bash
# Install the probviz bundle for this user: the program in ~/.local/share/probviz, the command in
# ~/.local/bin, and the desktop entry, metainfo and icon so that it appears in the applications menu.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
dest="$data/probviz"
rm -rf "$dest"
mkdir -p "$data" "$HOME/.local/bin"
cp -r "$here/probviz" "$dest"
ln -sf "$dest/probviz" "$HOME/.local/bin/probviz"
"$dest/probviz" install-desktop
echo "probviz is installed: run 'probviz', or find it in the applications menu (Education)."
