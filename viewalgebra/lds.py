"""LDS bank conflicts: the hardware table per architecture, an access through a view, its exact
conflict count by enumeration and its conflict-freedom decided by ISL (docs/lds.md)."""

from ._analyses.lds import BankConflicts, Collision, LdsAccess, bank_conflicts
from ._analyses.lds_model import LdsKind, LdsModel, PhaseRule, Provenance, contiguous, cosets, lds_model

__all__ = ["BankConflicts", "Collision", "LdsAccess", "LdsKind", "LdsModel", "PhaseRule", "Provenance",
           "bank_conflicts", "contiguous", "cosets", "lds_model"]
