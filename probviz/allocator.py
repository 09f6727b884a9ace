"""The C allocator's settings for probviz's own processes (the window and the command line).

Every frame makes and frees arrays of the same few sizes: a 256 x 256 grid per class, N x K scores.
glibc's malloc gives a block above its threshold (128 KiB at first, rising with use) back to the system
when it is freed, and trims the heap's free top above twice that threshold, so the next array of that
size is mapped afresh and each of its pages is faulted in and zeroed again, every frame. On a virtual
machine a page fault is dear: p(C_k|x) of 65,536 points took 3 ms for 0.35 ms of arithmetic. Raising
both thresholds keeps freed blocks in the process for the next frame to reuse.

The library leaves the allocator alone, as it leaves BLAS alone: this is for probviz's own programs.
Elsewhere than glibc (macOS, Windows, musl) it does nothing.
"""

from __future__ import annotations

import sys

#: glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: blocks below this come from the heap, where a freed block is reused; glibc's largest allowed value
MMAP_THRESHOLD = 32 << 20
#: free memory at the heap's top kept for reuse before any is given back to the system
TRIM_THRESHOLD = 256 << 20


def keep_freed_blocks() -> bool:
    """Have glibc's malloc reuse freed blocks of up to 32 MiB instead of mapping new pages for each;
    True when it took both settings, False where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) & bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
