"""The one compiled part: `competition/keizer/_standings.c`, the standings command's writer.

Everything else is in pyproject.toml. The extension is optional: where no C compiler is at
hand the install goes on without it and the command writes the same bytes in Python.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "competition.keizer._standings",
            ["competition/keizer/_standings.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
