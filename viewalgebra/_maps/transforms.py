"""The nine rocMLIR transform types as small frozen values.

Each carries exactly the fields of rocMLIR's ``#rock.transform``: ``params``, ``upper_names``,
``upper_dims``, ``lower_names``, ``lower_dims``. Construction enforces the rules of rocMLIR's
``TransformAttr::verify`` with its messages; the checks rocMLIR lacks live in ``transform_map.py``
because most of them need the enclosing map.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from .._common.ints import integers
from ..errors import InvalidTransformError


def _ints(values: Sequence[int], what: str) -> tuple[int, ...]:
    return integers(values, what, InvalidTransformError)


def _names(values: Sequence[str], what: str) -> tuple[str, ...]:
    if isinstance(values, str) or not all(isinstance(v, str) for v in values):
        raise InvalidTransformError(f"{what} must be a sequence of strings, got {values!r}")
    return tuple(values)


@dataclass(frozen=True, slots=True)
class Transform:
    """One ``#rock.transform``: maps some upper (view-side) dims to some lower dims.

    Use one of the nine subclasses; ``Transform`` itself is abstract.
    """

    params: tuple[int, ...]
    """Type-specific integers (may be empty)."""
    upper_names: tuple[str, ...]
    """Names of the upper dims consumed."""
    upper_dims: tuple[int, ...]
    """Indices of those dims in the map's upper space."""
    lower_names: tuple[str, ...]
    """Names of the lower dims produced."""
    lower_dims: tuple[int, ...]
    """Indices of those dims in the map's lower space."""

    kind: ClassVar[str] = ""
    """rocMLIR's name of the transform type."""

    def __post_init__(self) -> None:
        if not issubclass(type(self), _NINE):
            raise InvalidTransformError(
                f"{type(self).__name__} is not a rock transform: use PassThrough, Pad, Merge, ...")
        object.__setattr__(self, "params", _ints(self.params, f"{self.kind} params"))
        object.__setattr__(self, "upper_dims", _ints(self.upper_dims, f"{self.kind} upper dims"))
        object.__setattr__(self, "lower_dims", _ints(self.lower_dims, f"{self.kind} lower dims"))
        object.__setattr__(self, "upper_names", _names(self.upper_names, f"{self.kind} upper names"))
        object.__setattr__(self, "lower_names", _names(self.lower_names, f"{self.kind} lower names"))
        for names, dims in ((self.upper_names, self.upper_dims), (self.lower_names, self.lower_dims)):
            if len(names) != len(dims):
                raise InvalidTransformError(f"Have {len(names)} names for {len(dims)} dimensions")
        if self.kind != "AddDim" and not self.lower_dims:
            raise InvalidTransformError("The transformation must define outputs")
        if self.kind != "ConstDim" and not self.upper_dims:
            raise InvalidTransformError("The transformation must have at least one input")
        self._verify()

    def _verify(self) -> None:
        """The per-type rules of rocMLIR's verifier."""


@dataclass(frozen=True, slots=True)
class PassThrough(Transform):
    """Copy upper dims to lower dims one to one (also a transpose): ``l[L_i] = u[U_i]``.

    Example: ``<PassThrough ["a", "b"] at [0, 1] -> ["a", "b"] at [1, 0]>``.
    """

    kind: ClassVar[str] = "PassThrough"

    def _verify(self) -> None:
        if len(self.upper_dims) != len(self.lower_dims):
            raise InvalidTransformError("PassThrough must have the same number of inputs and outputs")
        if self.params:
            raise InvalidTransformError("PassThrough has no parameters")


@dataclass(frozen=True, slots=True)
class Pad(Transform):
    """Pad each dim by ``left_i`` and ``right_i``: ``l[L_i] = u[U_i] - left_i``; padding is invalid.

    Params ``{left_1, right_1, ..., left_n, right_n}``.
    Example: ``<Pad{3, 3, 0, 2} ["0ipad", "1ipad"] at [3, 4] -> ["0i", "1i"] at [3, 4]>``.
    """

    kind: ClassVar[str] = "Pad"

    @property
    def amounts(self) -> tuple[tuple[int, int], ...]:
        """The ``(left, right)`` pair of each dim."""
        return tuple(zip(self.params[0::2], self.params[1::2], strict=False))


@dataclass(frozen=True, slots=True)
class Slice(Transform):
    """Take ``[begin_i, end_i)`` of each dim: ``l[L_i] = u[U_i] + begin_i``.

    Params ``{begin_1, end_1, ...}``. Example: ``<Slice{2, 10} ["x"] at [0] -> ["x"] at [0]>``.
    """

    kind: ClassVar[str] = "Slice"

    @property
    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The ``(begin, end)`` pair of each dim."""
        return tuple(zip(self.params[0::2], self.params[1::2], strict=False))


@dataclass(frozen=True, slots=True)
class Embed(Transform):
    """Combine upper dims linearly into one lower dim: ``l = sum_i c_i * u[U_i]``.

    The lower coordinate must lie inside its bound (a validity check, like Pad's).
    Example: ``<Embed{1, 1} ["0", "0o"] at [3, 4] -> ["0ipad"] at [3]>``.
    """

    kind: ClassVar[str] = "Embed"

    def _verify(self) -> None:
        _verify_embed_unmerge(self)


@dataclass(frozen=True, slots=True)
class Unmerge(Transform):
    """Combine upper dims of the given sizes into one lower dim, row-major (mixed radix).

    ``l = sum_i u[U_i] * prod_{j>i} s_j``; ``s_1`` is not used by the expression.
    Example: ``<Unmerge{2, 3, 4} ["a", "b", "c"] at [0, 1, 2] -> ["a"] at [0]>``.
    """

    kind: ClassVar[str] = "Unmerge"

    def _verify(self) -> None:
        _verify_embed_unmerge(self)


def _verify_embed_unmerge(t: Transform) -> None:
    if len(t.lower_dims) != 1:
        raise InvalidTransformError("Embed and unmerge can only have one output argument")
    if len(t.params) != len(t.upper_dims):
        raise InvalidTransformError("Embed and unmerge must specify one coefficient per input dimension")


@dataclass(frozen=True, slots=True)
class Merge(Transform):
    """Split one upper dim into lower dims of the given sizes (mixed radix).

    Example: ``<Merge{4, 8} ["1"] at [0] -> ["a", "b"] at [0, 2]>`` gives
    ``(d0 floordiv 8, d0 mod 8)``.
    """

    kind: ClassVar[str] = "Merge"

    def _verify(self) -> None:
        if len(self.upper_dims) != 1:
            raise InvalidTransformError("Merge and unfold can only have one input dimension")
        if len(self.params) != len(self.lower_dims):
            raise InvalidTransformError(
                "Merge and unfold have one parameter per output dimension (its size)")


@dataclass(frozen=True, slots=True)
class AddDim(Transform):
    """Add one upper dim of the given size that no lower coordinate depends on.

    Example: ``<AddDim{2} ["b"] at [1] -> [] at []>``.
    """

    kind: ClassVar[str] = "AddDim"

    def _verify(self) -> None:
        if len(self.upper_dims) != 1:
            raise InvalidTransformError("Can only add one dimension at a time")
        if len(self.params) != len(self.upper_dims):
            raise InvalidTransformError("Must supply a size parameter for each dimension")
        if self.lower_dims:
            raise InvalidTransformError("The added dimension cannot be mapped anywhere")


@dataclass(frozen=True, slots=True)
class Broadcast(Transform):
    """Broadcast lower dims of sizes ``p_i`` to upper dims: ``l[L_i] = u[U_i] mod p_i``.

    Example: ``<Broadcast{1} ["a"] at [0] -> ["a"] at [0]>``.
    """

    kind: ClassVar[str] = "Broadcast"

    def _verify(self) -> None:
        if len(self.upper_dims) != len(self.lower_dims):
            raise InvalidTransformError("Broadcast must have same rank")
        if len(self.params) != len(self.lower_dims):
            raise InvalidTransformError(
                "Broadcast must specify the output length for each dimension")


@dataclass(frozen=True, slots=True)
class ConstDim(Transform):
    """Set lower dims of length ``len_i`` to the constants ``v_i``; takes no upper dims.

    Params ``{v_1, len_1, ...}``. Example: ``<ConstDim{0, 1} [] at [] -> ["b"] at [1]>``.
    """

    kind: ClassVar[str] = "ConstDim"

    def _verify(self) -> None:
        if self.upper_dims:
            raise InvalidTransformError("ConstDim must not take any inputs")
        if len(self.params) != 2 * len(self.lower_dims):
            raise InvalidTransformError("ConstDim is parameterized by [value, length] pairs")
        for i, (value, length) in enumerate(self.values):
            if value >= length:
                raise InvalidTransformError(
                    f"For constant dimension {self.lower_dims[i]} constant value {value} "
                    f"must be less than dimension length {length}")

    @property
    def values(self) -> tuple[tuple[int, int], ...]:
        """The ``(value, length)`` pair of each lower dim."""
        return tuple(zip(self.params[0::2], self.params[1::2], strict=True))


AnyTransform: TypeAlias = PassThrough | Pad | Slice | Embed | Unmerge | Merge | AddDim | Broadcast | ConstDim
"""Any of the nine transform types: a match over them ends in ``assert_never``, so that a tenth
type cannot be forgotten (construction admits nothing else)."""

_NINE = (PassThrough, Pad, Slice, Embed, Unmerge, Merge, AddDim, Broadcast, ConstDim)

TRANSFORM_TYPES: dict[str, type[AnyTransform]] = {t.kind: t for t in _NINE}
"""The nine transform types by rocMLIR name."""
