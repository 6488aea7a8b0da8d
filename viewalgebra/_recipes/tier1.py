"""rocMLIR's problem lists, line by line: ``mlir/utils/performance/configs/tier1-conv-configs`` and
``tier1-gemm-configs`` (docs/gridwise.md).

Each line is read as rocMLIR's perf scripts read it (``ConvConfiguration.fromCommandLine`` and
``GemmConfiguration.fromCommandLine`` in mlir/utils/performance/perfRunner.py):

* a conv line is MIOpenDriver's: the data type word (``conv`` f32, ``convfp16`` f16, ``convbfp16``
  bf16, ``convint8`` i8), then ``-F 1`` (forward; 2 and 4 are refused), the layouts ``-f``, ``-I``,
  ``-O`` and the sizes ``-n -c -H -W -k -y -x``, padding ``-p -q`` (each on both sides), strides
  ``-u -v``, dilations ``-l -j`` and the group count ``-g``. ``-c`` and ``-k`` count all groups'
  channels (``ConvProblem`` holds them per group). A layout's letters become rock.conv's dim
  names as perfRunner maps them: the filter's ``N`` is ``k``, the output's ``C`` is ``k``, ``H`` and
  ``W`` are ``0`` and ``1``, digits stay (``N01GC`` is the filter layout ``k 0 1 g c``). A layout
  without ``G`` gets one where rocmlir-gen puts it (``correctConvParameters`` in
  mlir/tools/rocmlir-gen/rocmlir-gen.cpp): first in the filter, after ``N`` in the input and
  output (``NCHW`` is the filter ``g k c 0 1`` and the input ``ni gi ci 0i 1i``).
* a gemm line is ``-t f16 -out_datatype f16 -transA false -transB false -g 1 -m .. -n .. -k ..``
  (flag and value pairs, ``-transA``/``-transB`` true when ``1`` or ``true``; ``-perf_config``
  optional).

``-perf_priority N`` (how much of a model's time the problem takes) may appear on any line; as in
rocMLIR's scripts it is kept apart from the problem. ``-m conv`` and ``-t 1`` (MIOpenDriver's mode
and timing flags) are accepted on conv lines. Blank lines and lines starting with ``#`` (after
spaces) are skipped. A malformed line raises ``ConfigParseError`` with its line, the token and
what was expected there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ConfigParseError, InvalidArgumentError
from .perf_config import AccelPerfConfig, GeneralPerfConfig, parse_perf_config
from .problems import ConvProblem, GemmProblem

_CONV_TYPES = {"conv": "f32", "convfp16": "f16", "convbfp16": "bf16", "convint8": "i8"}
_GEMM_TYPES = ("f32", "f16", "bf16", "i8", "i32")
_CONV_FLAGS = ("-F", "-f", "-I", "-O", "-n", "-c", "-H", "-W", "-k", "-y", "-x", "-p", "-q", "-u", "-v",
               "-l", "-j", "-g")
_GEMM_FLAGS = ("-t", "-out_datatype", "-transA", "-transB", "-g", "-m", "-n", "-k")
_FILTER = {"N": "k", "C": "c", "H": "0", "W": "1", "G": "g", "0": "0", "1": "1"}
_INPUT = {"N": "ni", "C": "ci", "H": "0i", "W": "1i", "G": "gi", "0": "0i", "1": "1i"}
_OUTPUT = {"N": "no", "C": "ko", "H": "0o", "W": "1o", "G": "go", "0": "0o", "1": "1o"}
_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class ProblemLine:
    """One problem of a list, with where it was written.

    Example: line 2 of tier1-conv-configs is a 1x1 f32 conv over 64 channels of 56x56 images.
    """

    line: int
    """1-based line number in the file."""
    text: str
    """The line as written, without surrounding spaces."""
    problem: GemmProblem | ConvProblem
    perf_priority: int | None = None
    """``-perf_priority``: the problem's weight in its model's run time, when given."""
    perf_config: AccelPerfConfig | GeneralPerfConfig | None = None
    """A gemm line's ``-perf_config``, when given (read as MFMA)."""


class _Line:
    """The tokens of one line with their offsets in the whole text, for errors."""

    def __init__(self, source: str, start: int, text: str) -> None:
        self.source = source
        self.tokens = [(m.group(), start + m.start()) for m in _TOKEN.finditer(text)]
        self.end = start + len(text)

    def fail(self, index: int, message: str) -> ConfigParseError:
        token, offset = self.tokens[index] if index < len(self.tokens) else ("", self.end)
        return ConfigParseError(message, self.source, offset, token)


def _flag_values(line: _Line, first: int, flags: tuple[str, ...], extra: tuple[str, ...],
                 kind: str) -> tuple[dict[str, tuple[str, int]], int | None]:
    """Each flag's value and the index of its value token; ``-perf_priority`` apart."""
    values: dict[str, tuple[str, int]] = {}
    priority: int | None = None
    i = first
    while i < len(line.tokens):
        flag = line.tokens[i][0]
        if flag != "-perf_priority" and flag not in flags and flag not in extra:
            raise line.fail(i, f"{kind} line: unknown flag {flag!r}, expected one of {', '.join(flags)}")
        if i + 1 >= len(line.tokens):
            raise line.fail(i + 1, f"{kind} line: expected a value after {flag}")
        value = line.tokens[i + 1][0]
        if flag in values or flag == "-perf_priority" and priority is not None:
            raise line.fail(i, f"{kind} line: {flag} is given twice")
        if flag == "-perf_priority":
            priority = _int(line, i + 1, flag, kind, zero=True)
        else:
            values[flag] = (value, i + 1)
        i += 2
    missing = [f for f in flags if f not in values]
    if missing:
        raise line.fail(len(line.tokens), f"{kind} line: missing {', '.join(missing)}")
    return values, priority


def _int(line: _Line, index: int, flag: str, kind: str, *, zero: bool = False) -> int:
    token = line.tokens[index][0]
    if not re.fullmatch(r"[0-9]+", token) or int(token) == 0 and not zero:
        raise line.fail(index, f"{kind} line: {flag} {token!r}, expected a "
                               f"{'non-negative' if zero else 'positive'} integer")
    return int(token)


def _layout(line: _Line, index: int, names: dict[str, str], flag: str) -> tuple[str, ...]:
    token = line.tokens[index][0]
    letters = token
    if len(token) == 4 and "G" not in token:  # rocmlir-gen's correctConvParameters adds the group dim
        at = 0 if flag == "-f" else token.find("N") + 1
        letters = token[:at] + "G" + token[at:]
    dims = [names.get(letter) for letter in letters]
    if None in dims or len(set(dims)) != 5 or len(dims) != 5:
        raise line.fail(index, f"conv line: {flag} {token!r}, expected five distinct letters of "
                               f"{''.join(n for n in names if not n.isdigit())} or 0 and 1 (e.g. NGC01), "
                               f"or four without G")
    return tuple(d for d in dims if d is not None)


def _conv(line: _Line) -> tuple[ConvProblem, int | None]:
    word = line.tokens[0][0]
    if word not in _CONV_TYPES:
        raise line.fail(0, f"conv line: data type {word!r}, expected one of {', '.join(_CONV_TYPES)}")
    values, priority = _flag_values(line, 1, _CONV_FLAGS, ("-m", "-t"), "conv")
    direction, at = values["-F"]
    if direction != "1":
        raise line.fail(at, f"conv line: -F {direction}: only forward convolution (-F 1) is modelled")
    if "-m" in values and values["-m"][0] != "conv":
        raise line.fail(values["-m"][1], f"conv line: -m {values['-m'][0]!r}, expected conv")
    size = {f: _int(line, values[f][1], f, "conv", zero=f in ("-p", "-q"))
            for f in _CONV_FLAGS if f not in ("-F", "-f", "-I", "-O")}
    groups = size["-g"]
    for flag in ("-c", "-k"):
        if size[flag] % groups:
            raise line.fail(values[flag][1],
                            f"conv line: {flag} {size[flag]} is not a multiple of -g {groups}")
    layouts = (_layout(line, values["-f"][1], _FILTER, "-f"), _layout(line, values["-I"][1], _INPUT, "-I"),
               _layout(line, values["-O"][1], _OUTPUT, "-O"))
    try:
        problem = ConvProblem(
            n=size["-n"], c=size["-c"] // groups, hi=size["-H"], wi=size["-W"], k=size["-k"] // groups,
            y=size["-y"], x=size["-x"], dtype=_CONV_TYPES[word], g=groups,
            padding=(size["-p"], size["-p"], size["-q"], size["-q"]), stride=(size["-u"], size["-v"]),
            dilation=(size["-l"], size["-j"]), filter_layout=layouts[0], input_layout=layouts[1],
            output_layout=layouts[2])
    except InvalidArgumentError as e:
        raise line.fail(0, f"conv line: {e}") from None
    return problem, priority


def _gemm(line: _Line) -> tuple[GemmProblem, int | None, AccelPerfConfig | GeneralPerfConfig | None]:
    values, priority = _flag_values(line, 0, _GEMM_FLAGS, ("-perf_config",), "gemm")
    for flag in ("-t", "-out_datatype"):
        token, at = values[flag]
        if token not in _GEMM_TYPES or flag == "-t" and token == "i32":
            raise line.fail(at, f"gemm line: {flag} {token!r}, expected one of "
                                f"{', '.join(t for t in _GEMM_TYPES if flag != '-t' or t != 'i32')}")
    flips: dict[str, bool] = {}
    for flag in ("-transA", "-transB"):
        token, at = values[flag]
        if token.lower() not in ("true", "false", "1", "0"):
            raise line.fail(at, f"gemm line: {flag} {token!r}, expected true or false")
        flips[flag] = token.lower() in ("true", "1")
    config = None
    if "-perf_config" in values:
        token, at = values["-perf_config"]
        config = parse_perf_config(token, False, line.source, line.tokens[at][1])
    problem = GemmProblem(
        m=_int(line, values["-m"][1], "-m", "gemm"), n=_int(line, values["-n"][1], "-n", "gemm"),
        k=_int(line, values["-k"][1], "-k", "gemm"), dtype=values["-t"][0],
        g=_int(line, values["-g"][1], "-g", "gemm"), transpose_a=flips["-transA"],
        transpose_b=flips["-transB"], out_dtype=values["-out_datatype"][0])
    return problem, priority, config


def parse_problem_list(text: str) -> tuple[ProblemLine, ...]:
    """The problems of a tier1-style list (the file's text), in file order; conv and gemm lines
    may mix.

    Example: ``parse_problem_list("-t f16 -out_datatype f16 -transA false -transB false -g 1 -m 64
    -n 32 -k 16")[0].problem == GemmProblem(m=64, n=32, k=16, dtype="f16", out_dtype="f16")``.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"a problem list is text, got {type(text).__name__}")
    found: list[ProblemLine] = []
    start = 0
    for number, raw in enumerate(text.splitlines(keepends=True), 1):
        body = raw.rstrip("\r\n")
        stripped = body.strip()
        if stripped and not stripped.startswith("#"):
            line = _Line(text, start, body)
            config = None
            if line.tokens[0][0].startswith("-"):
                problem, priority, config = _gemm(line)
            else:
                problem, priority = _conv(line)
            found.append(ProblemLine(number, stripped, problem, priority, config))
        start += len(raw)
    return tuple(found)
