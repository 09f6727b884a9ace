"""Hypothesis budgets: the full search in the test suite, a small one under mutation testing (mutmut
sets MUTANT_UNDER_TEST in its runs), where every mutant reruns the search."""

import os

MUTATION = bool(os.environ.get("MUTANT_UNDER_TEST"))


def examples(n: int) -> int:
    return min(n, 8) if MUTATION else n
