"""Backpropagation through one attention head, by hand, in NumPy.

With c = divisor × temperature, S = Q Kᵀ / c (masked), P = softmax(S), O = P V and a
loss L whose gradients dL/dP and/or dL/dO are given:

    dP  = dL/dP + dL/dO · Vᵀ            dV = Pᵀ · dL/dO
    dS  = P ⊙ (dP − rowsum(P ⊙ dP))     (the full softmax Jacobian, row by row)
    dQ  = dS · K / c                    dK = dSᵀ · Q / c
    dW_Q = Xᵀ dQ,  dW_K = X_kvᵀ dK,  dW_V = X_kvᵀ dV;  db = column sums of dQ, dK, dV.

The tutorial's "mean p(1−p)" is only the diagonal of that Jacobian; ``attention_grads``
gives the gradient that actually reaches W_Q and W_K.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from qkv_desktop.core.attention import AttentionResult, attention
from qkv_desktop.core.positions import rope
from qkv_desktop.core.validation import as_matrix
from qkv_desktop.core.weights import WEIGHT_NAMES, Weights

__all__ = ["AttentionGrads", "attention_grads"]


@dataclass(frozen=True, eq=False)
class AttentionGrads:
    """dL/dW_Q, dL/dW_K, dL/dW_V (d_model × d_k) and dL/db_Q, dL/db_K, dL/db_V (d_k,).

    The bias gradients are given even when the head has no biases (they are the
    gradient with respect to a bias of zero). ``result`` is the forward pass they were
    computed from.
    """

    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    b_Q: np.ndarray
    b_K: np.ndarray
    b_V: np.ndarray
    result: AttentionResult

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in WEIGHT_NAMES:
            raise KeyError(name)
        return getattr(self, name)

    def norms(self) -> dict[str, float]:
        """Frobenius norm of each gradient, by name."""
        return {name: float(np.linalg.norm(getattr(self, name))) for name in WEIGHT_NAMES}


def attention_grads(X, weights: Weights, dL_dweights=None, dL_doutput=None,
                    dL_dlogits=None, **options) -> AttentionGrads:
    """Gradients of a loss with respect to the head's weights, given dL/dP, dL/dO
    and/or dL/d(scaled scores).

    ``dL_dweights`` (n × m) is the loss's gradient with respect to the attention
    weights P, ``dL_doutput`` (n × d_k) with respect to the output O, ``dL_dlogits``
    (n × m) with respect to the softmax's input (the scaled scores, ``scaled``); give one
    or more. A loss on P through log P (cross-entropy) gives its gradient here as
    ``dL_dlogits`` = (P·ΣT − T)/n: through dL/dP = −T/(nP) and the softmax's Jacobian it
    is the same number in exact arithmetic, but a weight that underflowed to 0 then
    multiplies it away, and a saturated head read as one whose gradient is 0.
    ``options`` are ``attention``'s (scale, temperature, causal, X_kv, positions, masks,
    ALiBi). Computed in the dtype of the forward (float64 unless X is float32).
    """
    if dL_dweights is None and dL_doutput is None and dL_dlogits is None:
        raise ValueError("give dL_dweights, dL_doutput or dL_dlogits")
    r = attention(X, weights, **options)
    X = as_matrix(X, "X")
    X_kv = options.get("X_kv")
    src = X if X_kv is None else as_matrix(X_kv, "X_kv", X.dtype)
    if r.X_pos is not None:  # sinusoidal positions: the projections saw X + PE
        X, src = r.X_pos, (r.X_pos if X_kv is None else r.X_kv_pos)
    P, V = r.weights, r.V
    dP = np.zeros_like(P)
    dV = np.zeros_like(V)
    if dL_dweights is not None:
        dP += _grad(dL_dweights, P.shape, "dL_dweights")
    if dL_doutput is not None:
        dO = _grad(dL_doutput, r.output.shape, "dL_doutput")
        dP += dO @ V.T
        dV = P.T @ dO
    dS = P * (dP - (P * dP).sum(axis=1, keepdims=True))
    if dL_dlogits is not None:
        dS = dS + _grad(dL_dlogits, P.shape, "dL_dlogits")
    c = r.divisor * options.get("temperature", 1.0)
    rotated = r.Q_rope is not None
    dQ = dS @ (r.K_rope if rotated else r.K) / c
    dK = dS.T @ (r.Q_rope if rotated else r.Q) / c
    if rotated:  # RoPE is a rotation per position: its gradient rotates back
        turn = {"base": options.get("rope_base", 10000.0),
                "pairing": options.get("rope_pairing", "half")}
        dQ = rope(dQ, -np.arange(dQ.shape[0]), **turn)
        dK = rope(dK, -np.arange(dK.shape[0]), **turn)
    return AttentionGrads(X.T @ dQ, src.T @ dK, src.T @ dV,
                          dQ.sum(axis=0), dK.sum(axis=0), dV.sum(axis=0), r)


def _grad(a, shape: tuple[int, ...], name: str) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    if a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    return a
