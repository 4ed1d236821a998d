"""Teaching one head a pattern by gradient descent: targets, losses and steps.

Two kinds of target:

* a weight pattern T (rows sum to 1): cross-entropy row by row,
  L = −(1/n) Σᵢ Σⱼ Tᵢⱼ log Pᵢⱼ;
* an output O*: squared error, L = (1/n) Σᵢ ‖Oᵢ − O*ᵢ‖².

``train_step`` is one plain gradient-descent step on W_Q, W_K, W_V (and the biases a
head has) with the gradients of ``core.gradients``; ``scaling_comparison`` trains fresh
heads of several d_k with and without ÷√d_k to show which gradients really vanish.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.attention import attention
from qkv_desktop.core.gradients import AttentionGrads, attention_grads
from qkv_desktop.core.validation import as_matrix
from qkv_desktop.core.weights import WEIGHT_NAMES, Weights, init_weights

__all__ = ["PATTERNS", "target_pattern", "normalise_pattern", "pattern_loss",
           "pattern_loss_on_logits", "output_loss",
           "loss_and_grads", "TrainStep", "train_step", "SoftmaxSaturated", "WeightsOverflowed",
           "DEFAULT_LEARNING_RATE", "MIN_LEARNING_RATE", "default_learning_rate",
           "learning_rate_for", "RunPoint", "training_run",
           "ScalingRun",
           "scaling_comparison", "layer_norm"]

PATTERNS = ("previous", "first", "diagonal")
"""Built-in target patterns: attend to the previous token, to the first, to oneself."""

_TINY = np.finfo(np.float64).tiny


def target_pattern(kind: str, n: int, m: int | None = None) -> np.ndarray:
    """An n × m one-hot target: ``previous`` (row i → key i−1, row 0 → 0), ``first``, ``diagonal``."""
    m = n if m is None else m
    T = np.zeros((n, m))
    rows = np.arange(n)
    if kind == "previous":
        cols = np.maximum(rows - 1, 0)
    elif kind == "first":
        cols = np.zeros(n, int)
    elif kind == "diagonal":
        cols = rows
    else:
        raise ValueError(f"pattern must be one of {', '.join(PATTERNS)}, got {kind!r}")
    T[rows, np.minimum(cols, m - 1)] = 1.0
    return T


def normalise_pattern(T, causal: bool = False) -> np.ndarray:
    """A painted pattern as a target: non-negative, future keys dropped if causal, rows sum to 1.

    A row with nothing left becomes uniform over its visible keys.
    """
    T = np.array(T, dtype=np.float64)
    if T.ndim != 2 or not np.isfinite(T).all():
        raise ValueError("a target pattern must be a finite matrix")
    T = np.maximum(T, 0)
    allowed = np.ones_like(T, bool)
    if causal:
        allowed = np.arange(T.shape[1])[None, :] <= np.arange(T.shape[0])[:, None]
        T[~allowed] = 0
    sums = T.sum(axis=1, keepdims=True)
    uniform = allowed / np.maximum(allowed.sum(axis=1, keepdims=True), 1)
    return np.where(sums > 0, T / np.where(sums > 0, sums, 1), uniform)


def pattern_loss(P: np.ndarray, T: np.ndarray) -> tuple[float, np.ndarray]:
    """Cross-entropy of weights P against target T, averaged over rows: (L, dL/dP)."""
    n = P.shape[0]
    safe = np.maximum(P, _TINY)
    with np.errstate(divide="ignore"):
        loss = -float(np.sum(np.where(T > 0, T * np.log(safe), 0.0))) / n
    return loss, np.where(T > 0, -T / (n * safe), 0.0)


def pattern_loss_on_logits(scaled: np.ndarray, T: np.ndarray) -> tuple[float, np.ndarray]:
    """Cross-entropy of softmax(``scaled``) against target T, averaged over rows, from the
    softmax's input: (L, dL/dscaled), with log P = s − max − log Σ exp(s − max).

    ``pattern_loss`` takes P itself, and a weight that underflowed to 0 in floating point
    (a saturated head: a score 800 below its row's largest) then read as log 2⁻¹⁰²² and
    passed no gradient back, so training stood still at a loss of 708 while the true
    gradient, (P − T)/n on the scaled scores, is as large as ever: here log P is exact
    wherever the key is allowed, and the gradient is that expression (P·ΣT − T)/n. A
    target on a masked key (its log P is −∞) counts as log 2⁻¹⁰²², as before."""
    s = np.asarray(scaled, dtype=np.float64)
    T = np.asarray(T, dtype=np.float64)
    n = s.shape[0]
    allowed = s > -np.inf
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        top = np.max(np.where(allowed, s, -np.inf), axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        shifted = np.where(allowed, s - top, -np.inf)
        log_p = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
        P = np.exp(log_p)
    log_p = np.where(allowed, log_p, np.log(_TINY))  # (a target on a masked key)
    loss = -float(np.sum(np.where(T > 0, T * log_p, 0.0))) / n
    grad = np.where(allowed, (P * T.sum(axis=1, keepdims=True) - T) / n, 0.0)
    return loss, grad


def output_loss(output: np.ndarray, target: np.ndarray) -> tuple[float, np.ndarray]:
    """Squared error of output O against the target, averaged over rows: (L, dL/dO)."""
    n = output.shape[0]
    diff = output - target
    return float(np.sum(diff * diff)) / n, 2.0 * diff / n


@dataclass(frozen=True, eq=False)
class TrainStep:
    """One step: the loss and gradients *at* ``before``, and ``after`` = before − lr · grad."""

    loss: float
    grads: AttentionGrads
    after: Weights

    def grad_norms(self) -> dict[str, float]:
        return {k: v for k, v in self.grads.norms().items() if k.startswith("W_")}


def loss_and_grads(X, weights: Weights, target, kind: str, **options
                   ) -> tuple[float, AttentionGrads]:
    """The loss of ``kind`` "pattern" or "output" at ``weights`` and its gradients."""
    r = attention(X, weights, **options)
    target = np.asarray(target, dtype=np.float64)
    if kind == "pattern":
        if target.shape != r.weights.shape:
            raise ValueError(f"the target pattern must be {r.weights.shape}, got {target.shape}")
        loss, dS = pattern_loss_on_logits(r.scaled, target)  # exact where P underflows
        return loss, attention_grads(X, weights, dL_dlogits=dS, **options)
    if kind == "output":
        if target.shape != r.output.shape:
            raise ValueError(f"the target output must be {r.output.shape}, got {target.shape}")
        loss, dO = output_loss(r.output, target)
        return loss, attention_grads(X, weights, dL_doutput=dO, **options)
    raise ValueError(f"kind must be 'pattern' or 'output', got {kind!r}")


class SoftmaxSaturated(ValueError):
    """A run that diverged without overflowing: the softmax saturated (every weight of
    every row that sees several keys is exactly 0 or 1), so the gradients reaching W_Q
    and W_K are exactly 0 and the weights can never move again, with the loss above
    where the run started. Only a loss through the softmax's Jacobian (the target
    output) gets there: the cross-entropy's gradient on the scores, (P − T)/n, stays
    (``pattern_loss_on_logits``). ``step`` holds the loss and gradients there."""

    def __init__(self, step: TrainStep | RunPoint, start_loss: float):
        super().__init__(f"the softmax saturated: every weight is 0 or 1, so the gradients "
                         f"on W_Q and W_K are 0 (loss {step.loss:.4g}, it started at "
                         f"{start_loss:.4g})")
        self.step = step
        self.start_loss = start_loss


class WeightsOverflowed(ValueError):
    """A step whose new weights are not all finite (too large a learning rate): ``name``
    is the first array that is not (``W_Q``, ``W_K``, ``W_V`` or a bias), ``index`` its
    first bad cell and ``value`` what the cell holds (±inf or NaN). The fields let a
    caller say it in the user's language; ``str()`` is the English, for a notebook."""

    def __init__(self, name: str, index: tuple[int, ...], value: float):
        self.name, self.index, self.value = name, tuple(int(i) for i in index), float(value)
        where = ", ".join(str(i) for i in self.index)
        super().__init__(f"{name} has a non-finite value {self.value} at [{where}]")


def _overflowed(arrays: list) -> None:
    """Raise ``WeightsOverflowed`` for the first array of ``arrays`` (in ``WEIGHT_NAMES``
    order, None for an absent bias) that holds a non-finite value."""
    for name, a in zip(WEIGHT_NAMES, arrays, strict=True):
        if a is not None and not np.isfinite(a).all():
            bad = tuple(np.argwhere(~np.isfinite(a))[0])
            raise WeightsOverflowed(name, bad, a[bad])


def _saturated(X, weights: Weights, step: TrainStep | RunPoint, start_loss: float, target, kind: str,
               **options) -> bool:
    """Whether ``step`` is stuck for good (see ``SoftmaxSaturated``). A head that learned
    its pattern exactly is one-hot too, but at a loss below its start; below it, W_V
    still trains an output."""
    norms = step.grad_norms()
    if norms["W_Q"] != 0 or norms["W_K"] != 0 or not step.loss > start_loss:
        return False
    r = attention(X, weights, **options)
    several = r.allowed.sum(axis=1) > 1
    P = r.weights[several]
    return bool(several.any() and np.all((P == 0) | (P == 1)))


DEFAULT_LEARNING_RATE = 0.5
"""The learning rate for vectors of length about 1 (the tutorial's): its runs learn each
target in a few hundred steps."""


MIN_LEARNING_RATE = 1e-8
"""The smallest rate the labs take. It was 1e-4, above 1 / max‖x‖² for the inputs the
overflow lesson's "× 100" makes (‖x‖² up to 1.49e4 on tutorial-1): the rate the lab
chose then broke the bound that keeps a step on W_V from overshooting (tutorial-1's
previous-token run still learned at 1e-4; another session's need not)."""


def default_learning_rate(X, X_kv=None) -> float:
    """A learning rate that learns without diverging on these token vectors:
    ``DEFAULT_LEARNING_RATE``, or 1 / max‖x‖² over the rows of X (and of X_kv) when that
    is smaller, rounded down to one significant digit (0.007, not 0.0072992…).

    Why 1 / max‖x‖²: a step on W_V moves the output O = P·X·W_V by lr·(2/n)(PX)(PX)ᵀ
    times its error, whose largest eigenvalue is at most 2·max‖x‖² (each row of PX is an
    average of rows of X); above lr = 1/max‖x‖² the steps can overshoot and the error
    grow step by step. The scores Q·Kᵀ move by ‖x‖² times as much too. A model's vectors
    are long (all-MiniLM-L6-v2's first layer: max‖x‖² ≈ 137, where 0.5 diverged);
    the tutorial's (‖x‖² ≈ 1) keep 0.5.
    """
    rows = [as_matrix(X, "X")]
    if X_kv is not None:
        rows.append(as_matrix(X_kv, "X_kv"))
    with np.errstate(over="ignore"):
        largest = max(float(np.max(np.sum(np.square(r, dtype=np.float64), axis=1)))
                      for r in rows)
    return learning_rate_for(largest)


def learning_rate_for(largest: float) -> float:
    """``default_learning_rate`` for rows whose largest squared length is ``largest``:
    rows layer-normalised to d_model dimensions have ‖x‖² ≤ d_model, so their rate
    needs only their width (the gradient lab's comparison)."""
    if not np.isfinite(largest) or largest <= 1.0 / DEFAULT_LEARNING_RATE:
        return DEFAULT_LEARNING_RATE if np.isfinite(largest) else MIN_LEARNING_RATE
    lr = 1.0 / largest
    exponent = int(np.floor(np.log10(lr)))
    digit = max(1, int(lr / 10.0 ** exponent))  # (1 … 9)
    return max(float(f"{digit}e{exponent}"), MIN_LEARNING_RATE)


def descend(weights: Weights, grads: AttentionGrads, lr: float) -> Weights:
    """``weights`` − ``lr`` · ``grads`` on every array the head has (biases only if
    present); ``WeightsOverflowed`` if a new weight is not finite."""
    if not (np.isfinite(lr) and lr > 0):
        raise ValueError(f"learning rate must be a positive finite number, got {lr}")
    with np.errstate(over="ignore", invalid="ignore"):  # divergence: Weights says where
        new = []
        for name in WEIGHT_NAMES:
            a = getattr(weights, name)
            new.append(None if a is None else a - lr * getattr(grads, name).astype(a.dtype))
    _overflowed(new)
    return Weights(*new)


def train_step(X, weights: Weights, target, kind: str, lr: float, start_loss: float | None = None,
               **options) -> TrainStep:
    """One gradient-descent step on every array the head has (biases only if present).

    A step that overflows (too large a learning rate) raises ``WeightsOverflowed`` naming
    the first non-finite weight (``ScoreOverflowError`` from ``attention`` if the
    scores overflow first). Given the loss a run started at (``start_loss``), a step
    where the softmax saturated with the loss above it raises ``SoftmaxSaturated``
    (a ``ValueError`` too): the weights stay finite, but the run has diverged as surely."""
    if not (np.isfinite(lr) and lr > 0):
        raise ValueError(f"learning rate must be a positive finite number, got {lr}")
    with np.errstate(over="ignore", invalid="ignore"):  # divergence: Weights says where
        loss, grads = loss_and_grads(X, weights, target, kind, **options)
    step = TrainStep(loss, grads, descend(weights, grads, lr))
    if start_loss is not None and _saturated(X, weights, step, start_loss, target, kind,
                                                **options):
        raise SoftmaxSaturated(step, start_loss)
    return step


@dataclass(frozen=True, eq=False)
class RunPoint:
    """Where a run is after ``step`` steps: its ``weights``, and the ``loss`` and
    gradients *at* those weights (the ones the next step descends along)."""

    step: int
    weights: Weights
    loss: float
    grads: AttentionGrads

    def grad_norms(self) -> dict[str, float]:
        return {k: v for k, v in self.grads.norms().items() if k.startswith("W_")}


def training_run(X, weights: Weights, target, kind: str, lr, **options) -> Iterator[RunPoint]:
    """Gradient descent from ``weights``, one ``RunPoint`` after each step, for as long
    as the caller iterates: the loss and gradients it holds are those of the weights it
    holds (``TrainStep`` has the loss from before its step, beside the weights after it:
    a lab said "step 200: loss 0.0621" over weights whose loss was 0.0612).

    ``lr`` is a number, or a function returning the learning rate for the next step
    (read before each step: a rate changed during a run applies from the next step on).
    Each step's failure is raised when it happens: ``WeightsOverflowed`` for a weight no
    longer finite, ``ScoreOverflowError`` for scores that overflow at the new weights
    (at the starting ones, before any step), ``SoftmaxSaturated`` (its ``step`` the
    ``RunPoint`` reached) for weights where the softmax saturated with the loss above
    the start's. The last point costs one gradient more than its steps (the gradients
    at the weights reached)."""
    rate = lr if callable(lr) else (lambda: lr)

    def at(step: int, w: Weights) -> RunPoint:
        with np.errstate(over="ignore", invalid="ignore"):
            loss, grads = loss_and_grads(X, w, target, kind, **options)
        return RunPoint(step, w, loss, grads)

    point = at(0, weights)
    start = point.loss
    while True:
        point = at(point.step + 1, descend(point.weights, point.grads, float(rate())))
        if _saturated(X, point.weights, point, start, target, kind, **options):
            raise SoftmaxSaturated(point, start)
        yield point


def layer_norm(X, eps: float = 1e-5) -> np.ndarray:
    """Each row of ``X`` to mean 0 and variance 1 (LayerNorm without gain and bias, as a
    Transformer normalises its input before attention). With W ~ N(0, 1/d_model), q and
    k then have components of variance about 1, the premise of ÷√d_k. A row of equal
    values (any row when d_model = 1) becomes zeros."""
    X = as_matrix(X, "X").astype(np.float64)
    centred = X - X.mean(axis=1, keepdims=True)
    return centred / np.sqrt((centred * centred).mean(axis=1, keepdims=True) + eps)


@dataclass(frozen=True, eq=False)
class ScalingRun:
    """Training of a fresh head at one d_k, with or without ÷√d_k.

    ``losses[s]`` is the loss after s steps, from ``losses[0]`` at the start to
    ``losses[-1]`` at the weights the run ended with (``steps + 1`` values: the table's
    "loss at the end" was the loss before the last step); ``grad_W_Q``/``grad_W_K`` are
    the true gradient norms at those weights; ``mean_p1p`` the tutorial's mean p(1−p) at the start
    and ``max_weight`` the mean of the rows' largest weight there (1 = saturated), both
    over the rows that see more than one key, p(1−p) over each row's visible keys (a
    masked key's p = 0 counted in made a causal run look more saturated than it was:
    0.0994 instead of 0.183 on tutorial-1 at d_k = 256, a domain review).
    """

    d_k: int
    scaled: bool
    losses: np.ndarray
    grad_W_Q: np.ndarray
    grad_W_K: np.ndarray
    mean_p1p: float
    max_weight: float = float("nan")


def scaling_comparison(X, pattern, kind: str = "pattern", d_ks=(4, 64, 256), steps: int = 50,
                       lr: float = 0.5, seed: int = 0, init_scale: float = 1.0,
                       causal: bool = False, should_stop=None, progress=None
                       ) -> list[ScalingRun]:
    """Train fresh heads (``init_weights(d_model, d_k, seed, init_scale)``) per d_k, both ways,
    towards the weight pattern ``pattern``.

    ``kind="pattern"``: cross-entropy of the weights to the pattern. Its gradient on the
    scores is (p − pattern)/n: a saturated softmax does not shrink it while the weights
    are wrong, whatever the tutorial's mean p(1−p) says.
    ``kind="output"``: squared error of the output to ``pattern · V₀`` (V₀ = the head's
    values at the start), averaged over the output's d_k components so that one learning
    rate means the same at every d_k. The loss then reaches the scores as it does in a
    Transformer, through weights · V and the softmax's Jacobian diag(p) − ppᵀ, which is
    nearly 0 where the softmax saturates.
    ``progress(run, d_k, scaled, step)``, if given, is called after each step (``run``
    counts the runs from 0, ``step`` the steps done in it). ``should_stop()`` returning
    True (for a worker thread) ends the comparison before its next step: the runs that
    finished are returned, and the one under way is dropped (a shorter run would read
    as a finished one).
    """
    if kind not in ("pattern", "output"):
        raise ValueError(f"kind must be 'pattern' or 'output', got {kind!r}")
    X = as_matrix(X, "X")
    pattern = np.asarray(pattern, dtype=np.float64)
    runs = []
    for run, (d_k, scaled) in enumerate((d, s) for d in d_ks for s in (False, True)):
        opts = {"scale": "sqrt_dk" if scaled else "none", "causal": causal}
        w = init_weights(X.shape[1], int(d_k), seed=seed, scale=init_scale)
        start = attention(X, w, **opts)
        # rows that see one key (a causal row 0) have weight 1 whatever the scale
        visible = start.allowed.sum(axis=1)
        several = visible > 1
        p = start.weights
        mean_p1p = (float(((p * (1 - p)).sum(axis=1)[several] / visible[several]).mean())
                    if several.any() else float("nan"))
        if kind == "output":
            target, per = pattern @ start.V, 1.0 / start.V.shape[1]
        else:
            target, per = pattern, 1.0
        points = []  # (loss, gradient norms) at the start and after each step
        for k in range(steps):
            if should_stop is not None and should_stop():
                return runs
            step = train_step(X, w, target, kind, lr * per, **opts)
            points.append((step.loss, step.grad_norms()))  # (before the step)
            w = step.after
            if progress is not None:
                progress(run, int(d_k), scaled, k + 1)
        with np.errstate(over="ignore", invalid="ignore"):  # where the run ended
            loss, grads = loss_and_grads(X, w, target, kind, **opts)
        points.append((loss, grads.norms()))
        losses = [loss * per for loss, _ in points]
        gq, gk = ([norms[name] * per for _, norms in points] for name in ("W_Q", "W_K"))
        max_weight = (float(start.weights[several].max(axis=1).mean())
                      if several.any() else float("nan"))
        runs.append(ScalingRun(int(d_k), scaled, np.array(losses), np.array(gq),
                               np.array(gk), mean_p1p, max_weight))
    return runs
