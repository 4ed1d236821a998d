"""The core reproduces every number the tutorial's three demos print.

The expected values are parsed at test time from the demos' printed output (a copy
lives in ``seed_output/`` so the tests run in a clean clone) and compared with the
core's values at the precision that was printed: ``:.4f``/``:.6f`` cells as text,
NumPy-printed vectors both numerically (to 8 decimals, NumPy's print precision) and
as the very text NumPy prints.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from qkv_desktop.core import (
    DEMO_SCORES,
    attention,
    dot_product_demo,
    get_preset,
    init_weights,
    row_stats,
)

SEED_COPY = Path(__file__).parent / "seed_output"
SEED_ORIGINAL = Path(__file__).resolve().parents[3] / "shared" / "seed"
OUTPUTS = ("demo1_self_attention.out.txt", "demo2_qkv_asymmetry.out.txt",
           "demo3_scaling.out.txt")
NUMPY_HALF_ULP = 0.5e-8 * (1 + 1e-9)  # NumPy prints at most 8 decimals


def read_output(name: str) -> str:
    return (SEED_COPY / name).read_text(encoding="utf-8")


def block(text: str, title: str) -> list[str]:
    """The lines of the blank-line separated block whose first line starts with ``title``."""
    found = [b.splitlines() for b in text.split("\n\n") if b.startswith(title)]
    assert len(found) == 1, f"expected one block titled {title!r}, found {len(found)}"
    return found[0]


def labelled_vectors(lines: list[str]) -> list[tuple[str, str]]:
    """``(label, text inside the brackets)`` for every ``  label: [ ... ]`` line."""
    return [(m["label"], m["body"]) for m in
            (re.match(r"^\s+(?P<label>\S+): \[(?P<body>[^\]]*)\]$", ln) for ln in lines) if m]


def table(lines: list[str]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """Column labels and ``(row label, cell texts)`` of a printed square table."""
    header = lines[1].split()
    rows = [(ln.split()[0], ln.split()[1:]) for ln in lines[2:]]
    return header, rows


def assert_numpy_printed(actual: np.ndarray, body: str, *, rounded_to: int | None = None):
    """``actual`` is what NumPy printed as ``[body]``: same numbers, same text."""
    printed = np.array(body.split(), dtype=np.float64)
    assert printed.shape == actual.shape
    if rounded_to is None:
        np.testing.assert_allclose(actual, printed, rtol=0, atol=NUMPY_HALF_ULP)
        shown = actual
    else:
        shown = np.round(actual, rounded_to)
        np.testing.assert_allclose(shown, printed, rtol=0, atol=1e-12)
    with np.printoptions(precision=8, floatmode="maxprec", suppress=False, legacy=False):
        assert str(shown) == f"[{body}]"


def assert_table(actual: np.ndarray, lines: list[str], tokens: tuple[str, ...]):
    """A ``:.4f`` table, cell by cell, with the token labels on both axes."""
    header, rows = table(lines)
    assert header == list(tokens)
    assert [label for label, _ in rows] == list(tokens)
    assert actual.shape == (len(tokens), len(tokens))
    for i, (label, cells) in enumerate(rows):
        assert cells == [f"{x:.4f}" for x in actual[i]], f"row {label}"


# --------------------------------------------------------------------- the copy


@pytest.mark.parametrize("name", OUTPUTS)
def test_copied_output_matches_the_seed(name):
    original = SEED_ORIGINAL / name
    if not original.exists():
        pytest.skip(f"no seed directory at {SEED_ORIGINAL}")
    assert (SEED_COPY / name).read_bytes() == original.read_bytes()


# --------------------------------------------------------------------- demo 1


@pytest.fixture(scope="module")
def demo1():
    preset = get_preset("tutorial-1")
    assert (preset.seed, preset.scale, preset.X.shape[1], preset.d_k) == (42, 0.1, 8, 4)
    w = init_weights(d_model=8, d_k=4, seed=42, scale=0.1)
    return preset.tokens, attention(preset.X, w), read_output(OUTPUTS[0])


@pytest.mark.parametrize("field, title", [("Q", "Q矩阵"), ("K", "K矩阵"), ("V", "V矩阵")])
def test_demo1_projections(demo1, field, title):
    tokens, result, text = demo1
    vectors = labelled_vectors(block(text, title))
    assert [label for label, _ in vectors] == list(tokens)
    for i, (_, body) in enumerate(vectors):
        assert_numpy_printed(getattr(result, field)[i], body)


def test_demo1_weights(demo1):
    tokens, result, text = demo1
    assert_table(result.weights, block(text, "注意力权重矩阵"), tokens)


def test_demo1_weights_are_nearly_uniform_whatever_the_commentary_says(demo1):
    """The demo's commentary claims a high diagonal; its own numbers do not show one."""
    tokens, result, text = demo1
    _, rows = table(block(text, "注意力权重矩阵"))
    printed = np.array([[float(c) for c in cells] for _, cells in rows])
    for weights in (result.weights, printed):
        assert np.abs(weights - 0.25).max() < 0.004
        row_max = weights.argmax(axis=1)
        # The diagonal is the row maximum only for 智能 (the last row).
        assert row_max.tolist() == [3, 0, 3, 3]
        assert np.flatnonzero(row_max == np.arange(4)).tolist() == [3]
        # 爱 weighs 我 most but 智能 least, not "我 and 智能 more".
        assert tokens[weights[1].argmax()] == "我"
        assert tokens[weights[1].argmin()] == "智能"


# --------------------------------------------------------------------- demo 2


@pytest.fixture(scope="module")
def demo2():
    preset = get_preset("tutorial-2")
    assert (preset.seed, preset.scale, preset.X.shape[1], preset.d_k) == (123, 0.5, 6, 3)
    w = init_weights(d_model=6, d_k=3, seed=123, scale=0.5)
    return (preset, attention(preset.X, w), attention(preset.X, w.tied()),
            read_output(OUTPUTS[1]))


def test_demo2_input(demo2):
    preset, _, _, text = demo2
    vectors = labelled_vectors(block(text, "输入X"))
    assert [label for label, _ in vectors] == list(preset.tokens)
    for i, (_, body) in enumerate(vectors):
        assert_numpy_printed(preset.X[i], body)


@pytest.mark.parametrize("field, title, suffix", [
    ("Q", "Q矩阵", "提问"), ("K", "K矩阵", "标签"), ("V", "V矩阵", "内容")])
def test_demo2_projections(demo2, field, title, suffix):
    preset, result, _, text = demo2
    vectors = labelled_vectors(block(text, title))
    assert [label for label, _ in vectors] == [t + suffix for t in preset.tokens]
    for i, (_, body) in enumerate(vectors):
        assert_numpy_printed(getattr(result, field)[i], body)


def test_demo2_qk_scores(demo2):
    preset, result, _, text = demo2
    assert_table(result.scores, block(text, "QK^T"), preset.tokens)


def test_demo2_kk_scores_from_tied_weights(demo2):
    preset, _, tied, text = demo2
    assert_table(tied.scores, block(text, "KK^T"), preset.tokens)


# --------------------------------------------------------------------- demo 3


def demo3_sections(text: str) -> dict[int, str]:
    parts = re.split(r"--- 键向量维度 d_k = (\d+) ---", text.split("=== 缩放对注意力分布")[0])
    return {int(d_k): body for d_k, body in zip(parts[1::2], parts[2::2], strict=True)}


def one(pattern: str, text: str) -> str:
    found = re.findall(pattern, text)
    assert len(found) == 1, f"expected one match of {pattern!r}, found {found}"
    return found[0]


@pytest.fixture(scope="module")
def demo3():
    text = read_output(OUTPUTS[2])
    sections = demo3_sections(text)
    demos = dot_product_demo()
    assert list(sections) == [d.d_k for d in demos] == [4, 16, 64, 256]
    return list(zip(demos, sections.values(), strict=True)), text


def test_demo3_dot_products(demo3):
    rows, _ = demo3
    for demo, section in rows:
        assert_numpy_printed(demo.dot_products,
                             one(rf"原始点积值（方差≈{demo.d_k}）：\[(.*)\]", section))


def test_demo3_softmax_vectors(demo3):
    rows, _ = demo3
    for demo, section in rows:
        assert_numpy_printed(demo.unscaled.weights, one(r"不缩放的Softmax输出：\[(.*)\]", section),
                             rounded_to=4)
        assert_numpy_printed(demo.scaled.weights, one(r"缩放后的Softmax输出：\[(.*)\]", section),
                             rounded_to=4)


def test_demo3_max_weights(demo3):
    rows, _ = demo3
    for demo, section in rows:
        printed = re.findall(r"最大值占比：(\d+\.\d+)", section)
        assert printed == [f"{demo.unscaled.max_weight:.4f}", f"{demo.scaled.max_weight:.4f}"]


def test_demo3_mean_gradients(demo3):
    rows, _ = demo3
    for demo, section in rows:
        assert one(r"不缩放的平均梯度：(\d+\.\d+)", section) == f"{demo.unscaled.mean_gradient:.6f}"
        assert one(r"缩放后的平均梯度：(\d+\.\d+)", section) == f"{demo.scaled.mean_gradient:.6f}"


@pytest.mark.parametrize("label, divisor", [("不缩放", 1.0), ("d_k=4缩放", np.sqrt(4)),
                                            ("d_k=64缩放", np.sqrt(64))])
def test_demo3_fixed_scores_table(demo3, label, divisor):
    _, text = demo3
    assert_numpy_printed(np.array(DEMO_SCORES), one(r"原始分数: \[(.*)\]", text))
    assert_numpy_printed(row_stats(DEMO_SCORES, divisor).weights,
                         one(rf"\n{re.escape(label)}:\s+\[(.*)\]", text), rounded_to=4)
