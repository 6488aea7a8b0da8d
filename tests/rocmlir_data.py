"""Shared fixtures: the rocMLIR conformance data copied into tests/data/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
ROCMLIR_FILES = sorted((DATA / "rocmlir").glob("*.mlir"))
INVALID_FILE = DATA / "rocmlir" / "invalid.transform-verifier-excerpt.mlir"


def cases(category: str) -> list[dict[str, Any]]:
    """The rocmlir-cases.json cases of one category."""
    with open(DATA / "rocmlir-cases.json") as f:
        return [c for c in json.load(f) if c["category"] == category]
