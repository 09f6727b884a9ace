"""scipy.special's functions, imported on first use.

Importing scipy.special costs the window's start-up about a quarter of a second (its array-API layer imports
numpy.f2py and numpy.testing), and a session's first frame often needs none of its functions. These names
stand for scipy's own: the first call imports it, and each call is scipy's function with the same arguments.
"""

from __future__ import annotations

import importlib

__all__ = ["erfcx", "expit", "log_expit", "log_ndtr", "logsumexp", "ndtr"]


def _scipy(name: str):
    return getattr(importlib.import_module("scipy.special"), name)


def _deferred(name: str):
    def call(*args, **kwargs):
        return _scipy(name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"scipy.special.{name}, imported on first use."
    return call


erfcx = _deferred("erfcx")
expit = _deferred("expit")
log_expit = _deferred("log_expit")
log_ndtr = _deferred("log_ndtr")
logsumexp = _deferred("logsumexp")
ndtr = _deferred("ndtr")
