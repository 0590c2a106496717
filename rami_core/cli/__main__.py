"""``python -m rami_core.cli``: the same as the ``rami`` script."""

from rami_core.cli import main

main()
