"""A pinned cell follows its tokens by the rows each edit really moved (``RowMap``), not
by their names: a move keeps every name, duplicates ("[PAD] [PAD]", "very very") are
common, and a delete of rows far apart has two changed stretches. First Qt-free (the
edits and ``move_cell``), then the model: the undo and redo of each edit, loads, the
hover (a position) and the pin the views are given before the result of an edit."""

from __future__ import annotations

import numpy as np
import pytest

from qkv_desktop.state import CellRef, SessionState, edits
from qkv_desktop.state.catalogue import RowMap, move_cell

TUTORIAL = SessionState.from_preset("tutorial-1")  # 我 爱 人工 智能
PIN = CellRef("weights", 2, 1)  # 人工 → 爱


def moved(state, edit, ref=PIN):
    return move_cell(ref, state, edit.state, edit.moved)


def back(state, edit, ref):
    """``ref`` (a cell after ``edit``) as the undo of ``edit`` takes it."""
    return move_cell(ref, edit.state, state, edit.moved.inverse())


def pair(state, ref):
    return state.tokens[ref.row], state.key_tokens[ref.col]


def twin_love() -> SessionState:
    """我 爱 爱 智能: two tokens of one name, with different values."""
    s = edits.rename_token(TUTORIAL, "X", 2, "爱").state
    assert s.tokens == ("我", "爱", "爱", "智能")
    assert not np.array_equal(s.X[1], s.X[2])
    return s


def test_a_moved_token_takes_the_pin_with_it():
    edit = edits.move_token(TUTORIAL, "X", 2, 1)  # Alt+Up on 人工
    assert edit.state.tokens == ("我", "人工", "爱", "智能")
    assert moved(TUTORIAL, edit) == CellRef("weights", 1, 2)  # was None by the names
    assert pair(edit.state, moved(TUTORIAL, edit)) == ("人工", "爱")
    assert back(TUTORIAL, edit, CellRef("weights", 1, 2)) == PIN
    down = edits.move_token(TUTORIAL, "X", 1, 3)  # 爱 to the end: 我 人工 智能 爱
    assert moved(TUTORIAL, down) == CellRef("weights", 1, 3)


def test_rows_deleted_far_apart_keep_the_pin_of_two_surviving_tokens():
    edit = edits.delete_tokens(TUTORIAL, "X", [0, 3])
    assert edit.state.tokens == ("爱", "人工")
    assert moved(TUTORIAL, edit) == CellRef("weights", 1, 0)  # was None by the names
    assert back(TUTORIAL, edit, CellRef("weights", 1, 0)) == PIN
    assert moved(TUTORIAL, edit, CellRef("weights", 0, 1)) is None  # 我 is gone


def test_a_deleted_duplicate_lets_its_pin_go_and_the_other_keeps_its_own():
    s = twin_love()
    edit = edits.delete_tokens(s, "X", [1])  # the first 爱
    assert edit.state.tokens == ("我", "爱", "智能")
    # its row is gone: not kept at X[1], which is now the other 爱 (other values)
    assert moved(s, edit, CellRef("X", 1, 0)) is None
    assert moved(s, edit, CellRef("weights", 1, 0)) is None
    # the surviving 爱 keeps its pin (was dropped by the names) …
    assert moved(s, edit, CellRef("X", 2, 3)) == CellRef("X", 1, 3)
    assert moved(s, edit, CellRef("weights", 2, 0)) == CellRef("weights", 1, 0)
    # … and the undo takes it back to its own row 2, not the first 爱's row 1
    assert back(s, edit, CellRef("X", 1, 3)) == CellRef("X", 2, 3)
    assert back(s, edit, CellRef("weights", 2, 1)) == CellRef("weights", 3, 2)  # 智能 → 爱


def test_a_move_among_duplicates_follows_the_row_not_the_name():
    s = twin_love()
    edit = edits.move_token(s, "X", 1, 2)  # the names stay 我 爱 爱 智能
    assert edit.state.tokens == s.tokens
    assert moved(s, edit, CellRef("X", 1, 0)) == CellRef("X", 2, 0)
    np.testing.assert_array_equal(edit.state.X[2], s.X[1])


def test_inserts_and_a_paste_that_grows_the_table():
    at0 = edits.insert_tokens(TUTORIAL, "X", 0)
    assert moved(TUTORIAL, at0) == CellRef("weights", 3, 2)
    assert back(TUTORIAL, at0, CellRef("weights", 3, 2)) == PIN
    assert back(TUTORIAL, at0, CellRef("weights", 0, 2)) is None  # the new token: undone
    two = edits.insert_tokens(TUTORIAL, "X", 2, count=2)
    assert moved(TUTORIAL, two) == CellRef("weights", 4, 1)
    assert moved(TUTORIAL, edits.insert_tokens(TUTORIAL, "X", 4)) == PIN
    paste = edits.paste_block(TUTORIAL, "X", 3, 0, np.ones((3, 2)))  # rows 4 and 5 are new
    assert paste.state.n == 6
    assert moved(TUTORIAL, paste) == PIN
    assert moved(TUTORIAL, paste, CellRef("weights", 3, 3)) == CellRef("weights", 3, 3)
    assert back(TUTORIAL, paste, CellRef("weights", 5, 1)) is None
    assert back(TUTORIAL, paste, PIN) == PIN


def test_edits_that_move_no_row_keep_the_pin():
    for edit in (edits.rename_token(TUTORIAL, "X", 2, "AI"), edits.set_seed(TUTORIAL, 9),
                 edits.set_cells(TUTORIAL, "X", [2], [0], [0.5]),
                 edits.paste_block(TUTORIAL, "X", 0, 0, np.ones((2, 2)))):
        assert moved(TUTORIAL, edit) == PIN
    assert move_cell(CellRef("Q", 1, 3), TUTORIAL, TUTORIAL, RowMap()) == CellRef("Q", 1, 3)


def test_without_a_map_the_pin_is_let_go_not_guessed_from_names():
    same_names = TUTORIAL.with_(X=TUTORIAL.X[::-1].copy())
    assert move_cell(PIN, TUTORIAL, same_names, None) is None  # a load, an import
    # an edit that moves rows but gives no map: not kept at a row of another token
    shorter = edits.delete_tokens(TUTORIAL, "X", [0]).state
    assert move_cell(CellRef("weights", 1, 1), TUTORIAL, shorter, RowMap()) is None


def cross_state() -> SessionState:
    s = edits.set_mode(TUTORIAL, "cross").state
    return s.with_(kv_tokens=("a", "b", "c"), X_kv=np.arange(3 * s.d_model, dtype=float)
                   .reshape(3, s.d_model))


def test_cross_attention_keys_follow_the_key_value_rows():
    s = cross_state()
    pin = CellRef("weights", 2, 1)  # 人工 → b
    edit = edits.insert_tokens(s, "X_kv", 0)
    assert edit.state.kv_tokens == ("new", "a", "b", "c")
    assert moved(s, edit, pin) == CellRef("weights", 2, 2)  # the column follows b
    assert moved(s, edit, CellRef("X_kv", 2, 0)) == CellRef("X_kv", 3, 0)
    assert moved(s, edit, CellRef("X", 2, 0)) == CellRef("X", 2, 0)
    assert back(s, edit, CellRef("weights", 2, 2)) == pin
    queries = edits.insert_tokens(s, "X", 0)  # the rows follow X, the columns stay
    assert moved(s, queries, pin) == CellRef("weights", 3, 1)
    gone = edits.delete_tokens(s, "X_kv", [1])
    assert moved(s, gone, pin) is None and moved(s, gone, CellRef("V", 2, 0)) == CellRef("V", 1, 0)
    # self- ↔ cross-attention: the keys are another sequence's; the queries stay
    to_self = edits.set_mode(s, "self")
    assert moved(s, to_self, pin) is None
    assert moved(s, to_self, CellRef("Q", 2, 0)) == CellRef("Q", 2, 0)


def test_merged_maps_compose():
    first = edits.insert_tokens(TUTORIAL, "X", 0)
    second = edits.move_token(first.state, "X", 3, 0)  # 人工 to the top
    both = first.moved.then(second.moved)
    assert second.state.tokens == ("人工", "new", "我", "爱", "智能")
    assert move_cell(PIN, TUTORIAL, second.state, both) == CellRef("weights", 0, 3)
    assert move_cell(CellRef("weights", 0, 3), second.state, TUTORIAL,
                     both.inverse()) == PIN


@pytest.mark.parametrize("table", ["X", "X_kv"])
def test_every_token_edit_says_where_each_row_went(table):
    """The map of each edit agrees with the rows it built (a row's values went there)."""
    s = cross_state()
    X = getattr(s, table)
    for edit in (edits.insert_tokens(s, table, 1, count=2),
                 edits.delete_tokens(s, table, [0, 2]),
                 edits.move_token(s, table, 0, 2),
                 edits.paste_block(s, table, 2, 0, np.full((3, 1), 7.0))):
        after, undo = getattr(edit.state, table), edit.moved.inverse()
        went = [edit.moved.row(table, i) for i in range(X.shape[0])]
        for i, j in enumerate(went):
            if j is not None:
                np.testing.assert_array_equal(after[j, 1:], X[i, 1:])
                assert undo.row(table, j) == i
        new = set(range(after.shape[0])) - set(went)  # inserted, or grown by the paste
        assert all(undo.row(table, j) is None for j in new)
        assert len(new) == after.shape[0] - sum(j is not None for j in went)


# ------------------------------------------ the model: do, undo and redo of each edit
def steps(model, edit, *expected):
    """Do ``edit`` (a callable), then undo, redo: the pin after each is ``expected``."""
    pins = []
    edit()
    pins.append(model.selection)
    model.undo_stack.undo()
    pins.append(model.selection)
    model.undo_stack.redo()
    pins.append(model.selection)
    assert pins == list(expected)


def test_the_model_moves_the_pin_through_each_edit_its_undo_and_its_redo(model):
    model.set_selection(PIN)
    steps(model, lambda: model.move_token("X", 2, 1), CellRef("weights", 1, 2), PIN,
          CellRef("weights", 1, 2))
    model.undo_stack.undo()
    steps(model, lambda: model.delete_tokens("X", [0, 3]), CellRef("weights", 1, 0), PIN,
          CellRef("weights", 1, 0))
    model.undo_stack.undo()
    steps(model, lambda: model.insert_tokens("X", 0), CellRef("weights", 3, 2), PIN,
          CellRef("weights", 3, 2))
    model.undo_stack.undo()
    paste = np.ones((3, 2))
    steps(model, lambda: model.paste_block("X", 3, 0, paste), PIN, PIN, PIN)
    model.set_selection(CellRef("weights", 5, 1))  # a row the paste added
    model.undo_stack.undo()
    assert model.selection is None


def test_the_model_tells_duplicates_apart(model):
    model.reset(twin_love())
    survivor = CellRef("X", 2, 3)  # the second 爱
    model.set_selection(survivor)
    steps(model, lambda: model.delete_tokens("X", [1]), CellRef("X", 1, 3), survivor,
          CellRef("X", 1, 3))
    model.undo_stack.undo()
    model.set_selection(CellRef("X", 1, 0))  # the first 爱, deleted
    steps(model, lambda: model.delete_tokens("X", [1]), None, None, None)


def test_the_model_moves_a_key_column_with_the_key_value_rows(model):
    model.reset(cross_state())
    pin = CellRef("weights", 2, 1)  # 人工 → b
    model.set_selection(pin)
    steps(model, lambda: model.insert_tokens("X_kv", 0), CellRef("weights", 2, 2), pin,
          CellRef("weights", 2, 2))
    # b to the top of new a b c: the names say nothing of a move
    steps(model, lambda: model.move_token("X_kv", 2, 0), CellRef("weights", 2, 0),
          CellRef("weights", 2, 2), CellRef("weights", 2, 0))
    assert model.state.kv_tokens == ("b", "new", "a", "c")


def test_a_load_lets_the_pin_go_and_its_undo_does_not_guess(model):
    model.set_selection(PIN)
    model.load_state(TUTORIAL.with_(X=TUTORIAL.X[::-1].copy()), "Load")
    assert model.selection is None
    model.set_selection(PIN)
    model.undo_stack.undo()  # back to the rows before the load: not the same tokens
    assert model.selection is None


def test_a_merged_step_moves_no_pin_it_should_not(model):
    model.set_selection(PIN)
    model.set_seed(3)
    model.set_seed(4)  # merges with the one before
    model.undo_stack.undo()
    model.undo_stack.redo()
    assert model.selection == PIN


def test_the_hover_is_a_position_and_stays_only_while_its_pane_keeps_its_shape(model):
    model.set_hover(PIN)
    model.move_token("X", 2, 1)  # the same 4 × 4 weights: the cell under the cursor
    assert model.hover == PIN
    model.insert_tokens("X", 0)  # 5 × 5: another cell is under the cursor now
    assert model.hover is None
    model.set_hover(CellRef("Q", 1, 1))
    model.undo_stack.undo()
    assert model.hover is None


def test_the_pin_on_display_is_the_one_of_the_result_on_display(model):
    """Between an edit that moves the pin and its result, the views show the result
    before the edit: the pin they are given is where it was in that result."""
    assert model.wait_until_idle()
    model.set_selection(PIN)
    shown = []
    model.selectionChanged.connect(lambda _ref: shown.append(model.shown_selection))
    model.resultChanged.connect(lambda _r: shown.append(model.shown_selection))
    model.insert_tokens("X", 0)
    assert model.selection == CellRef("weights", 3, 2)
    assert model.shown_selection == PIN  # the result is still the one of 我 爱 人工 智能
    assert model.wait_until_idle()
    assert model.shown_selection == CellRef("weights", 3, 2)
    assert shown == [PIN, CellRef("weights", 3, 2)]
    model.delete_tokens("X", [3])  # 人工 itself
    assert model.selection is None
    assert model.wait_until_idle() and model.shown_selection is None
