"""Desktop integration of a pip or pipx install: the menu entry, metainfo and icon in the XDG folders."""

import configparser
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from probviz import desktop
from probviz.resources import asset_path

APP = desktop.APP_ID


def run(tmp_path, *args):
    env = {"XDG_DATA_HOME": str(tmp_path / "share"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "probviz", "install-desktop", *args], capture_output=True,
                          text=True, env=env)


def test_install_puts_entry_metainfo_and_icon_where_menus_look_and_uninstall_removes_them(tmp_path):
    r = run(tmp_path)
    assert r.returncode == 0, r.stderr
    share = tmp_path / "share"
    entry = share / "applications" / f"{APP}.desktop"
    meta = share / "metainfo" / f"{APP}.metainfo.xml"
    icon = share / "icons" / "hicolor" / "scalable" / "apps" / f"{APP}.svg"
    assert entry.is_file() and meta.is_file() and icon.is_file()
    ini = configparser.ConfigParser(interpolation=None)
    ini.optionxform = str
    ini.read(entry)
    e = ini["Desktop Entry"]
    assert e["Icon"] == APP == icon.stem  # the icon the entry names is the one installed
    command = shlex.split(e["Exec"])
    assert command[-1] == "%f"
    exe = command[0]
    assert exe.startswith("/") and shutil.which(exe)  # an absolute path: a venv is not on the desktop's PATH
    root = ET.parse(meta).getroot()
    assert root.findtext("id") == APP and root.find("launchable").text == f"{APP}.desktop"
    assert root.find("releases/release").get("version")
    r = run(tmp_path, "--uninstall")
    assert r.returncode == 0 and not entry.exists() and not meta.exists() and not icon.exists()


def test_the_launcher_starts_probviz(tmp_path):
    r = subprocess.run([*shlex.split(desktop.launcher()), "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("probviz ")


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_the_desktop_entry_validates(tmp_path):
    desktop.install(tmp_path)
    for path in (asset_path("desktop", f"{APP}.desktop"), tmp_path / "applications" / f"{APP}.desktop"):
        r = subprocess.run(["desktop-file-validate", str(path)], capture_output=True, text=True)
        assert r.returncode == 0 and not r.stdout.strip(), r.stdout


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_the_metainfo_validates():
    r = subprocess.run(["appstreamcli", "validate", "--pedantic", "--no-net",
                        str(asset_path("desktop", f"{APP}.metainfo.xml"))], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
    problems = [ln for ln in r.stdout.splitlines() if ln[:2] in ("E:", "W:")]
    assert not problems, problems


def test_exec_paths_with_spaces_are_quoted():
    assert desktop._quote("/opt/my apps/bin/probviz-gui") == '"/opt/my apps/bin/probviz-gui"'
    assert desktop._quote('/a b/$x"y') == '"/a b/\\$x\\"y"'  # the Desktop Entry spec's escapes
    assert desktop._quote("/usr/bin/probviz-gui") == "/usr/bin/probviz-gui"


def test_in_the_standalone_bundle_the_entry_runs_the_bundle(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/home/t/.local/share/probviz/probviz")
    assert desktop.launcher() == "/home/t/.local/share/probviz/probviz"
    assert "Exec=/home/t/.local/share/probviz/probviz %f" in desktop.entry_text(desktop.launcher())


@pytest.mark.parametrize("platform,words", [("win32", "Start menu"), ("darwin", "Launchpad")])
def test_install_desktop_elsewhere_says_what_to_do_and_writes_nothing(monkeypatch, tmp_path, capsys, platform, words):
    import argparse

    from probviz import desktop

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setattr(desktop.sys, "platform", platform)
    assert desktop.main(argparse.Namespace(uninstall=False)) == 2
    assert words in capsys.readouterr().err
    assert not any(tmp_path.rglob("*"))
