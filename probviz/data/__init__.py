"""Data sets, files and examples: pure Python/numpy, no Qt."""
