#!/usr/bin/env bash
# Build the standalone Linux bundle and its tarball: bash packaging/build-bundle.sh
# Needs only a Python 3.11+ to build (the bundle itself needs none). Output: dist/probviz-VERSION-linux-x86_64.tar.gz
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv build/bundle-venv
. build/bundle-venv/bin/activate
python -m pip install -q . pyinstaller
pyinstaller --noconfirm --distpath build/dist --workpath build/pyinstaller packaging/probviz.spec
version=$(build/dist/probviz/probviz --version | cut -d' ' -f2)
name="probviz-$version-linux-$(uname -m)"
rm -rf "build/$name" && mkdir -p "build/$name" dist
cp -r build/dist/probviz "build/$name/probviz"
cp packaging/install.sh packaging/uninstall.sh README.md LICENSE "build/$name/"
tar -C build -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1))"
