"""The values layer: transforms, transform maps, buffers and views, their text syntax, numeric
evaluation, ISL relations and lint."""
