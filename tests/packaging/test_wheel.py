"""The wheel a release would upload: its own distribution name (not the package index's unrelated
"probviz"), the import and the command still probviz, typed, with its examples and icons inside."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_wheel_has_a_name_of_its_own_and_everything_it_needs(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-1500:]
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.startswith("probviz_classifiers-")
    names = zipfile.ZipFile(wheel).namelist()
    assert "probviz/py.typed" in names and "probviz/__init__.py" in names
    assert any(n.startswith("probviz/assets/examples/") for n in names)
    assert any(n.startswith("probviz/assets/icons/") for n in names)
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "\nName: probviz-classifiers\n" in meta
    assert "\nProvides-Extra: mpl\n" in meta and "matplotlib>=3.8; extra == 'mpl'" in meta  # probviz.plot
    entry = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "probviz = probviz.cli:main" in entry
