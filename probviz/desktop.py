"""`probviz install-desktop`: the desktop entry, AppStream metainfo and icon of a pip or pipx install in
the user's XDG folders, so that probviz appears in the applications menu with its icon (and
`--uninstall` to remove them). No Qt here."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

from probviz.resources import asset_path

APP_ID = "io.github.probviz.probviz"


def data_home() -> Path:
    """$XDG_DATA_HOME, else ~/.local/share (the XDG base-directory default)."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def targets(home: Path | None = None) -> dict[str, Path]:
    home = data_home() if home is None else home
    return {"desktop": home / "applications" / f"{APP_ID}.desktop",
            "metainfo": home / "metainfo" / f"{APP_ID}.metainfo.xml",
            "icon": home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"}


def launcher() -> str:
    """The Exec command: the bundle's executable; else the installed probviz-gui by its absolute path
    (a venv or pipx folder is not on a desktop session's PATH); else this Python running the package."""
    if getattr(sys, "frozen", False):  # the standalone bundle: its own executable opens the window
        return _quote(sys.executable)
    gui = shutil.which("probviz-gui") or str(Path(sys.executable).with_name("probviz-gui"))
    if os.access(gui, os.X_OK):
        return _quote(gui)
    return f"{_quote(sys.executable)} -m probviz"


def _quote(path: str) -> str:
    """A path quoted as the Desktop Entry spec wants (double quotes, with \\ " ` $ escaped)."""
    if all(c.isalnum() or c in "/._-+" for c in path):
        return path
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in path)
    return f'"{escaped}"'


def entry_text(exec_line: str) -> str:
    """The packaged desktop entry with its Exec pointing at ``exec_line``."""
    lines = asset_path("desktop", f"{APP_ID}.desktop").read_text(encoding="utf-8").splitlines()
    return "\n".join(f"Exec={exec_line} %f" if ln.startswith("Exec=") else ln for ln in lines) + "\n"


def install(home: Path | None = None) -> dict[str, Path]:
    """Write the three files (replacing earlier ones); returns where they went."""
    paths = targets(home)
    for p in paths.values():
        p.parent.mkdir(parents=True, exist_ok=True)
    paths["desktop"].write_text(entry_text(launcher()), encoding="utf-8")
    shutil.copyfile(asset_path("desktop", f"{APP_ID}.metainfo.xml"), paths["metainfo"])
    shutil.copyfile(asset_path("icons", "probviz.svg"), paths["icon"])
    return paths


def uninstall(home: Path | None = None) -> list[Path]:
    """Remove the files ``install`` wrote; returns the ones that were there."""
    removed = []
    for p in targets(home).values():
        if p.exists():
            p.unlink()
            removed.append(p)
    return removed


def main(args) -> int:
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        # freedesktop.org files mean nothing to Windows' Start menu or macOS's Launchpad
        where = "the Start menu (install the Windows bundle)" if sys.platform == "win32" else \
            "Launchpad (drag the macOS bundle's probviz.app into Applications)"
        print(f"probviz: error: install-desktop writes Linux desktop entries; on this system use {where}",
              file=sys.stderr)
        return 2
    if args.uninstall:
        removed = uninstall()
        print("removed " + ", ".join(map(str, removed)) if removed else "nothing to remove")
        return 0
    paths = install()
    print("installed the desktop entry, metainfo and icon:")
    for p in paths.values():
        print(f"  {p}")
    print(f"launcher: {shlex.split(launcher())[0]}")
    return 0
