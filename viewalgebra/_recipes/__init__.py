"""Recipes: the views rocMLIR builds for a real problem and tuning config in gridwise lowering,
ported with their rocMLIR dim names (docs/gridwise.md): the problems and perf configs, a map
builder that names dims as rocMLIR's ``TopDownTMBuilder`` and ``BottomUpTMBuilder`` do, and the
conv-to-gemm, gemm-to-gridwise and per-thread views."""
