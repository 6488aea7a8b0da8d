"""What every layer uses and none owns: integer arguments checked (``ints.py``), and the line and
column of an offset in a text read whole or a part at a time (``lines.py``)."""
