"""Hover rules: which cells a hovered cell is made of, or feeds."""

from qkv_desktop.state.catalogue import NM_MATRICES
from qkv_desktop.state.linking import POSITION_ONLY, linked_cells, pane_links

N, M, D, DK = 4, 5, 8, 3


def test_weight_cell_links_its_query_key_and_score_cells():
    links = linked_cells("weights", 1, 3, N, M, D, DK)
    assert links["Q"] == [(1, 0, 1, DK)]
    assert links["K"] == [(3, 0, 1, DK)]
    for name in ("scores", "scaled", "weights"):
        assert links[name] == [(1, 3, 1, 1)]
    assert links["X"] == [(1, 0, 1, D), (3, 0, 1, D)]  # query and key token vectors
    assert links["output"] == [(1, 0, 1, DK)]


def test_a_weight_links_the_value_row_it_weighs_into_its_output_row():
    """output_i = Σ_j w_ij · V_j: weights[1, 3] scales V's row 3 into output row 1."""
    links = linked_cells("weights", 1, 3, N, M, D, DK)
    assert links["V"] == [(3, 0, 1, DK)]
    assert links["output"] == [(1, 0, 1, DK)]


def test_a_score_does_not_link_a_value_row():
    """A score reaches V only through the softmax of its whole row, not one V row."""
    for name in ("scores", "scaled"):
        assert "V" not in linked_cells(name, 1, 3, N, M, D, DK)


def test_an_output_cell_links_its_weight_row_and_the_value_column():
    """output[2, 1] = Σ_j weights[2, j] · V[j, 1]."""
    links = linked_cells("output", 2, 1, N, M, D, DK)
    assert links["weights"] == [(2, 0, 1, M)]
    assert links["V"] == [(0, 1, M, 1)]
    assert "Q" not in links and "K" not in links


def test_an_output_cell_marks_itself_not_its_row():
    """output[2, 1] comes from weights row 2 and V column 1 only; its pane marks the
    hovered cell, as a weight marks its own cell, not the whole output row."""
    links = linked_cells("output", 2, 1, N, M, D, DK)
    assert links["output"] == [(2, 1, 1, 1)]
    assert set(links) == {"weights", "V", "output"}


def test_a_weight_on_the_diagonal_outlines_its_input_row_once():
    links = linked_cells("weights", 2, 2, N, N, D, DK)
    assert links["X"] == [(2, 0, 1, D)]


def test_query_row_links_its_input_row_and_its_score_rows():
    links = linked_cells("Q", 2, 0, N, M, D, DK)
    assert links["X"] == [(2, 0, 1, D)]
    for name in ("scores", "scaled", "weights"):
        assert links[name] == [(2, 0, 1, M)]


def test_key_and_value_rows_link_columns():
    k = linked_cells("K", 1, 0, N, M, D, DK)
    assert k["scores"] == [(0, 1, N, 1)] and k["X"] == [(1, 0, 1, D)]
    v = linked_cells("V", 4, 2, N, M, D, DK)
    assert v["weights"] == [(0, 4, N, 1)]
    assert "scores" not in v


def test_a_value_cell_links_only_the_output_column_it_reaches():
    """output[i, 2] = Σ_j w[i, j] · V[j, 2]: V[4, 2] reaches output column 2 of every row,
    weighed by weights column 4, and no other output column."""
    v = linked_cells("V", 4, 2, N, M, D, DK)
    assert v["output"] == [(0, 2, N, 1)]
    assert v["weights"] == [(0, 4, N, 1)]
    assert v["V"] == [(4, 0, 1, DK)] and v["X"] == [(4, 0, 1, D)]


def test_a_masked_weight_links_no_value_row_and_no_output_row():
    """A key hidden by the mask: the score q_i·k_j is computed, the scaled score is −∞,
    the weight exactly 0, so V's row j adds nothing to output row i."""
    links = linked_cells("weights", 1, 3, N, M, D, DK, masked=True)
    assert "V" not in links and "output" not in links
    assert links["Q"] == [(1, 0, 1, DK)] and links["K"] == [(3, 0, 1, DK)]
    for name in ("scores", "scaled", "weights"):
        assert links[name] == [(1, 3, 1, 1)]
    assert links["X"] == [(1, 0, 1, D), (3, 0, 1, D)]


def test_a_masked_score_links_no_output_row():
    """Its scaled score is −∞ whatever it is: it no longer reaches the softmax."""
    for name in ("scores", "scaled"):
        links = linked_cells(name, 1, 3, N, M, D, DK, masked=True)
        assert "output" not in links and links["Q"] == [(1, 0, 1, DK)]


def test_input_row_links_its_projections():
    links = linked_cells("X", 0, 5, N, N, D, DK)
    assert links["Q"] == links["K"] == links["V"] == [(0, 0, 1, DK)]


def test_cross_attention_keys_come_from_the_encoder_sequence():
    links = linked_cells("weights", 0, 4, N, M, D, DK, cross=True)
    assert links["X"] == [(0, 0, 1, D)]
    assert links["X_kv"] == [(4, 0, 1, D)]
    x = linked_cells("X", 0, 0, N, M, D, DK, cross=True)
    assert "K" not in x and x["Q"] == [(0, 0, 1, DK)]
    kv = linked_cells("X_kv", 2, 0, N, M, D, DK, cross=True)
    assert kv["K"] == kv["V"] == [(2, 0, 1, DK)] and "Q" not in kv


def test_rotated_queries_and_keys_link_like_q_and_k():
    assert linked_cells("Q_rope", 2, 1, N, M, D, DK) == linked_cells("Q", 2, 1, N, M, D, DK)
    assert linked_cells("K_rope", 4, 0, N, M, D, DK) == linked_cells("K", 4, 0, N, M, D, DK)
    q = linked_cells("Q_rope", 2, 1, N, M, D, DK)
    assert q["Q"] == q["Q_rope"] == [(2, 0, 1, DK)]
    k = linked_cells("K_rope", 4, 0, N, M, D, DK)
    assert k["K"] == k["K_rope"] == [(4, 0, 1, DK)]
    assert k["weights"] == [(0, 4, N, 1)]


def test_a_weight_outlines_the_rotated_rows_beside_the_plain_ones():
    links = linked_cells("weights", 1, 3, N, M, D, DK)
    assert links["Q_rope"] == links["Q"] == [(1, 0, 1, DK)]
    assert links["K_rope"] == links["K"] == [(3, 0, 1, DK)]


def test_x_with_positions_links_like_x():
    assert linked_cells("X_pos", 1, 2, N, N, D, DK) == linked_cells("X", 1, 2, N, N, D, DK)
    links = linked_cells("X_pos", 1, 2, N, N, D, DK)
    assert links["X_pos"] == links["X"] == [(1, 0, 1, D)]
    assert links["Q"] == links["K"] == links["V"] == [(1, 0, 1, DK)]
    w = linked_cells("weights", 0, 3, N, N, D, DK)
    assert w["X_pos"] == w["X"] == [(0, 0, 1, D), (3, 0, 1, D)]


def test_in_cross_mode_x_with_positions_is_only_the_queries_input():
    w = linked_cells("weights", 0, 4, N, M, D, DK, cross=True)
    assert w["X_pos"] == [(0, 0, 1, D)] and w["X_kv"] == [(4, 0, 1, D)]
    x = linked_cells("X_pos", 1, 0, N, M, D, DK, cross=True)
    assert x["Q"] == [(1, 0, 1, DK)] and "K" not in x and "V" not in x


def test_unknown_matrix_links_nothing():
    assert linked_cells("nothing", 0, 0, N, M, D, DK) == {}


# ------------------------------------------------------------------ mask and bias
def test_a_mask_or_bias_cell_outlines_the_scores_it_applies_to_not_q_and_k():
    """mask[i, j] and ALiBi's bias[i, j] = −slope·|i − j| come from the positions i and
    j, not from q_i and k_j: they outline the (i, j) cell of the n × m panes, the scaled
    score they are added to and the weight they make, and no Q, K or X row."""
    for name in POSITION_ONLY:
        links = linked_cells(name, 1, 3, N, M, D, DK)
        for nm in NM_MATRICES:
            assert links[nm] == [(1, 3, 1, 1)], (name, nm)
        for row_matrix in ("Q", "K", "X", "X_kv", "V", "Q_rope", "K_rope", "X_pos"):
            assert row_matrix not in links, (name, row_matrix)


def test_a_score_still_outlines_its_query_and_key_rows():
    links = linked_cells("scores", 1, 3, N, M, D, DK)
    assert links["Q"] == [(1, 0, 1, DK)] and links["K"] == [(3, 0, 1, DK)]
    assert links["mask"] == links["bias"] == [(1, 3, 1, 1)]


def test_a_masked_mask_cell_reaches_no_output_row():
    assert "output" not in linked_cells("mask", 0, 3, N, M, D, DK, masked=True)
    assert linked_cells("bias", 3, 0, N, M, D, DK)["output"] == [(3, 0, 1, DK)]


# ------------------------------------------------------------------ several heads
def test_a_value_cell_outlines_its_column_of_the_concatenation():
    """Head h's output column c is concat column h·d_k + c: V[4, 2] of head 2 (of 3)
    reaches output column 2, so concat column 1·3 + 2 = 5."""
    links = pane_links("V", 4, 2, N, M, D, DK, head=1, n_heads=3)
    assert links["output"] == [(0, 2, N, 1)]
    assert links["concat"] == [(0, 5, N, 1)]


def test_head_output_rows_map_to_their_block_of_the_concatenation():
    links = pane_links("weights", 1, 3, N, M, D, DK, head=2, n_heads=3)
    assert links["concat"] == [(1, 6, 1, DK)]
    # the hovered output cell: once, where concat_links put it
    out = pane_links("output", 2, 1, N, M, D, DK, head=1, n_heads=3, projection=True)
    assert out["concat"] == [(2, 4, 1, 1)] and out["projected"] == [(2, 0, 1, D)]


def test_one_head_has_no_concatenation_links():
    assert "concat" not in pane_links("V", 4, 2, N, M, D, DK, head=0, n_heads=1)
    assert pane_links("V", 4, 2, N, M, D, DK, head=0, n_heads=1) == \
        linked_cells("V", 4, 2, N, M, D, DK)
