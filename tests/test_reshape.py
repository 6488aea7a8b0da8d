"""memref.collapse_shape / expand_shape as transform maps: the addresses of the row-major reshape."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import viewalgebra as va


@st.composite
def reshapes(draw):
    """A shape and a reassociation of its dims into consecutive groups."""
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=5))
    groups, current = [], [0]
    for d in range(1, len(shape)):
        if draw(st.booleans()):
            groups.append(current)
            current = [d]
        else:
            current.append(d)
    groups.append(current)
    return tuple(shape), groups


@settings(derandomize=True, deadline=None, max_examples=200)
@given(case=reshapes())
def test_collapse_and_expand_keep_row_major_order(case):
    shape, groups = case
    collapse = va.transforms.collapse_shape_map(shape, groups)
    collapsed = tuple(math.prod(shape[d] for d in g) for g in groups)
    assert collapse.upper_bounds == collapsed
    addr, valid = va.View(va.Buffer(shape), [collapse]).addresses()
    assert valid.all() and (addr.ravel() == np.arange(math.prod(shape))).all()
    expand = va.transforms.expand_shape_map(collapsed, shape, groups)
    addr, valid = va.View(va.Buffer(collapsed), [expand]).addresses()
    assert valid.all() and (addr.ravel() == np.arange(math.prod(shape))).all()
    assert va.invert(expand).kind == va.invert(collapse).kind == "bijective"


def test_rocmlir_forms():
    assert va.text.print_transform(va.transforms.collapse_shape_map((1, 2, 4), [[0, 1, 2]]).ops[0]) == (
        '<Merge{1, 2, 4} ["dim0"] at [0] -> ["col0", "col1", "col2"] at [0, 1, 2]>')
    expand = va.transforms.expand_shape_map((6,), (1, 2, 3), [[0, 1, 2]])
    assert [va.text.print_transform(op) for op in expand.ops] == [
        '<Unmerge{2, 3} ["exp1", "exp2"] at [1, 2] -> ["dim0"] at [0]>',
        '<AddDim{1} ["unit0"] at [0] -> [] at []>']
    unit = va.transforms.collapse_shape_map((1, 5), [[1]])
    assert [op.kind for op in unit.ops] == ["PassThrough", "ConstDim"]


@pytest.mark.parametrize(("call", "message"), [
    (lambda: va.transforms.collapse_shape_map((2, 5), [[1]]), "source dim 0 of size 2 is in no group"),
    (lambda: va.transforms.collapse_shape_map((2, 5), [[1, 0]]), "must list the dims in order"),
    (lambda: va.transforms.expand_shape_map((6,), (2, 4), [[0, 1]]), "do not multiply to source dim 0 of size 6"),
    (lambda: va.transforms.expand_shape_map((6, 2), (6,), [[0]]), "1 groups for a rank-2 source"),
])
def test_bad_reshapes(call, message):
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape(message)):
        call()
