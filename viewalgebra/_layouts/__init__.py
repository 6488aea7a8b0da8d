"""Layouts of other tools (CuTe, FlyDSL, Triton) read as chains of rock transform maps (docs/layouts.md)."""
