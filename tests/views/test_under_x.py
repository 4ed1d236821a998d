"""Keyboard focus and what the eye sees, on a real X display (Xvfb): offscreen Qt has
neither real focus nor real window activation."""

import pytest

from tests.xdisplay import run_on_display

pytestmark = pytest.mark.xvfb


def test_ctrl_z_after_a_spin_box_change_is_the_applications_undo(x_display, tmp_path):
    out = run_on_display(x_display, tmp_path, '''
        spin = window.controls.d_k
        spin.setFocus()
        QTest.keyClick(spin, Qt.Key.Key_Up)  # d_k 4 -> 5, focus stays in the spin box
        assert window.model.wait_until_idle()
        out["after_step"] = window.model.state.d_k
        out["focus_in_spin"] = QApplication.focusWidget() in (spin, spin.lineEdit())
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert window.model.wait_until_idle()
        out["after_undo"] = window.model.state.d_k
        out["spin_shows"] = spin.value()
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        assert window.model.wait_until_idle()
        out["after_redo"] = window.model.state.d_k
    ''')
    assert out == {"after_step": 5, "focus_in_spin": True, "after_undo": 4, "spin_shows": 4,
                   "after_redo": 5}


def test_ctrl_y_redoes_too_even_from_a_spin_box(x_display, tmp_path):
    """Ctrl+Y, Redo on Windows and in office programs, redoes as Ctrl+Shift+Z does (a
    first-time user pressed it and nothing happened)."""
    out = run_on_display(x_display, tmp_path, '''
        spin = window.controls.d_k
        spin.setFocus()
        QTest.keyClick(spin, Qt.Key.Key_Up)  # d_k 4 -> 5, focus stays in the spin box
        assert window.model.wait_until_idle()
        ctrl = Qt.KeyboardModifier.ControlModifier
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, ctrl)
        assert window.model.wait_until_idle()
        out["after_undo"] = window.model.state.d_k
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Y, ctrl)
        assert window.model.wait_until_idle()
        out["after_ctrl_y"] = window.model.state.d_k
    ''')
    assert out == {"after_undo": 4, "after_ctrl_y": 5}


def test_the_undo_filter_watches_the_focus_chain_not_every_event(x_display, tmp_path):
    """It sees the override where Qt offers it (the focus widget, its parents) and moves
    with the focus; an application-wide filter in Python saw every event of the app."""
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtCore import QCoreApplication, QEvent
        from qkv_desktop.views.window_shortcuts import WindowShortcutsWin
        seen = []
        original = WindowShortcutsWin.eventFilter
        WindowShortcutsWin.eventFilter = (
            lambda self, obj, event: seen.append(obj) or original(self, obj, event))
        keys = window.shortcuts_win
        spin = window.controls.d_k
        spin.setFocus()
        app.processEvents()
        out["spin_chain"] = keys.watched[0] is spin and keys.watched[-1] is window
        pane = window.panes.panes["weights"].plot.viewport()
        del seen[:]
        QCoreApplication.sendEvent(pane, QEvent(QEvent.Type.User))
        out["pane_event_seen"] = pane in seen
        window.editor.setFocus()
        app.processEvents()
        out["spin_watched"] = spin in keys.watched
        out["editor_first"] = keys.watched[0] is QApplication.focusWidget()
    ''')
    assert out == {"spin_chain": True, "pane_event_seen": False, "spin_watched": False,
                   "editor_first": True}


def test_ctrl_z_inside_a_cell_being_edited_undoes_the_typing(x_display, tmp_path):
    out = run_on_display(x_display, tmp_path, '''
        editor = window.editor
        index = editor.table.value_index(0, 0)
        editor.setFocus()
        editor.setCurrentIndex(index)
        QTest.keyClick(editor, Qt.Key.Key_F2)
        line = QApplication.focusWidget()
        QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(line, "0.9")
        QTest.keyClick(line, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        out["text"] = line.text()
        out["undo_steps"] = window.model.undo_stack.count()
    ''')
    assert out["undo_steps"] == 0 and out["text"] != "0.9"


def test_typing_abc_into_a_cell_is_refused_where_the_learner_looks(x_display, tmp_path):
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtWidgets import QWidget
        from qkv_desktop.state import CellRef
        window.model.set_hover(CellRef("Q", 2, 0))  # a long read-out in the status bar
        editor = window.editor
        index = editor.table.value_index(0, 0)
        editor.setFocus()
        editor.setCurrentIndex(index)
        QTest.keyClicks(editor, "abc")  # typing opens the cell editor
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
        for _ in range(5):
            app.processEvents()
        bar = window.statusBar()
        message = bar.currentMessage()
        shown = [w for w in bar.findChildren(QWidget)
                 if w.parentWidget() is bar and w.isVisible() and w.width() > 0]
        out["message"] = message
        out["room"] = min(w.x() for w in shown) - 8
        out["needed"] = bar.fontMetrics().horizontalAdvance(message)
        out["balloon"] = editor.balloon.isVisible() and editor.balloon.text()
        out["value"] = float(window.model.state.X[0, 0])
    ''')
    assert out["message"].startswith("Not applied: ")
    assert out["room"] >= out["needed"]
    assert out["balloon"] == out["message"]  # still shown after the Enter key's release
    assert out["value"] == 0.8


def test_lab_keys_on_a_real_display_space_arrows_and_ctrl_w(x_display, tmp_path):
    out = run_on_display(x_display, tmp_path, '''
        window.model.set_options(causal=True)
        assert window.model.wait_until_idle()
        lab = window.run_labs.show("kv_cache")
        lab.activateWindow()
        assert QTest.qWaitForWindowActive(lab)
        combo, field = lab.memory.preset, lab.memory.tokens
        combo.setFocus()  # a combo box has the focus: the keys still step the lab
        lab.controls.step.click()  # a click does not take the keyboard from the lab
        out["after_click"] = lab.position
        QTest.keyClick(combo, Qt.Key.Key_Right)
        QTest.keyClick(combo, Qt.Key.Key_Right)
        out["after_right"] = lab.position
        QTest.keyClick(combo, Qt.Key.Key_Left)
        out["after_left"] = lab.position
        out["preset"] = combo.currentData()
        field.setFocus()  # a number field being typed in keeps its arrows
        QTest.keyClick(field, Qt.Key.Key_Left)
        out["after_left_in_field"] = lab.position
        QTest.keyClick(field, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
        out["visible_after_ctrl_w"] = lab.isVisible()
    ''')
    assert out == {"after_click": 1, "after_right": 3, "after_left": 2, "preset": "session",
                   "after_left_in_field": 2, "visible_after_ctrl_w": False}


def test_esc_and_ctrl_w_close_the_scaling_lab(x_display, tmp_path):
    out = run_on_display(x_display, tmp_path, '''
        closed = []
        for key, modifier in ((Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier),
                              (Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)):
            window.teaching.show_lab()
            lab = window.teaching.lab
            wait_active(lab)
            QTest.keyClick(QApplication.focusWidget() or lab, key, modifier)
            app.processEvents()
            closed.append(not lab.isVisible())
        out["closed"] = closed
        out["main_window_open"] = window.isVisible()
    ''')
    assert out == {"closed": [True, True], "main_window_open": True}


def test_a_lab_takes_its_keys_as_soon_as_it_opens(x_display, tmp_path):
    """The KV stepper opened with the focus in its steps/s box, which keeps space and
    the arrows: → and space did nothing until a click elsewhere (a first user)."""
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit
        for key in ("kv_cache", "tiles"):
            lab = window.run_labs.show(key)
            wait_active(lab)
            for _ in range(5):
                app.processEvents()
            focus = QApplication.focusWidget()
            out[key + "_focus_typing"] = isinstance(focus, (QAbstractSpinBox, QLineEdit))
            before = lab.position
            QTest.keyClick(focus or lab, Qt.Key.Key_Right)
            out[key + "_stepped"] = lab.position - before
            QTest.keyClick(QApplication.focusWidget() or lab, Qt.Key.Key_Space)
            out[key + "_playing"] = lab.timer.isActive()
            lab.pause()
            lab.close()
            app.processEvents()
    ''')
    assert out == {"kv_cache_focus_typing": False, "kv_cache_stepped": 1,
                   "kv_cache_playing": True, "tiles_focus_typing": False,
                   "tiles_stepped": 1, "tiles_playing": True}


def test_ctrl_e_in_a_spin_box_is_export_all_with_the_number_typed(x_display, tmp_path):
    """On X11 a line edit claims Ctrl+E (to the end of its line): File → Export all's
    Ctrl+E did nothing while a box had the focus. The number typed there is exported;
    a key the window has no shortcut for stays the box's."""
    out = run_on_display(x_display, tmp_path, '''
        from qkv_desktop.views.actions.export_actions import ExportAllDialog
        asked = []

        def ask(cls, parent, choice, names, matrix_names=None, figure_sizes=None):
            asked.append(window.model.state.d_k)
            return None  # cancelled
        ExportAllDialog.ask = classmethod(ask)
        ctrl = Qt.KeyboardModifier.ControlModifier
        spin = window.controls.d_k
        spin.setFocus()
        app.processEvents()
        line = spin.lineEdit()
        line.selectAll()
        QTest.keyClicks(line, "6")  # no Enter
        out["before"] = window.model.state.d_k
        out["focus_in_spin"] = QApplication.focusWidget() in (spin, line)
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_E, ctrl)
        assert window.model.wait_until_idle()
        out["asked_with_d_k"] = asked
        QTest.keyClicks(line, "7")
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_U, ctrl)  # X11: empty the line
        out["after_ctrl_u"] = line.text()
        QTest.keyClicks(line, "5")
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A, ctrl)  # the box's select all
        out["selected"] = line.selectedText()
    ''')
    assert out == {"before": 4, "focus_in_spin": True, "asked_with_d_k": [6],
                   "after_ctrl_u": "", "selected": "5"}


def test_a_cells_refusal_note_goes_when_the_keyboard_moves_to_another_control(
        x_display, tmp_path):
    """A user's re-check: the note under a refused cell stayed over the table while they
    typed a new d_k. It stays after the Enter that said it, goes when the current cell
    moves on (an arrow key, a click on another cell: a first-time user clicked from cell
    to cell with the note still up, the keyboard never leaving the table), and goes with
    the keyboard to another control. (Focus needs a real display.)"""
    out = run_on_display(x_display, tmp_path, '''
        editor = window.editor
        window.activateWindow()
        QTest.qWaitForWindowActive(window)

        def refuse(row):
            editor.setFocus()
            editor.setCurrentIndex(editor.table.value_index(row, 0))
            QTest.keyClicks(editor, "abc")  # typing opens the cell editor
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
            for _ in range(3):  # the Enter's commit, then the rest of that pass
                app.processEvents()
            return editor.balloon.isVisible()

        out["after_enter"] = refuse(0)
        out["focus_in_table"] = QApplication.focusWidget() is editor
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down)  # still in the table
        app.processEvents()
        out["moved_down"] = editor.balloon.isVisible()
        out["shown_again"] = refuse(0)
        other = editor.visualRect(editor.table.value_index(1, 1)).center()
        QTest.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=other)
        app.processEvents()
        out["clicked_another_cell"] = editor.balloon.isVisible()
        out["focus_after_click"] = QApplication.focusWidget() is editor
        editor.setCurrentIndex(editor.table.value_index(0, 0))
        QTest.keyClicks(editor, "x")  # an editor open on a value not yet taken...
        QTest.keyClicks(QApplication.focusWidget(), "yz")
        QTest.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=other)
        app.processEvents()  # ...refused as the click leaves it: said, by its cell
        out["refused_by_the_click"] = editor.balloon.isVisible() and "xyz" in editor.balloon.text()
        out["shown_once_more"] = refuse(0)
        d_k = window.controls.d_k
        d_k.setFocus(Qt.FocusReason.TabFocusReason)
        app.processEvents()
        out["focus_in_d_k"] = d_k.isAncestorOf(QApplication.focusWidget())
        out["after_d_k"] = editor.balloon.isVisible()
    ''')
    assert out == {"after_enter": True, "focus_in_table": True, "moved_down": False,
                   "shown_again": True, "clicked_another_cell": False,
                   "focus_after_click": True, "refused_by_the_click": True,
                   "shown_once_more": True,
                   "focus_in_d_k": True, "after_d_k": False}


def test_a_cells_refusal_note_leaves_the_rows_below_it_in_sight(x_display, tmp_path):
    """A user's re-check at 1024 × 700: the note under a refused cell covered the row
    below, the cell Enter goes to next. It stands above the cell's row, whole, inside the
    window, by the cell, over none of the rows below it; Escape still sends it away."""
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtCore import QRect
        editor = window.editor
        viewport = editor.viewport()

        def in_window(widget, rect):
            return QRect(widget.mapTo(window, rect.topLeft()), rect.size())

        seen = {}
        for row in (0, 1, editor.table.rowCount() - 1):
            index = editor.table.value_index(row, 1)
            editor.setFocus()
            editor.setCurrentIndex(index)
            QTest.keyClicks(editor, "abc")  # typing opens the cell editor
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
            app.processEvents()
            balloon = editor.balloon
            note = in_window(balloon, balloon.rect())
            cell = in_window(viewport, editor.visualRect(index))
            below = in_window(viewport, viewport.rect())
            below.setTop(cell.bottom() + 1)
            seen[row] = {
                "shown": balloon.isVisible() and balloon.text().startswith("Not applied: "),
                "inside": window.rect().contains(note),
                "whole": balloon.visibleRegion().boundingRect().size() == balloon.size(),
                "by_the_cell": (abs(note.bottom() - cell.top()) <= 4  # above, beside, below
                                or abs(note.left() - cell.right()) <= 4
                                or abs(note.top() - cell.bottom()) <= 4),
                "over_the_cell": note.intersects(cell),
                "over_rows_below": note.intersects(below),
            }
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
            app.processEvents()
            seen[row].update({
                "after_escape": balloon.isVisible(),
                "note": [note.x(), note.y(), note.width(), note.height()],
                "cell": [cell.x(), cell.y(), cell.width(), cell.height()],
            })
        out["seen"] = seen
    ''', size=(1024, 700))
    for row, seen in out["seen"].items():
        assert seen["shown"] and seen["inside"] and seen["whole"], (row, seen)
        assert seen["by_the_cell"], (row, seen)
        assert not seen["over_the_cell"] and not seen["over_rows_below"], (row, seen)
        assert not seen["after_escape"], (row, seen)


def test_the_gradient_comparisons_mouse_selection_has_no_word_joiners(x_display, tmp_path):
    """On X11 selecting text with the mouse copies it (a middle click pastes it): the
    comparison table's headers went with their invisible word joiners (U+2060), and a
    search for "∂L/∂W_Q" in the pasted text found nothing."""
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtCore import QPoint
        from PySide6.QtGui import QClipboard
        lab = window.run_labs.show("gradients")
        lab.tabs.setCurrentIndex(1)
        lab.run_comparison_blocking(steps=3)
        table = lab.compare_table
        lab.compare_scroll.ensureWidgetVisible(table)
        QTest.qWait(200)
        end = QPoint(table.width() - 5, table.height() // 2)
        QTest.mousePress(table, Qt.MouseButton.LeftButton, pos=QPoint(2, 5))
        QTest.mouseMove(table, end)
        QTest.mouseRelease(table, Qt.MouseButton.LeftButton, pos=end)
        QTest.qWait(200)
        out["selected"] = "\\u2060" in table.selectedText()
        out["pasted"] = QApplication.clipboard().text(QClipboard.Mode.Selection)
        QTest.keyClick(table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
        QTest.qWait(200)
        out["copied"] = QApplication.clipboard().text(QClipboard.Mode.Clipboard)
        lab.close()
    ''')
    assert out["selected"], out  # (the headers keep them on screen)
    # a mouse selection, then Ctrl+C on it (a first-time user: the joiners were still
    # there, the label's selection running its cells together where the copy did not)
    for pasted in (out["pasted"], out["copied"]):
        assert "‖∂L/∂W_Q‖ at the start" in pasted and "\u2060" not in pasted, out
        assert pasted.split("\n")[0].split("\t")[:2] == ["d_k", "scaling"], out


def test_another_programs_copy_is_neither_read_nor_rewritten(x_display, tmp_path):
    """The comparison table puts its own copies back as rows of text
    (``table_copy.CopiesTableAsText``). Another program's copy, made while the table kept
    its selection, was read too (on X11 reading the clipboard asks its owner, up to 5 s
    if that program hangs: a code review); it is neither read nor rewritten."""
    other = tmp_path / "other_program.py"
    other.write_text("from PySide6.QtCore import QTimer\n"
                     "from PySide6.QtWidgets import QApplication\n"
                     "app = QApplication([])\n"
                     "app.clipboard().setText('a\\u2060b')\n"
                     "QTimer.singleShot(4000, app.quit)\n"
                     "app.exec()\n", encoding="utf-8")
    out = run_on_display(x_display, tmp_path, f'''
        import subprocess, sys
        from PySide6.QtGui import QClipboard
        lab = window.run_labs.show("gradients")
        lab.tabs.setCurrentIndex(1)
        lab.run_comparison_blocking(steps=3)
        table = lab.compare_table
        table.setSelection(0, 40)
        reads = []
        real = QClipboard.mimeData
        QClipboard.mimeData = lambda self, *a: reads.append(a) or real(self, *a)
        other = subprocess.Popen([sys.executable, {str(other)!r}])
        QTest.qWait(2000)
        out["reads"] = len(reads)
        QClipboard.mimeData = real
        out["owned"] = QApplication.clipboard().ownsClipboard()
        out["text"] = QApplication.clipboard().text()
        out["selected"] = table.hasSelectedText()
        other.wait(10)
        lab.close()
    ''')
    assert out["selected"] and not out["owned"], out
    assert out["reads"] == 0, out
    assert out["text"] == "a\u2060b", out


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_wrapped_axis_name_keeps_clear_of_the_tick_labels(x_display, tmp_path, lang):
    """At 1024 × 700 in Chinese the second line of "每行的 ‖diag(p) − ppᵀ‖" touched the
    tick labels ("0.3"; 0.2 px apart): pyqtgraph gives a name 0.8 of its turned height,
    which two lines of the taller Chinese line outgrow (a first-time user). Every
    turned name of the scaling lab's "Random q, k" tab ends 2 px or more left of its
    axis's tick labels, as a name on one line does."""
    out = run_on_display(x_display, tmp_path, f'''
        from PySide6.QtGui import QPainter, QPicture
        from qkv_desktop.views import i18n
        i18n.install_translators(app, {lang!r})
        from qkv_desktop.views.teaching.scaling_lab import ScalingLab
        lab = ScalingLab(window.model)
        lab.resize(940, 640)  # its first size on a 1024 × 700 screen
        lab.show()
        QTest.qWait(800)
        for stat, plot in lab.random_plots.plots.items():
            axis = plot.getPlotItem().getAxis("left")
            label = axis.label
            m = label.document().documentMargin()
            ink = label.mapRectToParent(label.boundingRect().adjusted(m, m, -m, -m))
            picture = QPicture()
            painter = QPainter(picture)
            specs = axis.generateDrawSpecs(painter)
            painter.end()
            out[stat] = (axis._lines, ink.right(), min(r.left() for r, _f, _t in specs[2]))
        lab.close()
    ''', size=(1024, 700))
    assert any(lines > 1 for lines, _ink, _tick in out.values()), out  # (the case)
    for stat, (lines, ink, tick) in out.items():
        assert ink + 2 <= tick, (stat, lines, ink, tick)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_cells_refusal_note_stays_over_its_table(x_display, tmp_path, lang):
    """A first-time user at 1024 × 700: the note by a refused cell was 360 px wide from
    the cell's left edge, wider than the rest of the table, and ran over the heatmaps
    beside it, hiding their row labels. It wraps within the table's viewport."""
    out = run_on_display(x_display, tmp_path, f'''
        from PySide6.QtCore import QCoreApplication, QRect
        from qkv_desktop.views import i18n
        i18n.install_translators(app, {lang!r})
        QCoreApplication.sendPostedEvents()
        app.processEvents()
        editor = window.editor
        viewport = editor.viewport()
        last = editor.table.columnCount() - 2

        def in_window(widget, rect):
            return QRect(widget.mapTo(window, rect.topLeft()), rect.size())

        def text_fits(label):
            """All of the label's text, wrapped at its width, within its frame."""
            room = label.contentsRect().adjusted(*[label.margin() * k for k in (1, 1, -1, -1)])
            needed = label.fontMetrics().boundingRect(
                QRect(0, 0, room.width(), 10000), Qt.TextFlag.TextWordWrap, label.text())
            return needed.height() <= room.height()

        seen = []
        for col, typed in ((1, "1e400"), (last, "")):
            index = editor.table.value_index(0, col)
            editor.setFocus()
            editor.setCurrentIndex(index)
            QTest.keyClick(editor, Qt.Key.Key_F2)
            line = QApplication.focusWidget()
            line.selectAll()
            QTest.keyClick(line, Qt.Key.Key_Delete)
            QTest.keyClicks(line, typed)
            QTest.keyClick(line, Qt.Key.Key_Return)
            app.processEvents()
            balloon = editor.balloon
            note = in_window(balloon, balloon.rect())
            table = in_window(viewport, viewport.rect())
            seen.append({{
                "shown": (balloon.isVisible()
                          and balloon.text() == window.statusBar().currentMessage()),
                "within_the_table": table.left() <= note.left() and note.right() <= table.right(),
                "inside": window.rect().contains(note),
                "whole": balloon.visibleRegion().boundingRect().size() == balloon.size(),
                "text_fits": text_fits(balloon),
                "note": [note.x(), note.y(), note.width(), note.height()],
                "table": [table.x(), table.y(), table.width(), table.height()],
                "text": balloon.text(),
            }})
            QTest.keyClick(editor, Qt.Key.Key_Escape)
            app.processEvents()
        out["seen"] = seen
    ''', size=(1024, 700))
    for seen in out["seen"]:
        assert seen["shown"] and seen["inside"] and seen["whole"], seen
        assert seen["within_the_table"] and seen["text_fits"], seen


def test_a_cells_refusal_note_beside_or_below_when_no_room_above(x_display, tmp_path):
    """A window whose table is at its very top has no room above the first row: the
    note goes on the cell's right where the table is wide enough, level with the cell
    and all in the window even where the window ends with the row; below the cell
    in a narrower table; and at least ``MIN_WIDTH`` wide over a table narrower than
    that, still in the window, its text wrapped whole (a note 220 px wide kept the
    height of one 360 px wide and lost its last line)."""
    out = run_on_display(x_display, tmp_path, '''
        from PySide6.QtCore import QRect
        from PySide6.QtWidgets import QWidget
        from qkv_desktop.views.editors.matrix_editor import MatrixEditor

        def text_fits(label):
            """All of the label's text, wrapped at its width, within its frame."""
            room = label.contentsRect().adjusted(*[label.margin() * k for k in (1, 1, -1, -1)])
            needed = label.fontMetrics().boundingRect(
                QRect(0, 0, room.width(), 10000), Qt.TextFlag.TextWordWrap, label.text())
            return needed.height() <= room.height()

        holder = QWidget()  # a window holding the table at its top left, nothing else
        table = MatrixEditor(window.model, "X", holder)
        holder.show()
        seen = {}
        for case, (width, height) in {"beside": (900, 300), "beside_short": (900, 0),
                                      "below": (420, 300), "narrow": (230, 300)}.items():
            index = table.table.value_index(0, 0)
            cell = table.visualRect(index)
            cell = QRect(table.viewport().mapTo(holder, cell.topLeft()), cell.size())
            height = height or cell.bottom() + 1  # the window ends with the row
            table.setGeometry(0, 0, width, 300)
            holder.resize(width, height)
            QTest.qWaitForWindowExposed(holder)
            app.processEvents()
            cell = table.visualRect(index)
            cell = QRect(table.viewport().mapTo(holder, cell.topLeft()), cell.size())
            table.balloon.show_at(index, "Not applied: '1e400' is too large: the largest "
                                         "allowed magnitude is about 1.8e308")
            app.processEvents()
            note = table.balloon.geometry()
            seen[case] = {
                "shown": table.balloon.isVisible() and table.balloon.parentWidget() is holder,
                "inside": holder.rect().contains(note),
                "whole": table.balloon.visibleRegion().boundingRect().size() == note.size(),
                "text_fits": text_fits(table.balloon),
                "over_the_cell": note.intersects(cell),
                "beside": note.left() == cell.right() + 2,
                "level": note.top() <= cell.top() <= note.bottom(),
                "below": note.top() == cell.bottom() + 2,
                "width": note.width(),
                "window": holder.width(),
                "note": [note.x(), note.y(), note.width(), note.height()],
                "cell": [cell.x(), cell.y(), cell.width(), cell.height()],
            }
            table.balloon.hide()
        out["seen"] = seen
        holder.close()
    ''', size=(1024, 700))
    seen = out["seen"]
    for case, where in seen.items():
        assert where["shown"] and where["inside"] and where["whole"], (case, where)
        assert where["text_fits"], (case, where)
        assert not where["over_the_cell"], (case, where)
    for case in ("beside", "beside_short"):
        assert seen[case]["beside"] and seen[case]["level"], (case, seen[case])
    assert seen["below"]["below"], seen["below"]
    assert seen["narrow"]["width"] >= 220 or seen["narrow"]["width"] == 230 - 8, seen
