import os

# Before anything imports Qt: CI has no screen.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Parallel workers (pytest-xdist) each get a home of their own: Qt's test-mode folders (~/.qttest: the
# autosaves and their lock files) and every tool's caches stay apart, so no worker sees another's windows.
if os.environ.get("PYTEST_XDIST_WORKER"):
    import tempfile

    os.environ["HOME"] = tempfile.mkdtemp(prefix=f"probviz-{os.environ['PYTEST_XDIST_WORKER']}-")

import numpy as np
import pytest
from hypothesis import settings

# The suite draws the same examples every run (a search that finds a new case fails a developer's run,
# never an unrelated change's CI); HYPOTHESIS_PROFILE=explore searches afresh (new random examples each run).
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


@pytest.fixture(scope="session", autouse=True)
def _private_settings(tmp_path_factory):
    """Settings, recent files and autosaves of the test run stay out of the user's folders."""
    from PySide6.QtCore import QCoreApplication, QSettings, QStandardPaths

    QStandardPaths.setTestModeEnabled(True)
    QCoreApplication.setOrganizationName("probviz-tests")
    QCoreApplication.setApplicationName("probviz-tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path_factory.mktemp("settings")))


@pytest.fixture
def three_blobs():
    """Three Gaussian classes with different covariances, string labels."""
    rng = np.random.default_rng(0)
    X = np.vstack([
        rng.multivariate_normal([0, 0], [[1.0, 0.3], [0.3, 0.6]], 60),
        rng.multivariate_normal([2.5, 1.0], [[0.5, -0.2], [-0.2, 1.2]], 45),
        rng.multivariate_normal([-1.0, 2.5], [[0.3, 0.0], [0.0, 2.0]], 35),
    ])
    y = np.repeat(np.array(["a", "b", "c"]), [60, 45, 35])
    return X, y


@pytest.fixture
def queries():
    return np.random.default_rng(1).uniform(-4, 5, (300, 2))
