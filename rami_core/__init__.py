"""rami: a referee engine for the French rummy family.

A variant is data (a :class:`~rami_core.profile.Profile` loaded from YAML by
:mod:`rami_core.loader`); the engine reads its settings and never a variant's
name.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
