"""probviz: see probabilistic classifiers at work."""

__version__ = "0.1.0"

#: The window's BLAS threads: its fits are small matrix products on a worker thread beside the GUI thread, and
#: a BLAS pool as large as the machine only fights those two for the cores (dragging at 100,000 points on two
#: cores: about 30% less latency with one BLAS thread). `probviz` sets them for the window before numpy loads;
#: a user's own setting wins. The library itself leaves BLAS alone.
WINDOW_BLAS_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def plot(data, labels=None, **kwargs):
    """Draw data fitted by a model into a matplotlib Axes: ``probviz.plot("example:fruit", model="qda", ax=ax)``
    or ``probviz.plot(X, y, model="lda")``. Returns a :class:`probviz.mpl.Drawing`; see :func:`probviz.mpl.plot`
    for every option. Needs matplotlib (``pip install 'probviz-classifiers[mpl]'``)."""
    from probviz.mpl import plot as draw  # matplotlib and numpy only when asked for

    return draw(data, labels, **kwargs)
