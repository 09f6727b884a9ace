"""probviz: see probabilistic classifiers at work."""

__version__ = "0.1.0"


def plot(data, labels=None, **kwargs):
    """Draw data fitted by a model into a matplotlib Axes: ``probviz.plot("example:fruit", model="qda", ax=ax)``
    or ``probviz.plot(X, y, model="lda")``. Returns a :class:`probviz.mpl.Drawing`; see :func:`probviz.mpl.plot`
    for every option. Needs matplotlib (``pip install 'probviz-classifiers[mpl]'``)."""
    from probviz.mpl import plot as draw  # matplotlib and numpy only when asked for

    return draw(data, labels, **kwargs)
