// conv2d forward, NCHW input, lowered to a GEMM: the INPUT (gemm "B") view stack that rocMLIR's
// conv-to-gemm lowering builds (compare mlir/test/fusion/bug-1550-reduction-fusion-compile-failure.mlir,
// %0/%2/%6/%7/%8, where the same stack appears for a 2x4x64x64 input).
//
//   input  N=64, C=256, H=W=56 (memref<64x256x56x56xf32>, row-major)
//   filter 3x3 (Y=X=3), padding 1 on every side, stride 1, dilation 1  =>  Ho = Wo = 56
//   gemmG = 1 (groups), gemmK = C*Y*X = 2304, gemmN = N*Ho*Wo = 200704
//
// Maps, lowest (memory side) first, as the transforms are applied below:
//   #conv_input_g      Unmerge{1, 256}: split ci into a unit group dim gi and ci
//                      [64, 1, 256, 56, 56] -> [64, 256, 56, 56]
//   #conv_input_pad    Pad{1, 1, 1, 1} on hi, wi (padded points are invalid: rocMLIR masks them)
//                      [64, 1, 256, 58, 58] -> [64, 1, 256, 56, 56]
//   #conv_input_embed  Embed{1, 1} twice: hipad = y + ho, wipad = x + wo (stride 1, dilation 1)
//                      [64, 1, 256, 3, 56, 3, 56] -> [64, 1, 256, 58, 58]
//   #conv_input_gemm   Merge{256, 3, 3} gemmK -> (ci, y, x), Merge{64, 56, 56} gemmN -> (ni, ho, wo)
//                      [1, 2304, 200704] -> [64, 1, 256, 3, 56, 3, 56]
//
// No gemm-level Pad (rocMLIR's "gemmKPad"/"gemmNPad") is needed: 2304 = 36 * 64 and
// 200704 = 784 * 256 are already multiples of the usual kPerBlock / nPerBlock tile sizes.
//
// As a view: View(Buffer((64, 256, 56, 56), "f32"),
//                 [#conv_input_gemm, #conv_input_embed, #conv_input_pad, #conv_input_g])  (top first)
// e.g. gemm point (g, k, n) = (0, 5*9 + 2*3 + 1, 3*3136 + 10*56 + 20) reads
// input[3, 5, 10 + 2 - 1, 20 + 1 - 1], and (0, 0, 0) is padding (hi = 0 + 0 - 1 = -1).

#conv_input_g = #rock.transform_map<affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 256 + d2, d3, d4)> by [<PassThrough ["ni", "hi", "wi"] at [0, 3, 4] -> ["ni", "hi", "wi"] at [0, 2, 3]>, <Unmerge{1, 256} ["gi", "ci"] at [1, 2] -> ["ci"] at [1]>] bounds = [64, 1, 256, 56, 56] -> [64, 256, 56, 56]>
#conv_input_pad = #rock.transform_map<affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3 - 1, d4 - 1)> by [<PassThrough ["ni"] at [0] -> ["ni"] at [0]>, <PassThrough ["gi"] at [1] -> ["gi"] at [1]>, <PassThrough ["ci"] at [2] -> ["ci"] at [2]>, <Pad{1, 1, 1, 1} ["hipad", "wipad"] at [3, 4] -> ["hi", "wi"] at [3, 4]>] bounds = [64, 1, 256, 58, 58] -> [64, 1, 256, 56, 56]>
#conv_input_embed = #rock.transform_map<affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3 + d4, d5 + d6)> by [<PassThrough ["ni", "gi", "ci"] at [0, 1, 2] -> ["ni", "gi", "ci"] at [0, 1, 2]>, <Embed{1, 1} ["y", "ho"] at [3, 4] -> ["hipad"] at [3]>, <Embed{1, 1} ["x", "wo"] at [5, 6] -> ["wipad"] at [4]>] bounds = [64, 1, 256, 3, 56, 3, 56] -> [64, 1, 256, 58, 58]>
#conv_input_gemm = #rock.transform_map<affine_map<(d0, d1, d2) -> (d2 floordiv 3136, d0, d1 floordiv 9, (d1 mod 9) floordiv 3, (d2 mod 3136) floordiv 56, d1 mod 3, d2 mod 56)> by [<PassThrough ["gemmG"] at [0] -> ["gi"] at [1]>, <Merge{256, 3, 3} ["gemmK"] at [1] -> ["ci", "y", "x"] at [2, 3, 5]>, <Merge{64, 56, 56} ["gemmN"] at [2] -> ["ni", "ho", "wo"] at [0, 4, 6]>] bounds = [1, 2304, 200704] -> [64, 1, 256, 3, 56, 3, 56]>

func.func @conv2d_fwd_nchw_input(%input: memref<64x256x56x56xf32>) {
  %0 = rock.transform %input by #conv_input_g : memref<64x256x56x56xf32> to memref<64x1x256x56x56xf32>
  %1 = rock.transform %0 by #conv_input_pad : memref<64x1x256x56x56xf32> to memref<64x1x256x58x58xf32>
  %2 = rock.transform %1 by #conv_input_embed : memref<64x1x256x58x58xf32> to memref<64x1x256x3x56x3x56xf32>
  %3 = rock.transform %2 by #conv_input_gemm : memref<64x1x256x3x56x3x56xf32> to memref<1x2304x200704xf32>
  return
}
