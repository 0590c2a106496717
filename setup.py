"""The compiled part of rami: the solver's search loop in C.

Everything else is in pyproject.toml. The extension is optional: where no C
compiler is found, the install goes on and the solver runs its Python twin
(the same search, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rami_core.solver._sweepc",
            ["rami_core/solver/_sweepc.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
