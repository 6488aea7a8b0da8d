"""The reference interpreter: gathers and scatters through views, default semantics, errors."""

import re

import numpy as np
import pytest

import viewalgebra as va

TRANSPOSE_MN = va.parse_transform_map(
    '<affine_map<(d0, d1, d2) -> (d0, d2, d1)> by [<PassThrough ["g", "n", "m"] at [0, 1, 2] -> '
    '["g", "m", "n"] at [0, 2, 1]>] bounds = [2, 5, 3] -> [2, 3, 5]>')
"""``[G, N, M]`` seen as ``[G, M, N]``: the transpose of a ``2x3x5`` gemm output."""

PAD_ROWS = va.parse_transform_map(
    '<affine_map<(d0, d1) -> (d0 - 1, d1)> by [<Pad{1, 2} ["i"] at [0] -> ["i"] at [0]>, '
    '<PassThrough ["j"] at [1] -> ["j"] at [1]>] bounds = [5, 3] -> [2, 3]>')
"""A ``2x3`` buffer padded with one row above and two below: rows 0, 3 and 4 are padding."""

BROADCAST_COLS = va.parse_transform_map(
    '<affine_map<(d0, d1) -> (d0, 0)> by [<PassThrough ["i"] at [0] -> ["i"] at [0]>, '
    '<Broadcast{1} ["j"] at [1] -> ["j"] at [1]>] bounds = [3, 4] -> [3, 1]>')
"""A ``3x1`` buffer seen as ``3x4``: every column is the same element."""


def arange(*shape: int) -> np.ndarray:
    return np.arange(float(np.prod(shape))).reshape(shape) + 1.0


def test_gemm_then_transposed_elementwise_matches_numpy():
    k = va.kernel.Kernel("fused")
    a = k.argument("a", (2, 4, 3))
    b = k.argument("b", (2, 4, 5))
    d = k.argument("d", (2, 5, 3))
    out = k.argument("out", (2, 5, 3))
    c = k.alloc((2, 3, 5), name="c")
    k.op("rock.gridwise_gemm", reads=[a, b], writes=[c], root=True)
    ct = k.view(c, [TRANSPOSE_MN])
    k.op("linalg.generic", reads=[ct, d], writes=[out], fn=lambda x, y: 2.0 * x + y)

    rng = np.random.default_rng(0)
    inputs = {"a": rng.standard_normal((2, 4, 3)), "b": rng.standard_normal((2, 4, 5)),
              "d": rng.standard_normal((2, 5, 3)), "out": np.zeros((2, 5, 3))}
    before = {name: x.copy() for name, x in inputs.items()}
    result = va.kernel.run_kernel(k, inputs)

    # Independently: one matmul per batch, an explicit transpose, then the elementwise body.
    gemm = np.stack([inputs["a"][g].T @ inputs["b"][g] for g in range(2)])
    expected = np.stack([2.0 * gemm[g].T + inputs["d"][g] for g in range(2)])
    np.testing.assert_allclose(result["c"], gemm)
    np.testing.assert_allclose(result["out"], expected)
    assert sorted(result) == ["a", "b", "c", "d", "out"]
    for name, x in before.items():  # the caller's arrays are not written
        np.testing.assert_array_equal(inputs[name], x)


def test_padding_reads_as_zero():
    k = va.kernel.Kernel("pad")
    x = k.argument("x", (2, 3))
    y = k.argument("y", (5, 3))
    k.op("memref.copy", reads=[k.view(x, [PAD_ROWS])], writes=[y])
    xs = arange(2, 3)
    y_out = va.kernel.run_kernel(k, {"x": xs, "y": np.full((5, 3), 7.0)})["y"]
    np.testing.assert_array_equal(y_out, np.concatenate([np.zeros((1, 3)), xs, np.zeros((2, 3))]))


def test_padding_reads_as_zero_even_over_an_unwritten_allocation():
    k = va.kernel.Kernel("pad_alloc")
    t = k.alloc((2, 3), name="t")
    y = k.argument("y", (5, 3))
    k.op("memref.copy", reads=[k.view(t, [PAD_ROWS])], writes=[y])
    y_out = va.kernel.run_kernel(k, {"y": np.zeros((5, 3))})["y"]
    assert np.isnan(y_out[1:3]).all()
    assert (y_out[[0, 3, 4]] == 0.0).all()


def test_store_through_pad_drops_the_padding():
    k = va.kernel.Kernel("unpad")
    src = k.argument("src", (5, 3))
    t = k.alloc((2, 3), name="t")
    k.op("memref.copy", reads=[src], writes=[k.view(t, [PAD_ROWS])])
    xs = arange(5, 3)
    np.testing.assert_array_equal(va.kernel.run_kernel(k, {"src": xs})["t"], xs[1:3])


def test_read_through_broadcast_repeats():
    k = va.kernel.Kernel("bcast")
    x = k.argument("x", (3, 1))
    y = k.argument("y", (3, 4))
    k.op("memref.copy", reads=[k.view(x, [BROADCAST_COLS])], writes=[y])
    y_out = va.kernel.run_kernel(k, {"x": [[1.0], [2.0], [3.0]], "y": np.zeros((3, 4))})["y"]
    np.testing.assert_array_equal(y_out, np.repeat([[1.0], [2.0], [3.0]], 4, axis=1))


def test_store_through_broadcast_raises():
    k = va.kernel.Kernel("bcast_store")
    x = k.argument("x", (3, 1))
    k.op("linalg.fill", writes=[k.view(x, [BROADCAST_COLS])], value=1.0)
    with pytest.raises(va.errors.KernelError, match=re.escape(
            "op fill (linalg.fill): writes x_view through a non-injective view: points [0, 0] and "
            "[0, 1] both store to address 0 of x")):
        va.kernel.run_kernel(k, {"x": np.zeros((3, 1))})


def test_two_writes_of_one_op_to_one_address_raise():
    k = va.kernel.Kernel("overlap")
    x = k.argument("x", (2, 3))
    y = k.argument("y", (2, 3))
    k.op("linalg.generic", reads=[x], writes=[y, y], fn=lambda v: (v, v))
    with pytest.raises(va.errors.KernelError, match=re.escape(
            "op generic (linalg.generic): writes y and y both store to address 0 of y")):
        va.kernel.run_kernel(k, {"x": np.zeros((2, 3)), "y": np.zeros((2, 3))})


def test_read_before_write_shows_as_nan():
    k = va.kernel.Kernel("undefined")
    t = k.alloc((2, 2), name="t")
    out = k.argument("out", (2, 2))
    k.op("memref.copy", reads=[t], writes=[out])
    k.op("linalg.fill", writes=[t], value=3.0)
    result = va.kernel.run_kernel(k, {"out": np.zeros((2, 2))})
    assert np.isnan(result["out"]).all()
    assert (result["t"] == 3.0).all()


def test_copy_fill_reduce_defaults():
    k = va.kernel.Kernel("defaults")
    x = k.argument("x", (2, 3, 4))
    copied = k.argument("copied", (2, 3, 4))
    filled = k.argument("filled", (2, 3))
    summed = k.argument("summed", (2, 1, 1))
    k.op("memref.copy", reads=[x], writes=[copied])
    k.op("linalg.fill", writes=[filled], value=2.5)
    k.op("rock.reduce", reads=[x], writes=[summed], dims=(1, 2))
    xs = arange(2, 3, 4)
    result = va.kernel.run_kernel(k, {"x": xs, "copied": np.zeros((2, 3, 4)), "filled": np.zeros((2, 3)),
                            "summed": np.zeros((2, 1, 1))})
    np.testing.assert_array_equal(result["copied"], xs)
    np.testing.assert_array_equal(result["filled"], np.full((2, 3), 2.5))
    np.testing.assert_array_equal(result["summed"].reshape(2), [xs[0].sum(), xs[1].sum()])


def test_fill_defaults_to_zero():
    k = va.kernel.Kernel("zero")
    t = k.alloc((3,), name="t")
    k.op("linalg.fill", writes=[t])
    np.testing.assert_array_equal(va.kernel.run_kernel(k, {})["t"], np.zeros(3))


def test_fn_overrides_the_default_and_may_write_several_values():
    k = va.kernel.Kernel("custom")
    x = k.argument("x", (4,))
    y = k.argument("y", (4,))
    lo = k.alloc((4,), name="lo")
    hi = k.alloc((4,), name="hi")
    k.op("memref.copy", reads=[x], writes=[y], fn=lambda v: -v)
    k.op("rock.conv", reads=[x, y], writes=[lo, hi], fn=lambda u, v: (np.minimum(u, v), np.maximum(u, v)))
    xs = np.array([1.0, -2.0, 3.0, -4.0])
    result = va.kernel.run_kernel(k, {"x": xs, "y": np.zeros(4)})
    np.testing.assert_array_equal(result["y"], -xs)
    np.testing.assert_array_equal(result["lo"], -np.abs(xs))
    np.testing.assert_array_equal(result["hi"], np.abs(xs))


def test_seed_fills_missing_arguments_by_name():
    def kernel(order: list[str]) -> va.kernel.Kernel:
        k = va.kernel.Kernel("seeded")
        for name in order:
            k.argument(name, (3,))
        return k

    first = va.kernel.run_kernel(kernel(["a", "b"]), {}, seed=1)
    again = va.kernel.run_kernel(kernel(["b", "a"]), {"b": np.zeros(3)}, seed=1)
    np.testing.assert_array_equal(first["a"], again["a"])
    assert not np.array_equal(first["a"], first["b"])
    assert not np.array_equal(first["a"], va.kernel.run_kernel(kernel(["a"]), {}, seed=2)["a"])


# {{{ errors


def test_inputs_are_checked():
    k = va.kernel.Kernel("args")
    k.argument("a", (2, 3))
    k.alloc((2,), name="t")
    with pytest.raises(va.errors.KernelError, match=re.escape(
            "run_kernel: no input for argument a of shape [2, 3]")):
        va.kernel.run_kernel(k, {})
    with pytest.raises(va.errors.KernelError, match=re.escape(
            "run_kernel: input a has shape [3, 2] but argument a has shape [2, 3]")):
        va.kernel.run_kernel(k, {"a": np.zeros((3, 2))})
    with pytest.raises(va.errors.KernelError, match=re.escape(
            "run_kernel: input t is not an argument of args (arguments: a)")):
        va.kernel.run_kernel(k, {"a": np.zeros((2, 3)), "t": np.zeros(2)})


def single_op(kind: str, reads: list[tuple[int, ...]], writes: list[tuple[int, ...]],
              **kwargs: object) -> tuple[va.kernel.Kernel, dict[str, np.ndarray]]:
    """A kernel of one op on fresh arguments ``r0, r1, ...`` and ``w0, w1, ...``."""
    k = va.kernel.Kernel("one")
    rs = [k.argument(f"r{i}", s) for i, s in enumerate(reads)]
    ws = [k.argument(f"w{i}", s) for i, s in enumerate(writes)]
    k.op(kind, reads=rs, writes=ws, **kwargs)
    inputs = {name: np.zeros(k.shape(name)) for name in (*rs, *ws)}
    return k, inputs


@pytest.mark.parametrize(("kind", "reads", "writes", "kwargs", "message"), [
    ("rock.conv", [(2,)], [(2,)], {}, "op conv (rock.conv): no default semantics; pass fn="),
    ("linalg.generic", [(2,)], [(2,)], {}, "op generic (linalg.generic): linalg.generic has no default body; pass fn="),
    ("linalg.generic", [(2,)], [(3,)], {"fn": lambda x: x},
     "op generic (linalg.generic): an elementwise op needs operands of one shape, got r0 [2], w0 [3]"),
    ("memref.copy", [(2,)], [(3,)], {}, "op copy (memref.copy): r0 has shape [2] but w0 has shape [3]"),
    ("memref.copy", [(2,), (2,)], [(2,)], {},
     "op copy (memref.copy): needs 1 reads and 1 writes, got 2 reads (r0, r1) and 1 writes (w0)"),
    ("linalg.fill", [(2,)], [(2,)], {}, "op fill (linalg.fill): needs 0 reads and 1 writes, got 1 reads (r0) and 1 writes (w0)"),
    ("linalg.fill", [], [(2,)], {"value": "x"}, "op fill (linalg.fill): value must be a number, got 'x'"),
    ("rock.gemm", [(1, 4, 3), (1, 5, 2)], [(1, 3, 2)], {},
     "op gemm (rock.gemm): needs A [G, K, M], B [G, K, N], C [G, M, N], got r0 [1, 4, 3], r1 [1, 5, 2], w0 [1, 3, 2]"),
    ("rock.gridwise_gemm_accel", [(1, 4, 3), (1, 4, 2)], [(1, 2, 3)], {},
     "op gridwise_gemm_accel (rock.gridwise_gemm_accel): needs A [G, K, M], B [G, K, N], C [G, M, N], got "
     "r0 [1, 4, 3], r1 [1, 4, 2], w0 [1, 2, 3]"),
    ("rock.reduce", [(2, 3)], [(2, 1)], {}, "op reduce (rock.reduce): dims must be a tuple of ints, got None"),
    ("rock.reduce", [(2, 3)], [(2, 1)], {"dims": (2,)}, "op reduce (rock.reduce): dim 2 is outside [0, 2) for r0 of rank 2"),
    ("rock.reduce", [(2, 3)], [(2, 1)], {"dims": (1, 1)}, "op reduce (rock.reduce): dims [1, 1] repeat a dim"),
    ("rock.reduce", [(2, 3)], [(2,)], {"dims": (1,)},
     "op reduce (rock.reduce): the result for w0 has shape [2, 1] but w0 has shape [2]"),
    ("rock.conv", [(2,)], [(2,)], {"fn": lambda x: x[:1]},
     "op conv (rock.conv): the result for w0 has shape [1] but w0 has shape [2]"),
    ("rock.conv", [(2,)], [(2,), (2,)], {"fn": lambda x: x},
     "op conv (rock.conv): fn must return 2 arrays (one per write), got ndarray"),
    ("rock.conv", [(2,)], [(2,), (2,)], {"fn": lambda x: (x,)},
     "op conv (rock.conv): fn returned 1 arrays for 2 writes"),
])
def test_op_errors_name_the_op(kind: str, reads: list[tuple[int, ...]], writes: list[tuple[int, ...]],
                               kwargs: dict[str, object], message: str):
    k, inputs = single_op(kind, reads, writes, **kwargs)
    with pytest.raises(va.errors.KernelError, match=re.escape(message)):
        va.kernel.run_kernel(k, inputs)


# }}}
