"""An edit of one value of a large X copies only what it changes (issue 20).

States are immutable, so every edit made a whole new X on the GUI thread: 12.5 MB at
2048 × 768, 50 MB at 8192, into fresh memory that the VM took up to 480 ms to hand out.
``state.cow_matrix`` shares the unchanged pages instead, and says which cells an edit
wrote, so the token table and the float32 range check look at those cells only.
Byte counts (``tracemalloc`` sees every NumPy allocation) and call counts, never times.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from qkv_desktop.state import cow_matrix, edits
from qkv_desktop.state.edits import EditError
from qkv_desktop.state.session_state import Options, SessionState

N, D = 2048, 768
needs_sharing = pytest.mark.skipif(not cow_matrix._SHARING, reason="no memfd here")


def _state(dtype: str = "float64", n: int = N) -> SessionState:
    rng = np.random.default_rng(0)
    return SessionState.initialised([f"t{i}" for i in range(n)],
                                    rng.standard_normal((n, D)).round(3), d_k=4,
                                    options=Options(dtype=dtype))


def _allocated_during(fn) -> int:
    """The peak of NumPy's (and Python's) allocations while ``fn`` runs, in bytes."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _faults_during(fn) -> int:
    """The process's minor page faults while ``fn`` runs: new memory, written or read
    for the first time, faults in page by page (a memory file's copy too, which
    ``tracemalloc`` does not see)."""
    import resource
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    fn()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@needs_sharing
def test_an_edit_of_a_large_x_copies_no_row_it_did_not_change():
    state = _state()
    cow_matrix.share_for_edits(state.X)  # the forward's worker does this (see below)
    before = state.X.copy()
    out = {}
    peak = _allocated_during(lambda: out.setdefault(
        "edit", edits.set_cells(state, "X", [5], [7], [9.5])))
    X = out["edit"].state.X
    assert peak < state.X.nbytes / 50, peak  # the old edit copied all 12.5 MB
    assert cow_matrix.shares_pages(X) and not X.flags.writeable
    assert X[5, 7] == 9.5 and np.array_equal(state.X, before)  # the old state is intact
    expected = before.copy()
    expected[5, 7] = 9.5
    assert np.array_equal(X, expected)


@needs_sharing
def test_the_first_edit_after_a_large_forward_copies_nothing_on_the_gui_thread(qapp):
    """The model's worker shares X after the forward, so even the first edit maps."""
    from qkv_desktop.model import AttentionModel
    model = AttentionModel(_state())
    try:
        model.set_cell("X", 0, 0, 1.0)  # a large state: the forward runs on the worker
        assert model.wait_until_idle()
        X = model.state.X
        faults = _faults_during(lambda: model.set_cell("X", 1, 1, 2.0))
        assert faults < X.nbytes / 4096 / 50, faults  # a copy of X faults in every page
        assert cow_matrix.shares_pages(model.state.X)
        assert cow_matrix.edit_of(X, model.state.X)[0].tolist() == [1]
        model.undo_stack.undo()
        assert model.state.X[1, 1] == X[1, 1] and cow_matrix.shares_pages(model.state.X)
    finally:
        model.shutdown()


@needs_sharing
def test_the_first_edit_of_a_large_session_just_opened_copies_nothing(qapp):
    """A model built on a large state computes its first forward at once, on the GUI
    thread (start-up); the copy the first edit shares is made on a thread of its own."""
    import threading

    from qkv_desktop.model import AttentionModel
    model = AttentionModel(_state())
    try:
        for thread in threading.enumerate():
            if thread.name == "qkv-share":
                thread.join()
        X = model.state.X
        faults = _faults_during(lambda: model.set_cell("X", 1, 1, 2.0))
        assert faults < X.nbytes / 4096 / 50, faults  # a copy of X faults in every page
        assert cow_matrix.shares_pages(model.state.X)
    finally:
        model.shutdown()


def test_edited_copies_hold_exactly_what_plain_copies_would(monkeypatch):
    """Edits, branches (an undo then a new edit) and rebases (a diff grown past
    ``REBASE_CELLS``) give the bits of a plain copy, and never change their source."""
    monkeypatch.setattr(cow_matrix, "REBASE_CELLS", 40)
    rng = np.random.default_rng(1)
    X = rng.standard_normal((600, 300))  # 1.4 MB: shared where the system allows
    X.flags.writeable = False
    kept = [(X, X.copy())]
    for step in range(120):
        source, plain = kept[rng.integers(len(kept))]  # any earlier version, as undo gives
        count = int(rng.integers(1, 4))
        rows, cols = rng.integers(0, 600, count), rng.integers(0, 300, count)
        values = rng.standard_normal(count)
        copy = cow_matrix.edited_copy(source, rows, cols, values)
        expected = plain.copy()
        expected[rows, cols] = values
        assert np.array_equal(copy, expected), step
        assert not copy.flags.writeable
        assert cow_matrix.edit_of(source, copy) is not None
        assert cow_matrix.edit_of(X, copy) is None or source is X
        kept = (kept + [(copy, expected)])[-6:]
    for array, plain in kept:
        assert np.array_equal(array, plain)


@needs_sharing
def test_a_float32_edit_checks_the_range_of_the_cells_it_wrote_only():
    """The range check read X's max and min at every edit of a float32 session (7 ms at
    8192 × 768). An edited copy is a fresh mapping whose pages are read in only when
    touched, so the page faults of an edit count how much of X it read."""
    import resource
    state = _state("float32")
    cow_matrix.share_for_edits(state.X)
    state = edits.set_cells(state, "X", [0], [0], [1.0]).state
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    edit = edits.set_cells(state, "X", [3], [4], [2.5])
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    pages = state.X.nbytes // 4096
    assert faults < pages / 50, (faults, pages)  # reading all of X faults in ≥ 1/16 of its pages
    assert edit.state.X[3, 4] == 2.5 and edit.state.X[0, 0] == 1.0
    with pytest.raises(EditError, match="float32"):
        edits.set_cells(edit.state, "X", [9], [9], [1e39])  # still refused


@pytest.mark.parametrize("sharing", [True, False], ids=["memfd", "plain copies"])
def test_the_token_table_follows_an_edit_of_a_large_x_by_its_cells(qapp, monkeypatch, sharing):
    """At 2048 × 768 (above ``MAX_CELL_DIFF``) an edit announced the whole table, which
    repainted every visible cell (9 ms), and found X's largest value with a pass over
    all of it. Now the table announces the edited cell, and its largest value changes
    without a pass unless the edited cell was the largest."""
    from PySide6.QtCore import Qt

    from qkv_desktop.model import AttentionModel
    from qkv_desktop.views.editors import matrix_table
    if sharing and not cow_matrix._SHARING:
        pytest.skip("no memfd here")
    monkeypatch.setattr(cow_matrix, "_SHARING", sharing)  # False: as on macOS and Windows
    passes = []
    real = matrix_table.max_abs_finite
    monkeypatch.setattr(matrix_table, "max_abs_finite",
                        lambda M: passes.append(M.shape) or real(M))
    model = AttentionModel(_state())
    try:
        table = matrix_table.MatrixTableModel(model, "X")
        announced = []
        table.dataChanged.connect(lambda a, b: announced.append(
            ((a.row(), a.column()), (b.row(), b.column()))))
        table.data(table.value_index(0, 0), Qt.ItemDataRole.BackgroundRole)  # tints made
        table.widest_text()
        table.data(table.value_index(10, 20), Qt.ItemDataRole.BackgroundRole)
        passes.clear()
        coloured = []
        real_rgba = matrix_table.map_to_rgba
        monkeypatch.setattr(matrix_table, "map_to_rgba",
                            lambda M, *a: coloured.append(M.shape) or real_rgba(M, *a))
        model.set_cell("X", 10, 20, 0.5)
        assert announced == [((10, 21), (10, 21))]  # column 0 holds the token names
        assert passes == [] and table.data(table.value_index(10, 20)) == "0.5000"
        tint = table.data(table.value_index(10, 20), Qt.ItemDataRole.BackgroundRole)
        assert coloured == [(1, 1)]  # the cell, not its block of 64 rows × 768
        other = matrix_table.MatrixTableModel(model, "X")  # made afresh, after the edit
        assert tint == other.data(other.value_index(10, 20), Qt.ItemDataRole.BackgroundRole)
        r, c = np.unravel_index(np.argmax(np.abs(model.state.X)), model.state.X.shape)
        passes.clear()
        model.set_cell("X", int(r), int(c), 0.0)  # the largest value edited away
        fresh = matrix_table.MatrixTableModel(model, "X")
        assert table.widest_text() == fresh.widest_text()
        assert len(passes) == 3  # one each: this table, ``other`` and ``fresh``
        model.set_cell("X", 1, 1, 99.0)  # a new largest value: new colour levels
        assert table.widest_text() == fresh.widest_text() == "−99.0000"
    finally:
        model.shutdown()


@needs_sharing
def test_edited_copies_hold_no_file_descriptor():
    """An undo history holds every edited copy. With Python's ``mmap`` each copy kept a
    duplicate descriptor of its memory file: 200 edits held 200 descriptors, and at a
    soft limit of 1024 the app could no longer open a file to save."""
    import os

    def descriptors() -> int:
        return len(os.listdir("/proc/self/fd"))

    X = np.random.default_rng(2).standard_normal((1024, 768))
    X.flags.writeable = False
    kept = [X]
    before = descriptors()
    for i in range(200):
        kept.append(cow_matrix.edited_copy(kept[-1], [i], [0], [float(i)]))
    assert cow_matrix.shares_pages(kept[-1])
    assert descriptors() - before <= 2  # the bases' memory files, not one per copy
    assert [float(kept[-1][i, 0]) for i in range(200)] == [float(i) for i in range(200)]
    view = kept[-1][10:20]
    del kept[1:]
    assert view[0, 0] == 10.0  # a view keeps its mapping alive


def test_an_edit_of_a_value_checks_no_token_name_again():
    """Every new state checked each of its names (8192 at each edit of a long session)."""
    measured = []

    class Name(str):
        def __len__(self):
            measured.append(self)
            return super().__len__()

    rng = np.random.default_rng(0)
    state = SessionState.initialised([Name(f"t{i}") for i in range(64)],
                                     rng.standard_normal((64, 8)), d_k=4)
    assert measured  # checked once, when the tuple of names was new
    measured.clear()
    edit = edits.set_cells(state, "X", [3], [4], [2.5])
    assert edit.state.tokens is state.tokens and measured == []
    with pytest.raises(ValueError, match="non-empty"):
        SessionState.initialised(["a", ""], np.zeros((2, 8)), d_k=4)  # still refused


@needs_sharing
def test_xs_that_are_not_edited_copies_keep_only_a_few_memory_files(monkeypatch):
    """Every paste, inserted token or d_model change makes an X with no base; the
    forward's worker shares each one (a memory file and a full copy of X), and the
    undo history keeps them all. Only the ``OPEN_BASES`` newest keep their file; an
    edit of an older one (after undoing back to it) still gives a plain copy's bits."""
    import os

    def descriptors() -> int:
        return len(os.listdir("/proc/self/fd"))

    rng = np.random.default_rng(5)
    before = descriptors()
    history = []
    for _ in range(20):
        X = rng.standard_normal((512, 512))
        X.flags.writeable = False
        cow_matrix.share_for_edits(X)
        history.append(X)
    assert descriptors() - before <= cow_matrix.OPEN_BASES
    oldest = history[0]
    copy = cow_matrix.edited_copy(oldest, [3], [4], [7.0])
    expected = oldest.copy()
    expected[3, 4] = 7.0
    assert np.array_equal(copy, expected) and cow_matrix.shares_pages(copy)
    assert cow_matrix.edit_of(oldest, copy)[0].tolist() == [3]
    assert descriptors() - before <= cow_matrix.OPEN_BASES


@needs_sharing
def test_edits_scattered_over_many_pages_make_a_new_base():
    """Each copy writes its base's whole diff again: once the diff covers more than
    ``REBASE_PAGES`` of the pages, the next copy is a base of its own."""
    X = np.random.default_rng(6).standard_normal((512, 1024))  # 1024 pages of 4 kB
    X.flags.writeable = False
    cow_matrix.share_for_edits(X)
    first = cow_matrix._lineage(X).base
    current, bases = X, []
    for row in range(200):  # column 0 of each row: one page per edit
        current = cow_matrix.edited_copy(current, [row], [0], [float(row)])
        bases.append(cow_matrix._lineage(current).base)
    share = cow_matrix.REBASE_PAGES * X.nbytes / cow_matrix._PAGE  # 128 pages
    switch = next(i for i, base in enumerate(bases) if base is not first)
    assert share - 1 <= switch <= share + 1  # the old rule waited for 4096 cells
    assert [float(current[r, 0]) for r in range(200)] == [float(r) for r in range(200)]
