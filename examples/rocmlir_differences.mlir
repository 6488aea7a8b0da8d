// Views on which rocMLIR's hand-written rules and the exact answers differ.
//   viewalgebra check examples/rocmlir_differences.mlir
// The first two functions are rocMLIR's own tests
// (mlir/test/Dialect/Rock/test_vectorization_inference.mlir), the others are made to show one
// rule each; docs/rocmlir.md explains every difference.

// rocMLIR test @test_merge_transpose_transposing_embed: rocMLIR's rules allow vectors of 24 along
// the view, but point 12 lies past the memref<12xf32> (the Embed{1, 3} reaches 23): the exact
// length is 12, and no validity check guards the read.
#transform_unmerge_9 = #rock.transform_map<affine_map<(d0, d1) -> (d0 + d1 * 3)>
  by [<Embed{1, 3} ["a", "c"] at [0, 1] -> ["1"] at [0]>]
  bounds = [3, 8] -> [24]>
#transform_transpose = #rock.transform_map<affine_map<(d0, d1) -> (d1, d0)>
  by [<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>]
  bounds = [8, 3] -> [3, 8]>
#transform_merge = #rock.transform_map<affine_map<(d0) -> (d0 floordiv 3, d0 mod 3)>
  by [<Merge{8, 3} ["1"] at [0] -> ["a", "b"] at [0, 1]>]
  bounds = [24] -> [8, 3]>

func.func @test_merge_transpose_transposing_embed(%buf: memref<12xf32>) {
  %0 = rock.transform %buf by #transform_unmerge_9 : memref<12xf32> to memref<3x8xf32>
  %1 = rock.transform %0 by #transform_transpose : memref<3x8xf32> to memref<8x3xf32>
  %2 = rock.transform %1 by #transform_merge : memref<8x3xf32> to memref<24xf32>
  "use"(%2) : (memref<24xf32>) -> ()
  func.return
}

// rocMLIR test @test_merge_unmerge_twisting: the unit dim sits elsewhere in the Merge and the
// Unmerge, so rocMLIR's contiguity test gives up and vectorizes by 16; the two maps cancel
// exactly and the whole row of 768 is contiguous.
#transform_map_merge_gemm = #rock.transform_map<affine_map<(d0, d1, d2) -> (d0, d1, d2 floordiv 16, d2 mod 16, 0)>
  by [<PassThrough ["gemmG"] at [0] -> ["gemmG"] at [0]>,
      <PassThrough ["gemmM"] at [1] -> ["gemmM"] at [1]>,
      <Merge{48, 16, 1} ["gemmN"] at [2] -> ["n_block", "n_iter", "n_tid"] at [2, 3, 4]>]
  bounds = [1, 16, 768] -> [1, 16, 48, 16, 1]>
#transform_map_unmerge_gemm = #rock.transform_map<affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, (d2 + d4) * 16 + d3)>
  by [<PassThrough ["gemmG"] at [0] -> ["gemmG"] at [0]>,
      <PassThrough ["gemmM"] at [1] -> ["gemmM"] at [1]>,
      <Unmerge{48, 1, 16} ["n_block", "n_tid", "n_iter"] at [2, 4, 3] -> ["gemmN"] at [2]>]
  bounds = [1, 16, 48, 16, 1] -> [1, 16, 768]>

func.func @test_merge_unmerge_twisting(%buf: memref<1x16x768xf32>) {
  %0 = rock.transform %buf by #transform_map_unmerge_gemm : memref<1x16x768xf32> to memref<1x16x48x16x1xf32>
  %1 = rock.transform %0 by #transform_map_merge_gemm : memref<1x16x48x16x1xf32> to memref<1x16x768xf32>
  "use"(%1) : (memref<1x16x768xf32>) -> ()
  func.return
}

// embedCanBeInvalid tests each term of an Embed alone: 10 * 1 <= 12 for both, so rocMLIR
// checks nothing, yet a + b reaches 18 on a memref of 12 elements (28 of the 100 points).
#sliding_window = #rock.transform_map<affine_map<(d0, d1) -> (d0 + d1)>
  by [<Embed{1, 1} ["a", "b"] at [0, 1] -> ["x"] at [0]>]
  bounds = [10, 10] -> [12]>

func.func @embed_past_the_buffer(%buf: memref<12xf32>) {
  %0 = rock.transform %buf by #sliding_window : memref<12xf32> to memref<10x10xf32>
  "use"(%0) : (memref<10x10xf32>) -> ()
  func.return
}

// invertTransforms has no rule for Pad; the exact inverse on the valid points is a Slice.
#pad_h = #rock.transform_map<affine_map<(d0, d1) -> (d0 - 1, d1)>
  by [<Pad{1, 1} ["hpad"] at [0] -> ["h"] at [0]>,
      <PassThrough ["w"] at [1] -> ["w"] at [1]>]
  bounds = [58, 56] -> [56, 56]>

func.func @padded_rows(%buf: memref<56x56xf32>) {
  %0 = rock.transform %buf by #pad_h : memref<56x56xf32> to memref<58x56xf32>
  "use"(%0) : (memref<58x56xf32>) -> ()
  func.return
}
