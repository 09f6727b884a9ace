"""The lowest glibc a folder of ELF files (a PyInstaller bundle) runs on: the highest GLIBC_x.y symbol
version any of them needs, read from each file's version-needs section (.gnu.version_r) with readelf.
A library the bundle carries itself satisfies nothing here: glibc is the one library every bundle takes
from the system. Usage: python packaging/min_glibc.py build/dist/probviz
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

NEEDED = re.compile(r"Name:\s+GLIBC_(\d+)\.(\d+)(?:\.(\d+))?\b")


def versions_needed(readelf_output: str) -> set[tuple[int, ...]]:
    """The GLIBC_x.y[.z] versions named in ``readelf -V`` output's version-needs entries."""
    needs = readelf_output.split("Version needs section", 1)
    if len(needs) < 2:
        return set()
    return {tuple(int(p) for p in m.groups() if p is not None) for m in NEEDED.finditer(needs[1])}


def is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def lowest_glibc(folder: str) -> tuple[tuple[int, ...], str] | None:
    """(the highest version needed, the file that needs it), or None when nothing needs glibc."""
    best = None
    for base, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            if os.path.islink(path) or not is_elf(path):
                continue
            out = subprocess.run(["readelf", "-V", "--wide", path], capture_output=True, text=True).stdout
            for v in versions_needed(out):
                if best is None or v > best[0]:
                    best = (v, os.path.relpath(path, folder))
    return best


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("usage: python packaging/min_glibc.py BUNDLE_FOLDER", file=sys.stderr)
        return 2
    found = lowest_glibc(argv[0])
    if found is None:
        print("needs no glibc symbol versions")
        return 0
    version, path = found
    print(f"glibc {'.'.join(map(str, version))} or newer (needed by {path})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
