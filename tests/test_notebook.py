"""The example notebook runs in a real Jupyter kernel (nbclient, ipykernel) and draws what it says."""

import base64
import io
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
matplotlib = pytest.importorskip("matplotlib")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "lda-vs-logistic.ipynb"


def _png(output) -> "object":
    import matplotlib.image

    return matplotlib.image.imread(io.BytesIO(base64.b64decode(output["data"]["image/png"])), format="png")


def test_the_example_notebook_runs_and_draws_lda_against_logistic(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # the kernel's own: inline figures
    client.execute(env=env)  # raises CellExecutionError, with the cell and its traceback, on any error
    code = [c for c in nb.cells if c.cell_type == "code"]
    two, one = code
    text = "".join(o.get("text", "") for o in two.outputs if o.output_type == "stream")
    assert "LDA:      p(apple|x) = 0.823" in text  # the lecture's worked example at x = (2.3, 1.5)
    images = [o for o in two.outputs if "image/png" in o.get("data", {})]
    assert len(images) == 1
    side_by_side = _png(images[0])
    assert side_by_side.shape[1] > 1.8 * side_by_side.shape[0]  # two plots side by side (11 x 4.5 in)
    shown = [o for o in one.outputs if "image/png" in o.get("data", {})]
    assert len(shown) == 1  # the Drawing shows itself, once
    assert _png(shown[0]).shape[:2] == (int(4.8 * 96), int(6.4 * 96))
    text = shown[0]["data"].get("text/plain", "")
    assert text.startswith("<probviz Drawing: QDA") and len(text) < 200  # not the frame's arrays
