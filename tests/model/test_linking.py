"""Hover rules: which cells a hovered cell is made of, or feeds."""

from qkv_desktop.state.linking import linked_cells

N, M, D, DK = 4, 5, 8, 3


def test_weight_cell_links_its_query_key_and_score_cells():
    links = linked_cells("weights", 1, 3, N, M, D, DK)
    assert links["Q"] == [(1, 0, 1, DK)]
    assert links["K"] == [(3, 0, 1, DK)]
    for name in ("scores", "scaled", "weights"):
        assert links[name] == [(1, 3, 1, 1)]
    assert links["X"] == [(1, 0, 1, D), (3, 0, 1, D)]  # query and key token vectors
    assert links["output"] == [(1, 0, 1, DK)]
    assert "V" not in links


def test_output_row_links_the_weight_row_and_all_of_v():
    links = linked_cells("output", 2, 1, N, M, D, DK)
    assert links["weights"] == [(2, 0, 1, M)]
    assert links["V"] == [(0, 0, M, DK)]
    assert "Q" not in links and "K" not in links


def test_query_row_links_its_input_row_and_its_score_rows():
    links = linked_cells("Q", 2, 0, N, M, D, DK)
    assert links["X"] == [(2, 0, 1, D)]
    for name in ("scores", "scaled", "weights"):
        assert links[name] == [(2, 0, 1, M)]


def test_key_and_value_rows_link_columns():
    k = linked_cells("K", 1, 0, N, M, D, DK)
    assert k["scores"] == [(0, 1, N, 1)] and k["X"] == [(1, 0, 1, D)]
    v = linked_cells("V", 4, 2, N, M, D, DK)
    assert v["weights"] == [(0, 4, N, 1)] and v["output"] == [(0, 0, N, DK)]
    assert "scores" not in v


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


def test_unknown_matrix_links_nothing():
    assert linked_cells("nothing", 0, 0, N, M, D, DK) == {}
