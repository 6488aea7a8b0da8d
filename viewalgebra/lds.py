"""LDS bank conflicts: the hardware table per architecture, an access through a view, its exact
conflict count by enumeration and its conflict-freedom decided by ISL (docs/lds.md); and
rocMLIR's LDS layouts judged by them (``compare_lds_layouts``, the LDS accesses of rocMLIR IR
``lds_accesses``; docs/lds.md, rocMLIR's layouts), imported on first use of one of their names
(they build on the gridwise recipes)."""

import importlib
from typing import TYPE_CHECKING

from ._analyses.lds import BankConflicts, Collision, LdsAccess, bank_conflicts
from ._analyses.lds_isl import conflict_free
from ._analyses.lds_model import LdsKind, LdsModel, PhaseRule, Provenance, contiguous, cosets, lds_model

if TYPE_CHECKING:
    from ._audit.lds_compare import (
        LayoutComparison,
        LayoutScore,
        LayoutVariant,
        compare_lds_layouts,
        layout_variants,
        thread_lds_access,
    )
    from ._audit.lds_mlir import MlirLdsAccess, lds_accesses

_LAZY = {**dict.fromkeys(["LayoutComparison", "LayoutScore", "LayoutVariant", "compare_lds_layouts",
                          "layout_variants", "thread_lds_access"], "._audit.lds_compare"),
         "MlirLdsAccess": "._audit.lds_mlir", "lds_accesses": "._audit.lds_mlir"}
"""Public name -> the module that defines it, for names imported on first use."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'viewalgebra.lds' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, "viewalgebra"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)


__all__ = ["BankConflicts", "Collision", "LayoutComparison", "LayoutScore", "LayoutVariant", "LdsAccess",
           "LdsKind", "LdsModel", "MlirLdsAccess", "PhaseRule", "Provenance", "bank_conflicts",
           "compare_lds_layouts", "conflict_free", "contiguous", "cosets", "layout_variants", "lds_accesses",
           "lds_model", "thread_lds_access"]
