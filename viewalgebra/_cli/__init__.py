"""The ``viewalgebra`` command line (docs/cli.md): ``main`` parses the arguments (``main.py``)
and runs the command's module (``check.py``, ``show.py``, ``invert.py``, ``vectorize.py``,
``draw.py``, ``regularize.py``, ``lds.py``). The report commands share ``stream.py`` (a file read and
answered a part at a time), ``entries.py`` (the answers), ``output.py`` with ``render.py`` and
``jsonout.py`` (text and one JSON document, written as they are made), ``inputs.py`` and
``errors.py``. No module imports one that imports it back."""

from .main import main

__all__ = ["main"]
