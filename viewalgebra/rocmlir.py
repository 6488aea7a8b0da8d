"""rocMLIR's own rules, ported to compare against: ``invertTransforms``, the vectorization
inference and its data-type cap, the 64-bit index decision, the collapse of contiguous merges,
lower sub-dimensions and the removal of upper dims, the validity checks, the width of a per-thread
load or store, and rocMLIR's bank-conflict widget beside the exact count (docs/invert.md,
docs/vectorize.md, docs/index-range.md, docs/simplify.md, docs/sub-dimensions.md,
docs/validity.md, docs/audit.md, docs/lds.md)."""

from ._analyses.vectorize import elements_per_access
from ._audit.lds_widget import WidgetComparison, compare_widget
from ._rocmlir.bank_widget import WidgetAnswer, WidgetConfig, widget_bank_conflicts, widget_offsets
from ._rocmlir.collapse import (
    CollapseComparison,
    CollapsedMerge,
    MergeCollapse,
    compare_collapse,
    rocmlir_collapse_merges,
    unchecked_addresses,
)
from ._rocmlir.index_width import IndexWidthComparison, compare_index_width, rocmlir_needs_64bit
from ._rocmlir.inversion import RocmlirInversion, rocmlir_invert
from ._rocmlir.remove_upper_dims import (
    RemoveUpperDimsComparison,
    RocmlirRemoved,
    compare_remove_upper_dims,
    rocmlir_remove_upper_dims,
)
from ._rocmlir.sub_dimensions import (
    RocmlirSubDimensions,
    SubDimensionsComparison,
    compare_sub_dimensions,
    rocmlir_lower_sub_dimensions,
)
from ._rocmlir.threadwise_width import rocmlir_threadwise_width
from ._rocmlir.validity import (
    NeedlessCheck,
    UncheckedAccess,
    ValidityComparison,
    compare_validity,
    rocmlir_embed_can_be_invalid,
    rocmlir_impacting_view_dims,
    rocmlir_map_impacts_validity,
    rocmlir_validity_checks,
    rocmlir_validity_impacting_upper_dims,
    rocmlir_view_checks,
)
from ._rocmlir.vectorization import Comparison, compare_vector_lengths, rocmlir_vector_length

__all__ = ["CollapseComparison", "CollapsedMerge", "Comparison", "IndexWidthComparison", "MergeCollapse",
           "NeedlessCheck", "RemoveUpperDimsComparison", "RocmlirInversion", "RocmlirRemoved",
           "RocmlirSubDimensions", "SubDimensionsComparison", "UncheckedAccess", "ValidityComparison",
           "WidgetAnswer", "WidgetComparison", "WidgetConfig",
           "compare_collapse", "compare_index_width", "compare_remove_upper_dims", "compare_sub_dimensions",
           "compare_validity", "compare_vector_lengths", "compare_widget", "elements_per_access",
           "rocmlir_collapse_merges",
           "rocmlir_embed_can_be_invalid", "rocmlir_impacting_view_dims", "rocmlir_invert",
           "rocmlir_lower_sub_dimensions", "rocmlir_map_impacts_validity", "rocmlir_needs_64bit",
           "rocmlir_remove_upper_dims", "rocmlir_threadwise_width", "rocmlir_validity_checks",
           "rocmlir_validity_impacting_upper_dims",
           "rocmlir_vector_length", "rocmlir_view_checks", "unchecked_addresses", "widget_bank_conflicts",
           "widget_offsets"]
