#!/usr/bin/env bash
# Install the probviz bundle for this user: the program in ~/.local/lib/probviz, the command in
# ~/.local/bin, and the desktop entry, metainfo and icon so that it appears in the applications menu.
# (Not in ~/.local/share/probviz: that folder is the app's own data, autosaves included, and belongs to
# every install, a pip one too. Only a folder this script made, marked as such, is ever replaced.)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$HOME/.local/lib/probviz"
marker=".probviz-bundle"
if [ -e "$dest" ]; then
    if [ ! -f "$dest/$marker" ]; then
        echo "install.sh: $dest exists and was not made by this installer; move it away first" >&2
        exit 1
    fi
    rm -rf "$dest"
fi
# an earlier installer put the bundle in the data folder itself: take back its two entries, nothing else
old="${XDG_DATA_HOME:-$HOME/.local/share}/probviz"
if [ -f "$old/probviz" ] && [ -x "$old/probviz" ] && [ -d "$old/_internal" ]; then
    rm -rf "$old/probviz" "$old/_internal"
fi
mkdir -p "$HOME/.local/lib" "$HOME/.local/bin"
cp -r "$here/probviz" "$dest"
touch "$dest/$marker"
ln -sf "$dest/probviz" "$HOME/.local/bin/probviz"
"$dest/probviz" install-desktop
echo "probviz is installed: run 'probviz', or find it in the applications menu (Education)."
