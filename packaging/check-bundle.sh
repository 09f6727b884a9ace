#!/usr/bin/env bash
# The bundle's check (a separate step: building takes about a minute and 300 MB, too much for every CI
# run): install the tarball into a home that already holds a pip install's settings and autosaves, run
# it, check a figure it exports, open the real window on a virtual screen (Xvfb and openbox) and check
# that the lesson's posterior is drawn, quit with Ctrl+Q, uninstall; the pip install's files survive.
# Usage: bash packaging/check-bundle.sh dist/probviz-*.tar.gz
# The window step needs Xvfb, openbox, xdotool and a Python with PySide6 for the screenshot
# (SHOT_PYTHON, default build/bundle-venv/bin/python); without them it is skipped, and says so.
set -euo pipefail
tarball="$(realpath "$1")"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/home"
tar -xzf "$tarball" -C "$work"
clean() { env -i HOME="$work/home" PATH=/usr/bin:/bin LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$@"; }
# what a pip install left in this home: its settings and an autosave (Qt's data folder for the app)
mkdir -p "$work/home/.local/share/probviz/probviz/autosave" "$work/home/.config/probviz"
echo '{"kept": true}' > "$work/home/.local/share/probviz/probviz/autosave/autosave-1-pip.probviz"
printf '[General]\ntheme=dark\n' > "$work/home/.config/probviz/probviz.conf"
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
desktop="$work/home/.local/share/applications/io.github.probviz.probviz.desktop"
test -f "$desktop"
grep -q "^Exec=$work/home/.local/lib/probviz/probviz %f" "$desktop"

shot_python="${SHOT_PYTHON:-$root/build/bundle-venv/bin/python}"
if command -v Xvfb >/dev/null && command -v openbox >/dev/null && command -v xdotool >/dev/null \
        && "$shot_python" -c "import PySide6" 2>/dev/null; then
    display=":$((90 + RANDOM % 9))"
    Xvfb "$display" -screen 0 1366x768x24 >/dev/null 2>&1 &
    sleep 1
    DISPLAY="$display" openbox >/dev/null 2>&1 &
    sleep 1
    # the pip install is running too: its autosave is locked by a live instance (not work left behind,
    # so the bundle's window does not offer it back)
    "$shot_python" -c "import sys, time
from PySide6.QtCore import QLockFile
lock = QLockFile(sys.argv[1]); lock.setStaleLockTime(0)
assert lock.tryLock(0); time.sleep(120)" "$work/home/.local/share/probviz/probviz/autosave/autosave-1-pip.lock" &
    sleep 1
    # started as the menu entry starts it: its Exec line, in the clean home
    exec_line=$(sed -n 's/^Exec=\(.*\) %f$/\1/p' "$desktop")
    env -i HOME="$work/home" PATH=/usr/bin:/bin LANG=C.UTF-8 DISPLAY="$display" "$exec_line" &
    app=$!
    for _ in $(seq 60); do
        DISPLAY="$display" xdotool search --name "probviz — fruit" >/dev/null 2>&1 && break
        sleep 0.5
    done
    DISPLAY="$display" xdotool search --name "probviz — fruit" >/dev/null || { echo "no window appeared"; exit 1; }
    sleep 2
    DISPLAY="$display" QT_QPA_PLATFORM=xcb "$shot_python" "$root/packaging/posterior_drawn.py" "$work/window.png"
    wid=$(DISPLAY="$display" xdotool search --onlyvisible --name "probviz — fruit" | head -1)
    DISPLAY="$display" xdotool windowactivate "$wid" 2>/dev/null || true
    sleep 0.5
    DISPLAY="$display" xdotool key ctrl+q
    for _ in $(seq 20); do kill -0 "$app" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$app" 2>/dev/null; then echo "the window did not quit on Ctrl+Q"; exit 1; fi
    wait "$app" || { echo "the window did not quit cleanly"; exit 1; }
    echo "the window opened, drew the posterior and quit"
else
    echo "window step skipped: needs Xvfb, openbox, xdotool and $shot_python with PySide6"
fi

clean bash "$work"/probviz-*/uninstall.sh
test ! -e "$work/home/.local/lib/probviz" && test ! -e "$bin" && test ! -e "$desktop"
# the pip install's files are untouched
grep -q kept "$work/home/.local/share/probviz/probviz/autosave/autosave-1-pip.probviz"
grep -q theme=dark "$work/home/.config/probviz/probviz.conf"
echo "bundle check passed"
