"""The bundle's lowest glibc is computed from its own files' symbol versions, not from the build machine."""

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[2] / "packaging" / "min_glibc.py"
spec = importlib.util.spec_from_file_location("min_glibc", SCRIPT)
min_glibc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(min_glibc)

READELF = """
Version symbols section '.gnu.version' contains 30 entries:
  000:   0 (*local*)       2 (GLIBC_2.99)    1 (*global*)
Version definition section '.gnu.version_d' contains 1 entry:
  000000: Rev: 1  Flags: BASE  Index: 1  Cnt: 1  Name: libfoo.so
  0x001c: Rev: 1  Flags: none  Index: 2  Cnt: 1  Name: GLIBC_2.99
Version needs section '.gnu.version_r' contains 2 entries:
 Addr: 0x0000000000000520  Offset: 0x00000520  Link: 6 (.dynstr)
  000000: Version: 1  File: libc.so.6  Cnt: 3
  0x0010:   Name: GLIBC_2.2.5  Flags: none  Version: 4
  0x0020:   Name: GLIBC_2.34  Flags: none  Version: 3
  0x0030:   Name: GLIBC_2.17  Flags: none  Version: 2
  0x0040: Version: 1  File: libstdc++.so.6  Cnt: 1
  0x0050:   Name: GLIBCXX_3.4.30  Flags: none  Version: 5
"""


def test_the_needed_versions_are_read_from_the_version_needs_section_only():
    """GLIBC_2.99 in the symbol listing or among the versions a library defines, and GLIBCXX (libstdc++'s),
    are not glibc requirements."""
    assert min_glibc.versions_needed(READELF) == {(2, 2, 5), (2, 34), (2, 17)}
    assert max(min_glibc.versions_needed(READELF)) == (2, 34)
    assert min_glibc.versions_needed("no such section") == set()


@pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("readelf")), reason="needs gcc and readelf")
def test_a_folder_needs_what_its_neediest_file_needs(tmp_path):
    """A library calling getrandom (glibc 2.25) beside one calling only puts (2.2.5): the folder needs
    2.25, named with the file; a text file and a symbolic link are passed over. (Libraries, not programs:
    a program built here needs this machine's glibc for its start-up code alone.)"""
    (tmp_path / "old.c").write_text('#include <stdio.h>\nint say(void){return puts("x");}\n')
    (tmp_path / "new.c").write_text("#include <sys/random.h>\nint draw(void){char b[4];"
                                    "return (int)getrandom(b, 4, 0);}\n")
    bundle = tmp_path / "bundle"
    (bundle / "lib").mkdir(parents=True)
    for src, out in (("old.c", bundle / "old"), ("new.c", bundle / "lib" / "new")):
        subprocess.run(["gcc", "-shared", "-fPIC", str(tmp_path / src), "-o", str(out)], check=True)
    (bundle / "notes.txt").write_text("GLIBC_9.9")
    (bundle / "link").symlink_to(bundle / "lib" / "new")
    assert min_glibc.lowest_glibc(str(bundle)) == ((2, 25), "lib/new")
    (bundle / "lib" / "new").unlink()
    (bundle / "link").unlink()
    assert min_glibc.lowest_glibc(str(bundle)) == ((2, 2, 5), "old")
