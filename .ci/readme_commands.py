"""The README's first fenced block, the commands a newcomer types, one per line.

.ci/run runs exactly these lines, in order, in a fresh copy of the checkout
with a fresh venv, before anything else is installed; tests/test_readme_ci.py
checks that the block is there and that .ci/run takes its commands from here.
"""

from __future__ import annotations

import sys
from pathlib import Path


def readme_commands(readme: Path) -> list[str]:
    lines = readme.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("```"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    return [line for line in lines[start + 1 : end] if line.strip()]


if __name__ == "__main__":
    for command in readme_commands(Path(sys.argv[1])):
        print(command)
