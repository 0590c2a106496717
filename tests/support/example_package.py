"""The example plugin package (examples/rami-plugin-example) as pip would install it.

A dist-info folder with its entry points, put on sys.path beside the package's
source: its plugin and its profile are then found by entry point, exactly as
an installed distribution's, without installing anything. Tests that need the
package take the ``example_package`` fixture (tests/conftest.py), so the
README's `pytest` passes on a machine where only the dev extra is installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rami-plugin-example"
ENTRY_POINTS = (
    "[rami]\nno_joker_discard = rami_plugin_example:Plugin\n\n"
    "[rami.profiles]\nrami51_no_joker_discard = rami_plugin_example\n"
)


def register_example_package(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist = folder / "rami_plugin_example-0.1.0.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: rami-plugin-example\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))
    monkeypatch.syspath_prepend(str(folder))
