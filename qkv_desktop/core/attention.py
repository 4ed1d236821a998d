"""Scaled dot-product attention with everything a learner wants to look at."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from qkv_desktop.core import buffers, projection_memo
from qkv_desktop.core.masks import EmptyRowError, MaskSpec, alibi_rows
from qkv_desktop.core.positions import ROPE_PAIRINGS, rope, sinusoidal_positions
from qkv_desktop.core.rows import blas_threads, for_row_chunks, one_blas_thread
from qkv_desktop.core.softmax import row_entropy
from qkv_desktop.core.validation import as_matrix
from qkv_desktop.core.weights import Weights

__all__ = ["AttentionResult", "attention", "divisor_for", "POSITION_KINDS", "RowsDone"]

POSITION_KINDS = (None, "sinusoidal", "rope")
"""How ``attention`` tells the scores where each token sits: not at all, by adding the
sinusoidal table to X, or by rotating Q and K (RoPE)."""

Scale = str | float

RowsDone = Callable[[int, int, dict[str, np.ndarray]], None]
"""``on_rows(r0, r1, matrices)``: rows ``r0:r1`` of the n × m ``matrices`` (``"scores"``,
``"scaled"``, ``"weights"``: the result's arrays, still being filled) are final. Called
in the row thread that finished them, while they are in its cache, once per range;
ranges come in any order and from several threads at once."""


@dataclass(frozen=True, eq=False)
class AttentionResult:
    """Every intermediate of one attention forward, plus per-query diagnostics.

    ``scores`` is QKᵀ; ``scaled`` is the scores after the divisor, the temperature and
    the causal mask (``-inf`` where masked); ``weights`` is its row-wise softmax and
    ``output`` is ``weights · V``. ``entropy`` (nats), ``max_weight`` and
    ``mean_gradient`` (the mean of p(1−p), the tutorial's 平均梯度) have one value per
    query row. With ``positions="rope"``, ``Q_rope`` and ``K_rope`` are Q and K after the
    rotation, and the scores are ``Q_rope · K_ropeᵀ``; otherwise they are None. With
    ``positions="sinusoidal"``, ``X_pos`` (and ``X_kv_pos`` in cross-attention) are the
    token vectors plus the position table, the inputs the projections saw.

    ``mask_spec`` holds the mask rules and ``alibi_slope`` the ALiBi slope; ``allowed``,
    ``mask_reasons`` and ``bias`` are the n × m arrays they make, built on first use
    (the forward itself works on blocks of rows and keeps none of them).
    """

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    scores: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    entropy: np.ndarray
    max_weight: np.ndarray
    mean_gradient: np.ndarray
    divisor: float = 1.0
    Q_rope: np.ndarray | None = None
    K_rope: np.ndarray | None = None
    X_pos: np.ndarray | None = None
    X_kv_pos: np.ndarray | None = None
    mask_spec: MaskSpec | None = None
    alibi_slope: float | None = None

    @property
    def n_queries(self) -> int:
        return self.Q.shape[0]

    @property
    def n_keys(self) -> int:
        return self.K.shape[0]

    def matrices(self) -> dict[str, np.ndarray]:
        """The named matrices, in the order the panes show them (``Q_rope`` and
        ``K_rope`` only when RoPE applied)."""
        names = ("Q", "K", "V", "scores", "scaled", "weights", "output")
        if self.Q_rope is not None:
            names = ("Q", "K", "Q_rope", "K_rope", *names[2:])
        return {name: getattr(self, name) for name in names}

    @cached_property
    def allowed(self) -> np.ndarray:
        """n × m booleans: True where the query may attend to the key."""
        spec = self.mask_spec or MaskSpec()
        return spec.allowed(self.n_queries, self.n_keys)

    @cached_property
    def mask_reasons(self) -> np.ndarray:
        """n × m codes of ``core.masks.REASONS``: why each cell is allowed or masked."""
        spec = self.mask_spec or MaskSpec()
        return spec.reasons(self.n_queries, self.n_keys)

    @cached_property
    def bias(self) -> np.ndarray | None:
        """The n × m ALiBi bias added to the scaled scores, or None without ALiBi."""
        if self.alibi_slope is None:
            return None
        return alibi_rows(0, self.n_queries, self.n_keys, self.alibi_slope, self.scores.dtype)


def divisor_for(scale: Scale, d_k: int) -> float:
    """The number the scores are divided by for a ``scale`` option (before temperature)."""
    if isinstance(scale, str):
        if scale == "sqrt_dk":
            return float(np.sqrt(d_k))
        if scale == "none":
            return 1.0
        raise ValueError(f"scale must be 'sqrt_dk', 'none' or a positive number, got {scale!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.number)):
        raise ValueError(f"scale must be 'sqrt_dk', 'none' or a positive number, got {scale!r}")
    if not (np.isfinite(scale) and scale > 0):
        raise ValueError(f"a custom scale divisor must be a positive finite number, got {scale}")
    return float(scale)


def attention(X, weights: Weights, *, scale: Scale = "sqrt_dk", temperature: float = 1.0,
              causal: bool = False, X_kv=None, stable: bool = True, positions: str | None = None,
              rope_base: float = 10000.0, rope_pairing: str = "half", window: int | None = None,
              alibi_slope: float | None = None, prefix: int | None = None, sinks: int = 0,
              mask=None, on_rows: RowsDone | None = None) -> AttentionResult:
    """Scaled dot-product attention ``softmax(QKᵀ / (divisor·T) + bias) · V``.

    Parameters
    ----------
    X : array (n, d_model)
        The query-side token vectors (and the key/value side for self-attention).
    weights : Weights
        The head's projections.
    scale : {"sqrt_dk", "none"} or float
        Divide the scores by √d_k, by 1, or by this positive number.
    temperature : float
        T > 0, a further divisor: larger is flatter.
    causal : bool
        Mask every key after the query (j > i): ``-inf`` in ``scaled``, exactly 0 in
        ``weights``. Not defined for cross-attention.
    X_kv : array (m, d_model), optional
        Cross-attention: K and V come from this sequence instead of ``X``.
    stable : bool
        Subtract the row maximum before ``exp``. ``False`` is the naive formula of the
        overflow lesson; it may give inf/nan but never raises.
    positions : {None, "sinusoidal", "rope"}
        ``"sinusoidal"`` adds ``sinusoidal_positions`` (positions 0, 1, …) to X (and to
        X_kv) before the projections. ``"rope"`` rotates Q and K by their tokens'
        positions after them (``rope`` with ``rope_base`` and ``rope_pairing``); the
        result then also carries ``Q_rope`` and ``K_rope``.
    window : int, optional
        Sliding window of w keys: with ``causal`` (or ``prefix``) query i sees keys
        i − w < j ≤ i, without it the keys with |i − j| < w.
    alibi_slope : float, optional
        ALiBi: add −m·|i − j| to the scaled scores (−m·(i − j) for the keys j ≤ i that a
        causal query sees). m ≥ 0.
    prefix : int, optional
        Prefix-LM: the first p positions see each other in both directions, the rest
        causally (so it implies the causal order). Not defined for cross-attention.
    sinks : int
        The first s keys stay visible to every query whatever the window.
    mask : boolean array (n, m), optional
        True = allowed; combined by AND with every rule above.
    on_rows : callable, optional
        ``RowsDone``: told each range of rows of the scores, scaled scores and weights
        as soon as they are final, in the thread that computed them (a caller that
        reduces them, e.g. to a picture, reads them while they are in that core's
        cache and beside the rest of the forward). It must not raise.

    A query row left with no allowed key raises ``EmptyRowError`` (a ``ValueError``)
    naming the row, instead of a row of NaN. float32 input stays float32 throughout;
    anything else is computed in float64.
    """
    X = as_matrix(X, "X")
    dtype = X.dtype
    if X_kv is not None:
        X_kv = as_matrix(X_kv, "X_kv", dtype)
        if causal:
            raise ValueError("causal masking is not defined for cross-attention")
    src = X if X_kv is None else X_kv
    w = weights.astype(dtype)
    for name, M in (("X", X), ("X_kv", src)):
        if M.shape[1] != w.d_model:
            raise ValueError(f"{name} has {M.shape[1]} columns but the weights expect "
                             f"d_model = {w.d_model}")
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature must be a positive finite number, got {temperature}")
    divisor = divisor_for(scale, w.d_k)
    if positions not in POSITION_KINDS:
        raise ValueError(f"positions must be None, 'sinusoidal' or 'rope', got {positions!r}")
    if positions == "rope" and rope_pairing not in ROPE_PAIRINGS:
        raise ValueError(f"rope_pairing must be 'half' or 'interleaved', got {rope_pairing!r}")
    if X_kv is not None and prefix is not None:
        raise ValueError("a prefix-LM mask is causal, which is not defined for cross-attention")
    if alibi_slope is not None:
        if isinstance(alibi_slope, bool) or not isinstance(alibi_slope, (int, float, np.number)) \
                or not (np.isfinite(alibi_slope) and alibi_slope >= 0):
            raise ValueError(f"the ALiBi slope must be a non-negative finite number, got "
                             f"{alibi_slope!r}")
        alibi_slope = float(alibi_slope)
    spec = MaskSpec(causal, window, prefix, sinks, mask)
    spec.check_shape(X.shape[0], src.shape[0])

    if blas_threads() > 1:  # NumPy's default, e.g. in a notebook: BLAS's threads multiply
        return _forward(X, X_kv, src, w, dtype, divisor, temperature, stable, positions,
                        rope_base, rope_pairing, spec, alibi_slope, on_rows, in_rows=False)
    with one_blas_thread():  # the app's setting: the row threads multiply
        return _forward(X, X_kv, src, w, dtype, divisor, temperature, stable, positions,
                        rope_base, rope_pairing, spec, alibi_slope, on_rows, in_rows=True)


def _forward(X, X_kv, src, w, dtype, divisor, temperature, stable, positions, rope_base,
             rope_pairing, spec, alibi_slope, on_rows, in_rows: bool) -> AttentionResult:
    """The forward proper. ``in_rows`` (BLAS on one thread, the app's setting): from
    ``_MIN_RANGED_CELLS`` the products run in the row threads, in fixed ranges
    (``_projections``, ``_fused_forward``), so the numbers are the same whatever the
    number of cores (another machine's BLAS kernels may round otherwise). Otherwise
    (BLAS on several threads, NumPy's default in a notebook) they are whole products
    on BLAS's own threads, and the softmax runs on the calling thread alone
    (``_fused_forward``).

    Why not the row ranges on one BLAS thread for a notebook too, which would give it
    the app's bits (OpenBLAS rounds thin products differently on two threads, by about
    1e-16 relative): measured on the quiet 2-core machine, NumPy's two BLAS threads,
    ``bench_core.py --sizes 1024,2048 --dtypes float64 --repeats 7``, two rounds, the
    forward took 20.2–23.6 ms against 14.9–17.2 ms with whole products at n = 1024, and
    53–65 against 46–49 ms at n = 2048, with or without ``--settle 0.15`` (README,
    "This run ... (night)"). Nothing differs at the printed precision.
    """
    X_pos = X_kv_pos = None
    if positions == "sinusoidal":
        X_pos = X + sinusoidal_positions(X.shape[0], X.shape[1]).astype(dtype)
        X_kv_pos = None if X_kv is None else (
            X_kv + sinusoidal_positions(X_kv.shape[0], X_kv.shape[1]).astype(dtype))
    q_in = X if X_pos is None else X_pos
    kv_in = src if positions != "sinusoidal" else (X_pos if X_kv is None else X_kv_pos)
    cells = X.shape[0] * src.shape[0]  # the forward's size: parallel products above a size
    if not in_rows:
        cells = None  # whole products, on BLAS's threads
    if kv_in is q_in:
        Q, K, V = _projections(q_in, cells, (w.W_Q, w.b_Q), (w.W_K, w.b_K), (w.W_V, w.b_V))
    else:
        (Q,) = _projections(q_in, cells, (w.W_Q, w.b_Q))
        K, V = _projections(kv_in, cells, (w.W_K, w.b_K), (w.W_V, w.b_V))
    Q_rope = K_rope = None
    q_side, k_side = Q, K
    if positions == "rope":
        Q_rope = rope(Q, np.arange(Q.shape[0]), base=rope_base, pairing=rope_pairing)
        K_rope = rope(K, np.arange(K.shape[0]), base=rope_base, pairing=rope_pairing)
        q_side, k_side = Q_rope, K_rope
    # Divide (as the tutorial does, bit for bit) by a scalar of the array's own dtype,
    # so float32 stays float32.
    div = dtype.type(divisor * temperature)
    rules = spec if spec.restricts else None
    if stable:
        scores, scaled, weights_, output, entropy, max_w, mean_grad = _fused_forward(
            q_side, k_side, V, div, rules, alibi_slope, in_rows, on_rows)
    else:
        scores = q_side @ k_side.T  # the overflow lesson's small sizes: a whole product
        n, m = scores.shape
        if rules is not None and (empty := rules.first_empty_row(n, m)) is not None:
            raise EmptyRowError(empty, m)
        scaled = np.divide(scores, div)
        if alibi_slope is not None:
            scaled += alibi_rows(0, n, m, alibi_slope, dtype)
        if rules is not None:
            np.copyto(scaled, -np.inf, where=rules.hidden_rows(0, n, m))
        weights_, entropy, max_w, mean_grad = _naive_softmax_with_stats(scaled)
        output = weights_ @ V
        if on_rows is not None:
            on_rows(0, n, {"scores": scores, "scaled": scaled, "weights": weights_})
    _refuse_overflow(dtype, q_side, k_side, V, div, alibi_slope, scores, scaled, rules)
    return AttentionResult(Q, K, V, scores, scaled, weights_, output,
                           entropy, max_w, mean_grad, divisor, Q_rope, K_rope, X_pos, X_kv_pos,
                           spec, alibi_slope)


class ScoreOverflowError(ValueError):
    """Finite inputs whose products go past the dtype's largest number.

    An overflowed score is ±inf: −inf reads as a masked cell, its weight 0, and the row's
    weights and output then are wrong numbers drawn as if right (X[i, j] = 1e200 made
    QKᵀ[i, i] −inf for a true +1.2e398, and the query attend to another key). Nothing
    is shown for such inputs; the message says why and what computes.

    ``what``: ``"Q"``, ``"K"`` or ``"V"`` (the projection itself overflowed) or
    ``"scores"``; ``dtype``: the dtype's name; ``largest``: its largest number. A caller
    that speaks another language says it from these."""

    def __init__(self, what: str, dtype, largest: float):
        self.what, self.dtype, self.largest = what, np.dtype(dtype).name, float(largest)
        if what == "scores":
            text = (f"the scores q·k overflow {self.dtype} (its largest number is "
                    f"{largest:.3g}): an overflowed score would read as a masked cell; "
                    f"smaller values of X or of the weights compute")
        else:
            text = (f"{what} = X·W_{what} overflows {self.dtype} (its largest number is "
                    f"{largest:.3g}); smaller values of X or of W_{what} compute")
        super().__init__(text)


def _refuse_overflow(dtype, q, k, v, div, alibi_slope, scores, scaled, rules) -> None:
    """Raise ``ScoreOverflowError`` where Q, K, V, the scores or the scaled scores left
    the dtype's range (not the naive softmax's ``exp``: that overflow is its lesson).

    Cheap for every forward: |q·k| ≤ d·max|q|·max|k|, so only when that bound (÷ the
    divisor, plus ALiBi's largest bias) passes the dtype's largest number are the
    n × m scores themselves looked at."""
    top = float(np.finfo(dtype).max)
    spans = []
    for name, a in (("Q", q), ("K", k), ("V", v)):
        if not a.size:
            return
        hi, lo = float(a.max()), float(a.min())
        if not (np.isfinite(hi) and np.isfinite(lo)):
            raise ScoreOverflowError(name, dtype, top)
        spans.append(max(hi, -lo))
    with np.errstate(over="ignore"):
        bound = q.shape[1] * spans[0] * spans[1] / abs(float(div))
    if alibi_slope is not None:
        bound += abs(float(alibi_slope)) * max(scores.shape)
    if bound < top:
        return
    allowed = True if rules is None else ~rules.hidden_rows(0, *scores.shape)
    if np.isfinite(scores).all() and np.isfinite(scaled[allowed]).all():
        return
    raise ScoreOverflowError("scores", dtype, top)


def _projections(X: np.ndarray, cells: int | None,
                 *heads: tuple[np.ndarray, np.ndarray | None]) -> list:
    """``X · W + b`` for each ``(W, b)``, as one matrix product with the W side by side.

    One product with 3·d_k columns keeps the BLAS kernel busier than three thin ones
    (at n = 2048, d_model = 768 about a third faster); each column of the result is
    the same dot product over X's row either way. For a forward of ``cells`` score
    cells large enough to share rows among threads, the product is computed in the
    same fixed row ranges as the rest of the forward (``_fused_forward``), with BLAS on
    one thread, and a range whose rows of X are the last such forward's is not multiplied
    again (``projection_memo``: an edit of one cell recomputes one range); the blocks
    are then copied out as contiguous arrays of their own (``_split``), since the memo
    writes its product again in the next forward.
    ``cells=None``: one whole product on BLAS's own threads, in a buffer of this
    forward's own, and the blocks are views of its columns (``_column_views``).
    """
    Ws = [W for W, _b in heads]
    W = Ws[0] if len(Ws) == 1 else np.concatenate(
        Ws, axis=1, out=buffers.empty((Ws[0].shape[0], sum(w.shape[1] for w in Ws)),
                                      np.result_type(*Ws)))
    if cells is None:
        return _column_views(np.matmul(X, W, out=buffers.empty((X.shape[0], W.shape[1]),
                                                               np.result_type(X, W))), heads)
    memo = projection_memo.entry_for(X, W) if cells >= _MIN_RANGED_CELLS else None
    try:
        if memo is None:
            product = buffers.empty((X.shape[0], W.shape[1]), np.result_type(X, W))

            def rows(r0: int, r1: int) -> None:
                np.matmul(X[r0:r1], W, out=product[r0:r1])
        else:  # an edit multiplies only the ranges whose rows changed
            product = memo.product

            def rows(r0: int, r1: int) -> None:
                memo.fill(X, W, r0, r1)

        for_row_chunks(rows, X.shape[0], cells, blas=True, range_rows=_RANGE_ROWS,
                       min_cells=_MIN_RANGED_CELLS)
        return _split(product, heads)
    finally:
        if memo is not None:
            memo.busy.release()


def _column_views(product: np.ndarray, heads) -> list:
    """The blocks of ``product``'s columns, one per head, plus its bias, as views.

    Each view's rows are ``product``'s rows (a stride of all the heads' columns),
    which BLAS takes as they are in the products that follow; copying them out
    (``_split``) was one more pass over n × 3·d_k numbers. Measured on the 2-core
    machine, n = 1024, d_model = 768, NumPy's two BLAS threads, the forward in turns
    with plain NumPy (40 turns, three rounds): 0.3 ms less, 11.6–12.8 against
    11.9–13.1 ms. The numbers are the same."""
    out, start = [], 0
    for W, b in heads:
        block = product[:, start:start + W.shape[1]]
        start += W.shape[1]
        if b is not None:
            block += b
        out.append(block)
    return out


def _split(product: np.ndarray, heads) -> list:
    """The blocks of ``product``'s columns, one per head, plus its bias, each a
    contiguous array.

    Blocks of one width (Q, K and V of a head) are copied into one buffer side by side
    (``stack[i]``), so the buffer pool serves them once it serves the three together:
    at n = 1024, d_k = 64 each block is 512 kB, below the pool's ``MIN_POOLED_BYTES``,
    and three fresh ones were paged in on every forward."""
    n, widths = product.shape[0], {W.shape[1] for W, _b in heads}
    if len(heads) > 1 and len(widths) == 1:
        stack = buffers.empty((len(heads), n, widths.pop()), product.dtype)
        blocks = list(stack)
    else:
        blocks = [buffers.empty((n, W.shape[1]), product.dtype) for W, _b in heads]
    out, start = [], 0
    for (W, b), block in zip(heads, blocks, strict=True):
        np.copyto(block, product[:, start:start + W.shape[1]])
        start += W.shape[1]
        if b is not None:
            block += b
        out.append(block)
    return out


_RANGE_ROWS = 128
"""Rows per range of the row-parallel forward (``_fused_forward``, ``_projections``):
fewer rows per BLAS call cost more CPU (at n = 2048 on one thread, 64 rows: 50 + 13 ms
for the forward and the projections; 128: 44 + 11; whole products: 44 + 10), more
leave fewer ranges to share (n = 1024: 8)."""

_MIN_RANGED_CELLS = 1 << 17
"""From this many score cells (n ≈ 362) the forward runs in ``_RANGE_ROWS`` ranges on
the row threads (and an edit of one row multiplies only its range's projections,
``projection_memo``); below it, in one range on the calling thread. Measured in the
window on the quiet 2-core machine, ``trace_edit.py --d-model 0 --summary``, the
forward's wall time per edit (d_model = n, d_k = 64, medians of 9–11 edits, two or
three rounds, one range / ranges): n = 256, 1.62–1.69 / 1.88–1.99 ms (waking the
helper thread twice costs more than half the rows save); 384, 3.3–3.8 / 2.8; 512,
5.5–5.8 / 3.8–4.1; 724, 12.3–12.5 / 8.6–10.9 (the old threshold was
``rows.MIN_PARALLEL_CELLS``, n ≈ 724). In ranges, some lengths get other last bits than
whole products (``_fused_forward``): at d_model = 768, d_k = 64, n = 363, 450, 500, 513,
641, 700 and 724 differ, n = 384, 400, 512 and 600 do not."""

_BLOCK_BYTES = 1 << 18
"""Rows per block of the row threads' softmax (``_fused_forward``): a block of one
n×m array stays in the L2 cache."""

_WHOLE_BLOCK_BYTES = 1 << 19
"""Rows per block of the softmax after whole products (BLAS on several threads), on the
calling thread or the row threads (``_softmax_in_threads``; in threads on the AVX2
machine, two rounds, n = 2048: ×0.71 and 0.72 of plain NumPy against ×0.76 and 0.77
with 256 kB blocks): half as many NumPy calls for the same rows, while a block
of the scaled scores, its scratch and its weights still fit the 2 MB of L2 and the
L3 nearby. Measured on the 2-core machine (1 MB of L2 per core), n = 1024,
d_model = 768, the forward in turns with plain NumPy (40 turns, three rounds), both
with the column views (``_column_views``): 11.1–12.2 ms against 11.6–12.8 with
256 kB blocks (1 MB blocks: 11.4–12.6). A row's numbers are the same in any block."""


def _softmax_in_threads(dtype: np.dtype) -> bool:
    """Whether the softmax after whole products (BLAS on several threads) runs on the
    row threads (``for_row_chunks``, above its ``MIN_PARALLEL_CELLS``): for float64
    where NumPy computes ``exp`` one value at a time, that is without AVX-512.

    NumPy's float64 ``exp`` has a vector loop for AVX-512 only; float32's has one for
    AVX2 too. Where the loop is scalar the softmax is bound by ``exp`` (5.6 ms of a
    million float64 scores on an AVX2 AMD EPYC, against 0.32 ms for a subtraction and
    1.9 ms for float32's ``exp``) and two cores halve it, even beside OpenBLAS's worker
    that still spins after the product. Measured on that 2-core machine,
    ``bench_core.py --sizes 1024,2048 --dtypes float64``, the forward against plain
    NumPy, rounds in turns (medians; the benchmark's own load 0.9–1.9): n = 2048, in
    threads ×0.71, 0.72, 0.72, 0.77, 0.75, 0.74 against ×0.86, 0.84, 0.85, 0.88 on the
    calling thread; n = 1024 less clear, ×0.73, 0.75, 0.77, 0.80, 0.82, 0.85, 0.82,
    0.83, 0.89 against ×0.84, 0.86, 0.86, 0.81, 0.87, 0.84, 0.84 (where the softmax is shorter
    than the BLAS worker's spin, the two threads share a core with it for longer).
    All BLAS threads and the row threads for the products too (as in the app) were
    slower still: ×0.94 and 1.00 at n = 1024. float32 (15 turns): the same within the
    noise, ×0.33–0.37 either way. On
    the AVX-512 machine of the earlier runs, where ``exp`` took 0.87 ms, the row threads
    lost: ×0.93 against ×0.84 at n = 1024 (2048: ×0.92 and ×0.86; 4096: ×0.80 and
    ×0.77), each thread sharing a core with a spinning BLAS worker and waiting for the
    GIL between blocks. Where NumPy does not say what the CPU has, the calling thread.
    """
    return dtype == np.float64 and _SCALAR_F64_EXP


def _numpy_cpu_features() -> dict:
    """NumPy's map of the CPU's SIMD features (``{}`` if this NumPy has none to read)."""
    import importlib
    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):
        try:
            return dict(importlib.import_module(name).__cpu_features__)
        except (ImportError, AttributeError):
            continue
    return {}


_features = _numpy_cpu_features()
_SCALAR_F64_EXP = bool(_features) and not _features.get("AVX512F", False)
"""NumPy's float64 ``exp`` runs one value at a time here (no AVX-512): see
``_softmax_in_threads``."""
del _features


def _fused_forward(Q: np.ndarray, K: np.ndarray, V: np.ndarray, div, rules: MaskSpec | None,
                   slope: float | None, in_rows: bool = True,
                   on_rows: RowsDone | None = None):
    """``scores = Q·Kᵀ``, ``scaled = scores / div + bias`` (masked), its row softmax,
    ``output = weights · V`` and the per-row statistics, row range by row range.

    Each range is one pass: its rows of the scores are one matrix product, then divided,
    masked, exponentiated, normalised and summarised in cache-sized blocks with one
    small scratch buffer per thread, then multiplied by V. So the only n×m allocations
    are the three results (scores, scaled, weights), and the ranges run in parallel
    (``for_row_chunks``), the products included, with BLAS on one thread inside them:
    no BLAS thread spins or waits for a core the softmax holds (measured: see
    ``tests/benchmarks/bench_core.py`` and the README). OpenBLAS may round a row of a
    product an ulp differently with other rows beside it in the call: at d_model = 768,
    d_k = 64 the results equal the whole products' at n = 1000 and 1024, while at
    n = 1025 (a last range of one row) 61 of Q's cells and 1917 scores differ, by about
    1e-16 relative; thin products (d_k of 6 or 16) differ likewise, as they already did
    with another BLAS thread count. The ranges are fixed by the shape (``_RANGE_ROWS``),
    so every core count gets the same bits (not every machine: OpenBLAS 0.3.31 on an
    AMD EPYC rounds float32 ranges at n = 1024 otherwise than whole products, 1–8 ulp
    in 15 % of Q's cells, ``tests/core/test_forward_rows.py``); the tutorial's sizes are far
    below the row threads. ``in_rows=False`` (BLAS on several threads): the two products
    are whole products on BLAS's threads, and the softmax runs in the same cache-sized
    blocks, on the row threads where its ``exp`` is the costly part and on the calling
    thread elsewhere (``_softmax_in_threads``). The numbers are the same either way.
    The statistics come from row reductions: H = log Z − Σ p·(s − max), max p = 1/Z,
    Σ p(1−p) = 1 − Σ p². The mask (``rules``) and the ALiBi bias (``slope``) are built
    block by block too. A range stops at its first row without an allowed key;
    ``EmptyRowError`` then names the first such row of all. ``on_rows`` (``RowsDone``)
    is told each range once its rows of the three n × m results are final, before
    the range's product with V.
    """
    masked = rules is not None
    n, m = Q.shape[0], K.shape[0]
    dtype = Q.dtype
    scores, scaled, p = (buffers.empty((n, m), dtype) for _ in range(3))
    output = buffers.empty((n, V.shape[1]), dtype)
    total = np.empty(n, dtype)
    entropy = np.empty(n, dtype)
    sum_sq = np.empty(n, dtype)
    if m == 0:
        zeros = np.zeros(n, dtype)
        output.fill(0)
        return scores, scaled, p, output, zeros, zeros.copy(), zeros.copy()
    has_key = np.ones(n, dtype=bool)
    check_rows = masked and rules.may_empty_a_row(n, m)
    # ÷ a power of two (√d_k for d_k = 4, 16, 64, 256 …) is exactly × its reciprocal,
    # the same correctly rounded number, and a multiplication is several times cheaper.
    exact_reciprocal = np.frexp(div)[0] == 0.5
    factor = dtype.type(1) / div
    if slope is not None:
        key_index = np.arange(m, dtype=dtype)
        slope = dtype.type(slope)
    finished = {"scores": scores, "scaled": scaled, "weights": p}
    block_bytes = _BLOCK_BYTES if in_rows else _WHOLE_BLOCK_BYTES

    def rows(r0: int, r1: int) -> None:
        if in_rows:
            np.matmul(Q[r0:r1], K.T, out=scores[r0:r1])
        step = max(1, min(r1 - r0, block_bytes // (m * scores.itemsize)))
        scratch = np.empty((step, m), dtype)
        for a in range(r0, r1, step):
            b = min(r1, a + step)
            s, z, pb = scaled[a:b], scratch[: b - a], p[a:b]
            if exact_reciprocal:
                np.multiply(scores[a:b], factor, out=s)
            else:
                np.divide(scores[a:b], div, out=s)
            if slope is not None:  # s −= slope·|i − j|, in the scratch block
                np.subtract.outer(np.arange(a, b, dtype=dtype), key_index, out=z)
                np.abs(z, out=z)
                z *= slope
                s -= z
            if masked:
                hidden = rules.hidden_rows(a, b, m)
                if check_rows:
                    ok = ~hidden.all(axis=1)
                    if not ok.all():
                        has_key[a:b] = ok
                        return
                np.copyto(s, -np.inf, where=hidden)
            np.subtract(s, s.max(axis=1, keepdims=True), out=z)
            np.exp(z, out=pb)
            tb = pb.sum(axis=1, keepdims=True)
            np.divide(pb, tb, out=pb)
            if masked:  # masked cells: z = -inf and p = 0, whose product counts as 0
                np.copyto(z, 0, where=np.isneginf(z))
            total[a:b] = tb[:, 0]
            _row_dots(pb, z, entropy[a:b])
            _row_dots(pb, pb, sum_sq[a:b])
        if on_rows is not None:
            on_rows(r0, r1, finished)
        if in_rows:
            np.matmul(p[r0:r1], V, out=output[r0:r1])

    if in_rows:
        for_row_chunks(rows, n, n * m, blas=True, range_rows=_RANGE_ROWS,
                       min_cells=_MIN_RANGED_CELLS)
    else:  # whole products on BLAS's own threads, the softmax in ranges
        np.matmul(Q, K.T, out=scores)
        if _softmax_in_threads(dtype):
            for_row_chunks(rows, n, n * m, range_rows=_RANGE_ROWS)
        else:
            for r0 in range(0, n, _RANGE_ROWS):  # ranges, for ``on_rows``
                rows(r0, min(n, r0 + _RANGE_ROWS))
        if has_key.all():
            np.matmul(p, V, out=output)
    if not has_key.all():
        raise EmptyRowError(int(np.argmin(has_key)), m)
    np.subtract(np.log(total), entropy, out=entropy)
    np.maximum(entropy, 0, out=entropy)
    max_weight = np.reciprocal(total)
    mean_gradient = (1 - sum_sq) / dtype.type(m)
    return scores, scaled, p, output, entropy, max_weight, mean_gradient


def _row_dots(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = a[i] · b[i]`` for each row: ``np.vecdot`` (NumPy ≥ 2.0), a BLAS dot
    product per row, else ``einsum``. Measured on a 32 × 1024 block (2-core machine):
    6.4 µs against einsum's 11.1; both keep the entropy within the bound of
    ``tests/core/test_softmax_accuracy.py``."""
    if _VECDOT is not None:
        _VECDOT(a, b, out=out)
    else:
        np.einsum("ij,ij->i", a, b, out=out)


_VECDOT = getattr(np, "vecdot", None)


def _naive_softmax_with_stats(scaled: np.ndarray):
    """The overflow lesson's naive softmax; statistics are inf/nan wherever it broke.

    A row whose exps are finite but sum to ∞ has weights exp(s)/∞ = 0, all finite: its
    entropy, largest weight and mean p(1−p) would read 0, 0 and 0, a row perfectly
    focused on its first key in the diagnostics (a review). They are NaN there too."""
    m = scaled.shape[1]
    with np.errstate(all="ignore"):
        e = np.exp(scaled)
        total = e.sum(axis=1, keepdims=True)
        p = e / total
        entropy = row_entropy(p)
        mean_gradient = (p * (1 - p)).sum(axis=1) / m
    top = p.max(axis=1)
    summed_over = np.isinf(total[:, 0])
    for stat in (entropy, top, mean_gradient):
        stat[summed_over] = np.nan
    return p, entropy, top, mean_gradient
