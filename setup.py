"""The compiled part of rami: the solver's search loops (the sweep's and best_opening's)
and the RL mask's packing bounds, in C.

Everything else is in pyproject.toml. The extension is optional: where no C
compiler is found, the install goes on and each runs its Python twin
(the same search, slower).
"""

from setuptools import Extension, find_packages, setup


def packages() -> list[str]:
    """Every package, found rather than listed (a listed set forgot
    rami_core.rl once): rami_core and its subpackages, and the folders kept
    at the top of the repository (variants/, plugins/) that install under
    rami_core (their package-dir mappings are in pyproject.toml)."""
    found = find_packages(include=["rami_core", "rami_core.*"])
    for folder in ("variants", "plugins"):
        found.append(f"rami_core.{folder}")
        found.extend(f"rami_core.{folder}.{sub}" for sub in find_packages(folder))
    return found


setup(
    packages=packages(),
    ext_modules=[
        Extension(
            "rami_core.solver._sweepc",
            ["rami_core/solver/_sweepc.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "rami_core.solver._openingc",
            ["rami_core/solver/_openingc.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
        Extension(
            "rami_core.rl._packingc",
            ["rami_core/rl/_packingc.c"],
            extra_compile_args=["-O3"],
            optional=True,
        ),
    ],
)
