"""The audit's default provider: the per-thread accesses rocMLIR's gridwise lowering makes for a
(problem, config), built by the recipes (docs/gridwise.md), with every thread layout rocMLIR
could have chosen beside each and the exact checks that the threads cover their tiles
(docs/audit.md, The default provider).

For A and B: the global load (alternatives: every ``thread_layouts`` entry) and the LDS store
(the same layouts, each with the LDS flags ``lds_layout`` gives it); on accelerated configs also
the LDS read and the C store (alternatives: the four ``c_store_alternatives``). Direct-to-LDS
schedules (3 and 4) are refused: their copy layout is not ported.
"""

from __future__ import annotations

import numpy as np

from .._maps.buffer import Buffer
from .._maps.view import View, addresses_of
from .._recipes.access import ThreadAccess
from .._recipes.arch import Arch
from .._recipes.builder import TopDownMapBuilder
from .._recipes.lds_read import lds_read
from .._recipes.lds_views import lds_store
from .._recipes.output_views import c_store, c_store_alternatives
from .._recipes.perf_config import AccelPerfConfig, GeneralPerfConfig, Operand
from .._recipes.problems import ConvProblem, GemmProblem
from .._recipes.thread_views import global_load, thread_layouts
from ..errors import InvalidArgumentError
from .access import AuditCheck, AuditItem
from .memo import config_views

OPERANDS: tuple[Operand, Operand] = ("a", "b")


def rocmlir_accesses(problem: GemmProblem | ConvProblem, config: AccelPerfConfig | GeneralPerfConfig,
                     arch: Arch) -> list[AuditItem]:
    """The accesses of ``problem`` under ``config`` on ``arch``, as rocMLIR's recipes build them.

    Example: ``audit_config(GemmProblem(m=64, n=64, k=64, dtype="f16"), config, gw.arch("gfx942"),
    rocmlir_accesses)`` audits the seven accesses of a 64x64x64 gemm.
    """
    if not isinstance(config, AccelPerfConfig | GeneralPerfConfig):
        raise InvalidArgumentError(f"rocmlir_accesses: expected a perf config, got {config!r}")
    if config.schedule_version in (3, 4):
        raise InvalidArgumentError(f"{config}: schedule {config.schedule_version} loads straight into LDS, "
                                   "whose copy layout (computeCopyPerThreadDirectToLDS) is not modelled")
    grid = config_views(problem, config)
    dtype = problem.dtype
    items: list[AuditItem] = []
    for operand in OPERANDS:
        layouts = thread_layouts(config, arch, dtype, operand)
        load = global_load(grid, operand, config, arch, dtype)
        base = grid.a if operand == "a" else grid.b
        d_block = "m_block" if operand == "a" else "n_block"
        blocks = ("k_loop", d_block)
        d_per_block = config.m_per_block if operand == "a" else config.n_per_block
        tile = (config.k_per_block, d_per_block)
        items.append(AuditItem(
            load, tuple(global_load(grid, operand, config, arch, dtype, layout=t, k_contiguous=k)
                        for t, k in layouts),
            (AuditCheck(f"{operand}_load_covers_block_once",
                        lambda a=load, b=base, n=blocks, t=tile: covers_block_once(a, b, n, t)),)))
        store = lds_store(grid, operand, config, arch, dtype)
        items.append(AuditItem(
            store, tuple(lds_store(grid, operand, config, arch, dtype, layout=t, k_contiguous=k)
                         for t, k in layouts),
            (AuditCheck(f"{operand}_lds_store_writes_tile_once", lambda s=store: writes_once(s)),)))
    if isinstance(config, AccelPerfConfig):
        for operand in OPERANDS:
            read = lds_read(grid, operand, config, arch, dtype)
            check = AuditCheck(f"{operand}_lds_read_reads_tile", lambda r=read: reads_all(r))
            items.append(AuditItem(element_steps(read), (), (check,)))
        store = c_store(grid, config, arch, dtype)
        others = tuple(c_store_alternatives(grid, config, arch, dtype).values())
        items.append(AuditItem(store, others, (AuditCheck(
            "c_store_writes_block_once",
            lambda s=store: covers_block_once(s, grid.c, ("m_block", "n_block"),
                                              (config.m_per_block, config.n_per_block))),)))
    return items


def element_steps(access: ThreadAccess) -> ThreadAccess:
    """``access`` with ``iter`` counting elements rather than vectors (``ThreadAccess``'s form for
    a buffer of vectors): step ``j * N + lane`` is lane ``lane`` of vector step ``j``."""
    n, d, names = access.vector_elements, access.dim, access.names
    if n == 1:
        return access
    shape = access.view.shape
    lane = "lane"
    while lane in names:
        lane += "_"
    top = TopDownMapBuilder(list(names), [*shape[:d], shape[d] * n, *shape[d + 1:]])
    top.pass_through([x for i, x in enumerate(names) if i != d])
    top.merge([access.iter_dim, lane], [d, len(names)], access.iter_dim, [shape[d], n])
    first = top.get()
    below = TopDownMapBuilder.below(top, first)
    below.pass_through(list(names))
    below.ignore(lane)
    view = View(access.view.buffer, (first, below.get(), *access.view.maps), strict=access.view.strict)
    return ThreadAccess(access.operand, access.kind, view, access.iter_dim, access.values * n, access.dtype,
                        n, access.vector_addresses)


def _thread_part(access: ThreadAccess, base: View) -> View:
    """The access's own maps over a plain buffer of the shape of ``base`` (the gridwise operand it
    reads or writes through ``base``'s maps)."""
    count = len(access.view.maps) - len(base.maps)
    if count < 1 or access.view.maps[count:] != base.maps:
        raise InvalidArgumentError(f"{access.name}: its view does not end in the gridwise operand's maps")
    return View(Buffer(base.shape, base.buffer.dtype), access.view.maps[:count])


def covers_block_once(access: ThreadAccess, base: View, blocks: tuple[str, str],
                      tile: tuple[int, int]) -> str | None:
    """Whether the threads of the first and of the last block (every ``tid`` and ``iter`` step)
    reach each element of that block's ``tile`` of the gridwise operand exactly once, by
    enumeration; ``None`` when they do, else a witness."""
    view = _thread_part(access, base)
    names = access.names
    _, rows, cols = base.shape
    for corner in ("first", "last"):
        fixed = {name: 0 if corner == "first" else view.shape[i] - 1 for i, name in enumerate(names)
                 if name not in ("tid", access.iter_dim)}
        axes = [np.arange(view.shape[i]) if name not in fixed else np.array([fixed[name]])
                for i, name in enumerate(names)]
        points = np.stack([a.ravel() for a in np.meshgrid(*axes, indexing="ij")], axis=1)
        addr, valid = addresses_of(view, points)
        if not valid.all():
            return f"{access.name}: the {corner} block reaches a point outside the operand"
        row0, col0 = fixed[blocks[0]] * tile[0], fixed[blocks[1]] * tile[1]
        gi = fixed.get("g_block", 0)
        r, c = np.meshgrid(np.arange(row0, row0 + tile[0]), np.arange(col0, col0 + tile[1]), indexing="ij")
        want = np.sort((gi * rows * cols + r * cols + c).ravel())
        got = np.sort(addr)
        if got.shape != want.shape or not np.array_equal(got, want):
            missing = np.setdiff1d(want, got)
            seen, counts = np.unique(got, return_counts=True)
            twice = seen[counts > 1]
            if len(twice):
                times = int(counts[counts > 1][0])
                what = f"element {_coords(int(twice[0]), rows, cols)} is reached {times} times"
            elif len(missing):
                what = f"element {_coords(int(missing[0]), rows, cols)} is never reached"
            else:
                what = "it reaches elements outside the block tile"
            return f"{access.name}, {corner} block: {what}"
    return None


def _coords(address: int, rows: int, cols: int) -> tuple[int, int, int]:
    return address // (rows * cols), address // cols % rows, address % cols


def writes_once(access: ThreadAccess) -> str | None:
    """Whether the LDS store writes every element of its tile exactly once (by enumeration)."""
    addr, valid = access.view.addresses()
    size = int(np.prod(access.view.buffer.shape))
    counts = np.bincount(addr[valid].ravel(), minlength=size)
    if not valid.all():
        return f"{access.name}: some (tid, iter) writes outside the tile"
    if counts.max() > 1:
        return f"{access.name}: element {int(np.argmax(counts))} is written {int(counts.max())} times"
    if counts.min() == 0:
        return f"{access.name}: element {int(np.argmin(counts))} is never written"
    return None


def reads_all(access: ThreadAccess) -> str | None:
    """Whether the LDS read reads every vector of its tile (by enumeration; waves share rows)."""
    addr, valid = access.view.addresses()
    if not valid.all():
        return f"{access.name}: some (tid, iter) reads outside the tile"
    counts = np.bincount(addr.ravel(), minlength=int(np.prod(access.view.buffer.shape)))
    if counts.min() == 0:
        return f"{access.name}: vector {int(np.argmin(counts))} of the tile is never read"
    return None
