"""probviz's own processes keep freed blocks for reuse (probviz.allocator): an array the size of a frame's
largest comes from the heap, not from pages newly mapped for it."""

import json
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                                reason="glibc's malloc only")

# mallinfo2 around a 24 MiB array: hblkhd, the bytes in blocks mapped on their own; arena, the heap's size
# (what is still there once the array is freed is kept for the next)
_MAPPED = """
import ctypes, json, sys
import numpy as np
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
{setup}
before = libc.mallinfo2()
a = np.ones(3 << 20)  # 24 MiB, larger than anything freed before
mapped = libc.mallinfo2().hblkhd - before.hblkhd
del a
kept = libc.mallinfo2().arena - before.arena
print(json.dumps({{"mapped": mapped, "kept": kept >= 20 << 20, "took": took}}))
"""


def _mapped(setup: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _MAPPED.format(setup=setup)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def test_a_frame_sized_array_comes_from_the_heap_once_the_command_line_started():
    # the control: in a plain process glibc maps such a block on its own (and unmaps it when freed)
    plain = _mapped("took = None")
    assert plain["mapped"] >= 24 << 20
    # probviz's entry point (any command) sets the allocator first
    ran = _mapped("import io, contextlib\nfrom probviz.cli import main\n"
                  "with contextlib.redirect_stdout(io.StringIO()):\n    took = main(['examples'])")
    assert ran == {"mapped": 0, "kept": True, "took": 0}


def test_the_setting_itself_says_it_was_taken():
    ran = _mapped("from probviz.allocator import keep_freed_blocks\ntook = keep_freed_blocks()")
    assert ran == {"mapped": 0, "kept": True, "took": True}
