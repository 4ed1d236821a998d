"""An edit's undo text writes its values as the tables and panes do (four decimals,
``presentation.numbers.format_value``), not by a rule of its own: a first-time user
read "X[我, d0] 0.0496714 → 1.5" in the Edit menu beside a cell that said 0.0497."""

from qkv_desktop.presentation.numbers import format_value


def test_a_typed_value_is_named_with_the_tables_four_decimals(model):
    model.set_cell("X", 0, 0, 0.0496714)
    assert model.undo_stack.undoText() == "X[我, d0] 0.8000 → 0.0497"
    model.set_cell("X", 0, 0, 1.5)
    assert model.undo_stack.undoText() == "X[我, d0] 0.0497 → 1.5000"
    model.set_cell("X", 0, 0, -123456.0)
    assert model.undo_stack.undoText() == (
        f"X[我, d0] 1.5000 → {format_value(-123456.0)}")  # "−1.235e+05", its minus sign too


def test_a_weight_is_named_with_four_decimals(model):
    old = model.state.heads[0].W_K[1, 2]
    model.set_weight(0, "W_K", 1, 2, 0.5)
    assert model.undo_stack.undoText() == f"W_K[d1, 2] {format_value(old)} → 0.5000"



def test_values_that_four_decimals_write_alike_get_the_decimals_that_tell_them_apart(model):
    """0.8 → 0.80001 would read "0.8000 → 0.8000", an undo step that seems to change
    nothing: such a pair gets the fewest decimals past four that tell it apart."""
    model.set_cell("X", 0, 0, 0.80001)
    assert model.undo_stack.undoText() == "X[我, d0] 0.80000 → 0.80001"
    model.set_cell("X", 0, 0, -0.80001)  # four decimals tell these apart
    assert model.undo_stack.undoText() == "X[我, d0] 0.8000 → −0.8000"
    model.set_cell("X", 0, 0, -0.8000100001)
    assert model.undo_stack.undoText() == "X[我, d0] −0.8000100000 → −0.8000100001"
    model.set_cell("X", 0, 0, 1e-20)
    model.set_cell("X", 0, 0, 2e-20)  # no count of decimals tells these apart
    assert model.undo_stack.undoText() == "X[我, d0] 1e−20 → 2e−20"
