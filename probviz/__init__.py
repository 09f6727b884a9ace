"""probviz: see probabilistic classifiers at work."""

__version__ = "0.1.0"
