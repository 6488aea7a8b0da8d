"""rocMLIR's own rules, ported rule for rule, each beside a comparison with the exact answer
(docs/rocmlir.md): vectorization, contiguous groups, inversion, the 64-bit index decision, the
collapse of contiguous merges, lower sub-dimensions, the removal of upper dims and the validity
checks. ``viewalgebra/rocmlir.py`` is their public face."""
