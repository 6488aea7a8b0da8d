"""Kernels as graphs of buffers, views and ops (``graph.py``) and the reference interpreter that
runs them (``interpret.py``): what the regularizer rewrites and the MLIR front end reads into."""
