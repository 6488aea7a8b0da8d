"""The analyses: the exact answers about maps, chains and views, each certified or checked
against ISL, each in a module named by its verb (vectorize, invert, equivalence, index_range,
simplify, sub_dimensions, restrict, validity). They import the values (``_maps``) and the bounded
ISL work (``_engine``), never the front ends or rocMLIR's ports."""
