"""rocMLIR text syntax: accepted forms, printing, and located parse errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import viewalgebra as va

MERGE = ('#rock.transform_map<affine_map<(d0, d1) -> (d0 floordiv 8, d1, d0 mod 8)> '
         'by [<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 2]>, '
         '<PassThrough ["0"] at [1] -> ["0"] at [1]>] bounds = [32, 5] -> [4, 5, 8]>')


def test_prefixed_and_inline_forms_are_the_same_map():
    inline = MERGE.removeprefix("#rock.transform_map")
    assert va.parse_transform_map(MERGE) == va.parse_transform_map(inline)


def test_print_is_rocmlir_text():
    assert va.print_transform_map(va.parse_transform_map(MERGE)) == MERGE


def test_bare_names_and_empty_bounds():
    tm = va.parse_transform_map(
        "<affine_map<() -> (0, 1, 2)> by [<ConstDim{0, 1} [] at [] -> [a] at [0]>, "
        "<ConstDim{1, 2, 2, 3} [] at [] -> [b, c] at [1, 2]>] bounds = [] -> [1, 2, 3]>")
    assert tm.upper_bounds == () and tm.ops[1].lower_names == ("b", "c")
    assert va.evaluate(tm, ()) == ((0, 1, 2), True)
    assert va.print_transform_map(tm).startswith(
        '#rock.transform_map<affine_map<() -> (0, 1, 2)> by [<ConstDim{0, 1} [] at [] -> ["a"]')


def test_names_with_quotes_round_trip():
    op = va.transforms.PassThrough((), ('we"ird\\name',), (0,), ("x",), (0,))
    tm = va.TransformMap((op,), (3,), (3,))
    text = va.print_transform_map(tm)
    assert '"we\\22ird\\\\name"' in text
    assert va.parse_transform_map(text) == tm


@pytest.mark.parametrize(("literal", "name"), [
    ('"a\\09b"', "a\tb"), ('"\\C3\\A9"', "\u00e9"), ('"q\\"q"', 'q"q'), ('"n\\n"', "n\n"),
    ("bare_name", "bare_name"), ("12", "12")])
def test_mlir_string_escapes(literal, name):
    op = va.text.parse_transform(f"<PassThrough [{literal}] at [0] -> [x] at [0]>")
    assert op.upper_names == (name,)
    assert va.text.parse_transform(va.text.print_transform(op)) == op


def test_bad_escape_is_located():
    with pytest.raises(va.errors.TransformParseError, match=r"1:17: expected an escape") as info:
        va.text.parse_transform('<PassThrough ["a\\qb"] at [0] -> [x] at [0]>')
    assert info.value.offset == 16


def test_single_transform():
    op = va.text.parse_transform('#rock.transform<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>')
    assert op == va.transforms.Pad((2, 1), ("x",), (0,), ("y",), (0,))
    assert va.text.print_transform(op) == '<Pad{2, 1} ["x"] at [0] -> ["y"] at [0]>'


def test_affine_map_alias_is_resolved_in_a_file():
    text = """
    #map = affine_map<(d0, d1) -> (d1, d0)>
    #tm = #rock.transform_map<#map by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>]
      bounds = [4, 8] -> [8, 4]>
    """
    (entry,) = va.text.parse_mlir_transform_maps(text)
    assert entry.name == "tm" and entry.form == "alias" and str(entry.written) == "(d0, d1) -> (d1, d0)"
    assert (entry.line, entry.column) == (3, 11)
    assert va.lint(entry) == ()


def test_file_reading_skips_comments_and_finds_inline_maps():
    text = """
    // #x = #rock.transform_map<broken
    func.func @f(%arg0: memref<6xf32>) {
      %0 = rock.transform %arg0 by <affine_map<(d0, d1) -> (d0 * 3 + d1)> by [<Unmerge{2, 3} ["a", "b"] at [0, 1] -> ["x"] at [0]>] bounds = [2, 3] -> [6]> : memref<6xf32> to memref<2x3xf32>
      return
    }
    """
    (entry,) = va.text.parse_mlir_transform_maps(text)
    assert entry.form == "inline" and entry.line == 4 and entry.map is not None
    assert entry.map.ops[0] == va.transforms.Unmerge((2, 3), ("a", "b"), (0, 1), ("x",), (0,))


@pytest.mark.parametrize(("text", "at", "message"), [
    ("<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]>] bounds = [4] -> [4]",
     "", "expected '>' closing the transform map, found end of input"),
    ("<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]] bounds = [4] -> [4]>",
     "] bounds", "expected '>' closing the transform, found ']'"),
    ("<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]>] bounds [4] -> [4]>",
     "[4] ->", "expected '=' after 'bounds', found '['"),
    ("<affine_map<(d0) -> (d0 * d0)> by [] bounds = [4] -> [4]>",
     "* d0", "non-affine product"),
    ("<affine_map<(d0) -> (d0 mod 0)> by [] bounds = [4] -> [4]>",
     "mod 0", "the right side of 'mod' must be a positive constant"),
    ("<affine_map<(d0) -> (d1)> by [] bounds = [4] -> [4]>",
     "d1)", "expected a dimension, an integer or '('"),
    ("<#map by [] bounds = [4] -> [4]>", "#map", "undefined affine map alias #map"),
    ("<affine_map<(d0) -> (d0)> by [<Pad{x} [\"a\"] at [0] -> [\"a\"] at [0]>] bounds = [4] -> [4]>",
     "x}", "expected an integer, found 'x'"),
    ("<affine_map<(d0) -> (d0)>\n by [<PassThrough [\"a\"] at [-1] -> [\"a\"] at [0]>]",
     "-1]", "expected a dimension index (non-negative integer), found '-'"),
    ("<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]>] bounds = [4] -> [4]> x",
     "x", "expected end of input, found 'x'"),
    ("<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\" at [0]",
     "at [0]", "expected ',' or ']' in the upper names, found 'at'"),
    ("<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] ~",
     "~", "unexpected character '~'"),
])
def test_parse_errors_say_where_and_what_was_expected(text, at, message):
    with pytest.raises(va.errors.TransformParseError, match=re.escape(message)) as info:
        va.parse_transform_map(text)
    error = info.value
    assert text[error.offset:].startswith(at) and (at or error.offset == len(text))
    line_start = text.rfind("\n", 0, error.offset) + 1
    assert (error.line, error.column) == (text.count("\n", 0, error.offset) + 1,
                                          error.offset - line_start + 1)
    assert str(error).startswith(f"{error.line}:{error.column}: ")


def test_verifier_errors_while_parsing_carry_the_location():
    text = '<affine_map<(d0) -> (d0)> by [<PassThrough{1} ["a"] at [0] -> ["a"] at [0]>] bounds = [64] -> [64]>'
    with pytest.raises(va.errors.InvalidTransformError, match=re.escape("1:31: PassThrough has no parameters")):
        va.parse_transform_map(text)


def test_file_errors_are_located_in_the_file():
    text = "\n\n  %0 = rock.transform %a by <affine_map<(d0) -> (d0)> by [<Foo [\"a\"] at [0] -> [\"a\"] at [0]>] bounds = [4] -> [4]>"
    with pytest.raises(va.errors.TransformParseError) as info:
        va.text.parse_mlir_transform_maps(text)
    assert (info.value.line, info.value.column) == (3, 60)
    assert text.splitlines()[2][59:].startswith("Foo")
    assert "a name of a known transform" in str(info.value)


@pytest.mark.parametrize(("text", "buffer"), [
    ("memref<4x8xf32>", va.Buffer((4, 8), "f32")),
    ("memref<f32>", va.Buffer((), "f32")),
    ("memref<2x3xbf16, strided<[1, 2], offset: 5>>", va.Buffer((2, 3), "bf16", (1, 2), 5)),
    ("memref<16xi8, strided<[2]>>", va.Buffer((16,), "i8", (2,), 0)),
])
def test_memref_types(text, buffer):
    assert va.text.parse_memref_type(text) == buffer


def test_memref_type_errors():
    with pytest.raises(va.errors.TransformParseError, match="static memref type"):
        va.text.parse_memref_type("memref<?x8xf32>")
    with pytest.raises(va.errors.InvalidTransformError, match="unknown element type 'q7'"):
        va.text.parse_memref_type("memref<8xq7>")


def test_affine_map_parsing_and_printing():
    amap = va.text.parse_affine_map("affine_map<(d0, d1) -> (-d0 + 2 * d1 - 3, (d0 + d1) mod 4, d0 ceildiv 2)>")
    assert str(amap) == "(d0, d1) -> (-d0 + d1 * 2 - 3, (d0 + d1) mod 4, d0 ceildiv 2)"
    again = va.text.parse_affine_map(f"affine_map<{amap}>")
    assert again == amap


def test_views_are_read_from_transform_chains():
    from rocmlir_data import DATA

    text = (DATA / "rocmlir" / "bug-1546-compile-failure.mlir").read_text()
    views = {v.name: v for v in va.text.parse_mlir_views(text)}
    three = views["%3"].view  # %3 = transform %2, %2 = transform %0, %0 = transform %arg0
    assert three is not None and three.buffer == va.Buffer((6,), "f32")
    assert [m.upper_bounds for m in three.maps] == [(1, 16, 16), (1, 3, 2), (1, 2, 3)]
    assert three.address((0, 2, 1)) == 1 * 3 + 2 and three.address((0, 15, 0)) is None
    assert "%2" not in views  # an inner link of a chain is not a view of its own


@pytest.mark.parametrize(("text", "message"), [
    ("%0 = rock.transform %0 by #m : memref<4xf32> to memref<4xf32>", "undefined transform map #m"),
    ("#m = #rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]>]"
     " bounds = [4] -> [4]>\n%0 = rock.transform %1 by #m : memref<4xf32> to memref<4xf32>\n"
     "%1 = rock.transform %0 by #m : memref<4xf32> to memref<4xf32>", "defined through itself"),
    ("#m = #rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough [\"a\"] at [0] -> [\"a\"] at [0]>]"
     " bounds = [4] -> [4]>\n%0 = rock.transform %a by #m", "expected ': memref<...>'"),
])
def test_bad_chains_are_reported_not_looped(text, message):
    (view,) = [v for v in va.text.parse_mlir_views(text) if v.error is not None][:1]
    assert view.view is None and message in str(view.error)


def test_chains_sharing_a_prefix_are_two_views():
    m = ('#m = #rock.transform_map<affine_map<(d0) -> (d0)> by [<PassThrough ["a"] at [0] -> ["a"] at [0]>]'
         ' bounds = [4] -> [4]>\n')
    text = m + "\n".join(f"%{r} = rock.transform %{s} by #m : memref<4xf32> to memref<4xf32>"
                         for r, s in [("a", "x"), ("b", "a"), ("c", "a")])
    views = va.text.parse_mlir_views(text)
    assert [(v.name, v.error, len(v.view.maps) if v.view else None) for v in views] == [
        ("%b", None, 2), ("%c", None, 2)]


@pytest.mark.parametrize(("expr", "message"), [
    ("(" * 101 + "d0" + ")" * 101, "expression nested deeper than 100 levels"),
    ("- " * 101 + "d0", "expression nested deeper than 100 levels"),
    (" + ".join(["d0"] * 202), "expression with more than 200 operations"),
    ("d0" + " floordiv 2" * 201, "expression with more than 200 operations"),
])
def test_pathological_expressions_are_refused_not_crashed(expr, message):
    text = f'<affine_map<(d0) -> ({expr})> by [<PassThrough ["x"] at [0] -> ["x"] at [0]>] bounds = [4] -> [4]>'
    with pytest.raises(va.errors.TransformParseError, match=re.escape(message)):
        va.parse_transform_map(text)
    with pytest.raises(va.errors.MlirParseError, match=re.escape(message)):
        va.read_mlir(f"func.func @f(%a: memref<4xf32>) {{\n  %0 = rock.transform %a by {text} : memref<4xf32> "
                     "to memref<4xf32>\n}")


@settings(derandomize=True, deadline=None, max_examples=200)
@given(text=st.text(alphabet="ab\n", max_size=40))
def test_line_and_column_by_binary_search_equal_counting(text):
    from viewalgebra._common.lines import line_column  # noqa: TID251 -- the fast path itself

    for offset in range(len(text) + 1):
        assert line_column(text, offset) == (text.count("\n", 0, offset) + 1,
                                             offset - (text.rfind("\n", 0, offset) + 1) + 1)
