"""The true errors a frame shows beside its fits: each model's error under the truth and the Bayes error
(Bishop 1.5.1). Pure: no Qt.

Building a frame never integrates: it reads what is known (:func:`known_errors`), and the window hands
what is missing to its worker (:func:`compute_errors`), which may take seconds for a mixture truth, and
then asks for the frame again. A truth and a fitted model are immutable (an edit or a refit makes new
objects), so a value is remembered for the pair of objects it was computed for.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from probviz.models.truth import Cancelled, error_rate

_known: OrderedDict = OrderedDict()  # (id(truth), id(model)) -> (truth, model, value); model None: Bayes
_lock = threading.Lock()
KEEP = 64


def _lookup(truth, model):
    key = (id(truth), id(model))
    hit = _known.get(key)
    if hit is None or hit[0] is not truth or hit[1] is not model:
        return None
    _known.move_to_end(key)  # in use: the last to be forgotten
    return hit[2]


def known_errors(truth, fits) -> tuple[dict, bool]:
    """({"bayes": e, spec: e, ...} for what is known, whether anything is still missing)."""
    out, missing = {}, False
    with _lock:
        for key, model in [("bayes", None)] + [(f.spec, f.model) for f in fits if f.model is not None]:
            value = _lookup(truth, model)
            if value is None:
                missing = True
            else:
                out[key] = value
    return out, missing


def compute_errors(truth, fits, cancelled=lambda: False) -> None:
    """Compute and remember the Bayes error and each fit's true error not yet known; stop (between them or
    inside one integral) when ``cancelled()`` says so (newer fits are waiting)."""
    for model, index in [(None, None)] + [(f.model, f.class_index) for f in fits if f.model is not None]:
        if cancelled():
            return
        with _lock:
            if _lookup(truth, model) is not None:
                continue
        try:
            value = truth.bayes_error(cancelled) if model is None else error_rate(truth, model, index, cancelled)
        except Cancelled:  # newer fits are waiting: the integral is given up mid-way, nothing remembered
            return
        except (ValueError, ArithmeticError):
            value = float("nan")  # said as "not available", and not tried again for the same objects
        with _lock:
            _known[(id(truth), id(model))] = (truth, model, value)
            while len(_known) > KEEP:  # the least recently used go, never the ones just computed
                _known.popitem(last=False)
