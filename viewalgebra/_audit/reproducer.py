"""One access as an MLIR function (docs/audit.md, Reproducers): the buffer as the argument, the
access's maps as ``rock.transform`` ops, and a ``memref.copy`` of the view into a buffer of its
shape, so that ``viewalgebra vectorize`` (or rocMLIR itself) can be pointed at a width the audit
reports, and the file loads in MLIR's own parser."""

from __future__ import annotations

import re

from .._kernel.graph import Kernel
from .._maps.buffer import Buffer
from .._mlir.model import MlirFunction, MlirModule
from .._mlir.writer import write_mlir
from .._recipes.access import ThreadAccess
from ..errors import InvalidArgumentError


def access_mlir(access: ThreadAccess, *, name: str | None = None, generic: bool = False) -> str:
    """``access`` as a module with one function ``@name`` (default: the access's name): the
    argument ``%buffer`` of the buffer's type, the view as ``rock.transform`` ops named after the
    access's dims, and ``memref.copy`` of the view into ``%registers`` (an allocation of the view's
    shape). With ``generic=True`` every op is in MLIR's generic form.

    Example: ``viewalgebra vectorize FILE --dim 5`` on the text of a global load gives the exact
    and rocMLIR's width along ``iter`` (dim 5).
    """
    if not isinstance(access, ThreadAccess):
        raise InvalidArgumentError(f"access_mlir: expected a ThreadAccess, got {access!r}")
    function = access.name if name is None else name
    if not re.fullmatch(r"[A-Za-z_][\w$.]*", function):
        raise InvalidArgumentError(f"access_mlir: {function!r} is not an MLIR function name")
    view = access.view
    plain = Buffer(view.buffer.shape, view.buffer.dtype)
    if (view.buffer.strides, view.buffer.offset) != (plain.strides, plain.offset):
        raise InvalidArgumentError(f"access_mlir: {access.name}'s buffer is not a row-major memref (strides "
                                   f"{view.buffer.strides}, offset {view.buffer.offset})")
    kernel = Kernel(function)
    buffer = kernel.argument("buffer", view.buffer.shape, view.buffer.dtype)
    value = kernel.view(buffer, list(view.maps), name="view")
    registers = kernel.alloc(view.shape, view.buffer.dtype, name="registers")
    kernel.op("memref.copy", reads=[value], writes=[registers], name="copy")
    return write_mlir(MlirModule((MlirFunction(kernel, False, 1),)), generic=generic)
