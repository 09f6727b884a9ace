#!/usr/bin/env bash
# The bundle's check (a separate step: building takes about a minute and 300 MB, too much for every CI
# run): install the tarball into an empty home with no Python environment, run it, check a figure it
# exports, uninstall. Usage: bash packaging/check-bundle.sh dist/probviz-*.tar.gz
set -euo pipefail
tarball="$(realpath "$1")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/home"
tar -xzf "$tarball" -C "$work"
clean() { env -i HOME="$work/home" PATH=/usr/bin:/bin LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$@"; }
clean bash "$work"/probviz-*/install.sh
bin="$work/home/.local/bin/probviz"
clean "$bin" --version
clean "$bin" examples | head -1
clean "$bin" fit example:fruit --json > "$work/fit.json"
grep -q '"accuracy"' "$work/fit.json"
grep -q '"bayes_error"' "$work/fit.json"  # the truth's error: scipy's quadrature is in the bundle
clean "$bin" fit example:fruit --model softmax --optimizer newton --steps 3 --json | grep -q '"error_curve"'
clean "$bin" sample example:fruit -n 10 --seed 1 -o - | [ "$(wc -l)" = 11 ]
clean "$bin" export example:fruit -o "$work/fruit.png" --width 640 --height 480
# the PNG's own header says 640 x 480 (bytes 16-23: width and height, big-endian)
size=$(od -An -tu1 -j16 -N8 "$work/fruit.png" | awk '{print $3*256+$4, $7*256+$8}')
[ "$size" = "640 480" ] || { echo "figure is $size, not 640 480"; exit 1; }
[ "$(stat -c %s "$work/fruit.png")" -gt 20000 ] || { echo "figure looks empty"; exit 1; }
test -f "$work/home/.local/share/applications/io.github.probviz.probviz.desktop"
grep -q "^Exec=$work/home/.local/share/probviz/probviz %f" "$work/home/.local/share/applications/io.github.probviz.probviz.desktop"
clean bash "$work"/probviz-*/uninstall.sh
test ! -e "$work/home/.local/share/probviz" && test ! -e "$bin"
test ! -e "$work/home/.local/share/applications/io.github.probviz.probviz.desktop"
echo "bundle check passed"
