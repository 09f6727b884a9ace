"""Files shipped with probviz (icon, example data): inside the wheel as probviz/assets."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def asset_path(*parts: str) -> Path:
    """The path of a shipped asset, in an installed wheel or in a source checkout."""
    packaged = resources.files("probviz").joinpath("assets", *parts)
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent.joinpath("assets", *parts)
