"""``AttentionModel``: the one source of truth the views display and edit.

It holds the session state, its undo stack and the latest result, and nothing else:
the edits themselves are pure functions in ``qkv_desktop.state.edits``, hover,
selection and current head from ``ViewSelection``, the edit methods from
``EditMethods``, live previews (training) from ``LivePreview``. Every change is an undo
command and schedules one recomputation for the next event-loop turn (so a burst of
edits costs one core call). Large inputs (``off_thread``) are computed on a ``LatestJobRunner``: a
newer state supersedes a pending computation and stale results are dropped, so the
GUI thread never waits; that worker also makes the pictures of the panes on screen
(``images``, a ``PaneImages``) before it hands a result over, so the GUI thread only
shows them. The panes get a result first (``resultChanged``); its lesson read-outs
follow (``lessonsChanged``, from a ``LessonsScheduler``) and never delay it.
"""

from __future__ import annotations

import functools
import itertools
import sys
import threading
import weakref

import shiboken6
from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEventLoop, QObject, QTimer, Signal
from PySide6.QtGui import QKeySequence, QUndoStack

from qkv_desktop.model.after_paint import AfterPaint
from qkv_desktop.model.commands import CellsCommand, StateCommand
from qkv_desktop.model.edit_methods import EditMethods
from qkv_desktop.model.idle_memory import IdleMemory
from qkv_desktop.model.jobs import LatestJobRunner
from qkv_desktop.model.lessons_scheduler import LessonsScheduler
from qkv_desktop.model.off_thread import off_thread
from qkv_desktop.model.pane_images import PaneImages
from qkv_desktop.model.preview import LivePreview
from qkv_desktop.model.selection import ViewSelection
from qkv_desktop.presentation.texts import join_sentences, say
from qkv_desktop.state import edits
from qkv_desktop.state.catalogue import RowMap
from qkv_desktop.state.compute import ModelResult, compute
from qkv_desktop.state.cow_matrix import share_for_edits
from qkv_desktop.state.edits import Edit
from qkv_desktop.state.session_state import SessionState
from qkv_desktop.state.texts import Text

__all__ = ["AttentionModel"]


def _share_for_edits(state: SessionState) -> None:
    """Have the first edit of ``state``'s token tables copy none of them on the GUI
    thread (``cow_matrix``: a copy of X made here, on a worker, instead)."""
    for table in (state.X, state.X_kv):
        if table is not None:
            share_for_edits(table)


def _drop_history(stack: QUndoStack) -> None:
    """Delete the commands of a model being let go, while its Qt objects are alive."""
    if shiboken6.isValid(stack):
        stack.clear()


class AttentionModel(EditMethods, ViewSelection):
    """Owns the session state, its undo stack, and the latest result.

    Signals
    -------
    changed : the state changed (emitted at once, before recomputation).
    landed : right after ``changed``, for a change the undo history holds, not a
        preview's (the gradient lab installs its weights every frame while it trains):
        what makes a refusal or a note said before it old news.
    resultChanged(ModelResult) : a new result is ready for the current state.
    lessonsChanged(ModelResult) : the lesson read-outs of that result's current head are
        ready (``result.lessons(head)`` returns at once); it follows ``resultChanged``.
    busyChanged(bool) : a background computation started or finished.
    message(str) : a short explanation for the status bar (saved, loaded, a failure).
    refused(str) : a change asked for was not applied, and why ("Not applied: …"). Every
        view that refuses an edit says so here, and only here: the window shows it like a
        message and takes it off the status bar as soon as a change lands.
    noted(str) : an edit did what the user may not expect, and how to take it back
        (new weights drawn over typed ones: "… Ctrl+Z brings them back"); the window
        shows it longer than a message.
    computeErrorChanged(str) : the state could not be computed, and why; "" once a
        state computes again (the window then takes the stale failure off the bar).
    resultCleared : the result on display was another session's (New, Open, a recovery)
        and this one's values do not compute: ``result`` is None until they do, so no
        view shows the numbers of the file closed under the name of the one opened.
    replaced : the session was replaced by another (New, Open, a preset or a model
        loaded; not another layer or head of the model loaded): what a view typed over
        the last one's numbers no longer applies.
    hoverChanged, selectionChanged, currentHeadChanged : see ``ViewSelection``.

    ``preview`` (a ``LivePreview``) shows states without an undo step (live training).
    ``images`` (a ``PaneImages``) makes the panes' pictures of large results off the GUI
    thread.
    """

    changed = Signal()
    landed = Signal()
    resultChanged = Signal(object)
    busyChanged = Signal(bool)
    message = Signal(str)
    refused = Signal(str)
    noted = Signal(str)
    computeErrorChanged = Signal(str)
    lessonsChanged = Signal(object)
    resultCleared = Signal()
    replaced = Signal()

    def __init__(self, state: SessionState | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._state = state or SessionState.from_preset("tutorial-1")
        self._result: ModelResult | None = None
        self._result_generation = -1
        self._done_generation = -1
        self._generation = 0
        self.compute_error = ""
        """Why the current state could not be computed; "" while it can."""
        self.compute_reason = ""
        """``compute_error`` without its "Could not compute attention:" (a banner's)."""
        self._reset_generation = 0
        """The generation of the last ``reset``: a forward of an older state (the session
        closed since, still on the worker) is never shown."""
        self._computed_index: int | None = None
        """The undo index at which the state shown was the current one; None while no
        state of this session (since the last ``reset``) has computed."""
        self._gesture_ids = itertools.count(1)
        # Made before the stack, so deleted before it (~QUndoStack emits indexChanged).
        self.preview = LivePreview(self)
        self.undo_stack = QUndoStack(self)
        # Also without ``shutdown``, the history goes first (see there): a finalizer runs
        # before the garbage collector clears anything of a model it found in a cycle.
        weakref.finalize(self, _drop_history, self.undo_stack).atexit = False
        self.undo_stack.indexChanged.connect(self.preview.drop)
        self.compute_calls = 0
        self._timer = QTimer(self, singleShot=True, interval=0, timeout=self._recompute)
        self._jobs = LatestJobRunner("qkv-compute", self)
        self._jobs.finished.connect(self._on_forward_done)
        self._jobs.busyChanged.connect(self.busyChanged)
        self.images = PaneImages(self)
        self.images.settled.connect(self._on_pictures_made)
        self._after_paint = AfterPaint(self)
        self._after_paint.painted.connect(self._show_held)
        self._lessons_wait = False
        """The read-outs of the result on display wait for its pictures (``_show``)."""
        self._held: tuple[ModelResult, int] | None = None
        """A frame of a scrub whose forward ended while the pictures of the frame on
        display were still being made: shown when they are (``_on_forward_done``)."""
        self._lessons = LessonsScheduler(self)
        self._lessons.lessonsChanged.connect(self.lessonsChanged)
        self.currentHeadChanged.connect(self._lessons.set_head)
        self.idle_memory = IdleMemory(self)
        """Gives the memory kept for the next forward back once no result came for a while."""
        self.recompute_now()

    # ------------------------------------------------------------------ access
    @property
    def state(self) -> SessionState:
        return self._state

    @property
    def result(self) -> ModelResult | None:
        """The latest result; it may lag the state while a large forward runs."""
        return self._result

    @property
    def busy(self) -> bool:
        return self._jobs.busy

    # ------------------------------------------------- undo commands call these
    def report_command_failure(self, text: str, exc: Exception) -> None:
        """An undo/redo step could not be applied: it was dropped; say so and log it."""
        self.message.emit(self.tr("“{0}” could not be applied and was removed from the "
                                  "undo history: {1}").format(text, exc))
        sys.excepthook(type(exc), exc, exc.__traceback__)

    def install_state(self, state: SessionState, moved: RowMap | None = None) -> None:
        """Install ``state`` (undo commands and previews only) and schedule a recompute.

        ``moved`` says where the change took the token rows: the pinned cell follows its
        tokens by it; without it (a load) the pin is let go."""
        before, self._state = self._state, state
        self._generation += 1
        self.follow(state, before, moved, self._generation)
        self.changed.emit()
        if not self.preview.active:
            self.landed.emit()
        if not self._timer.isActive():
            self._timer.start()

    # ---------------------------------------------------------- recomputation
    def recompute_now(self) -> None:
        """Compute synchronously (start-up, tests); pending timer work is folded in."""
        self._timer.stop()
        state = self._state
        self._finish(self._generation, *self._run(state))
        if off_thread(state):  # as the worker does after its forwards (``_run``), off this thread
            threading.Thread(target=_share_for_edits, args=(state,), name="qkv-share",
                             daemon=True).start()

    def _recompute(self) -> None:
        s, generation = self._state, self._generation
        if not off_thread(s):
            self._finish(generation, *self._run(s))
        elif not self._jobs.busy and self._held is None:
            # (else the forward running now, or the frame held, starts the newest state)
            prepare = self.images.plan(self.current_head)
            self._lessons.stop()  # the read-outs of the result on display yield to it
            self._jobs.submit(lambda _report: (generation, *self._run(s, prepare, generation)))

    def _on_forward_done(self, _job: int, done: tuple, _error) -> None:
        """A worker forward ended: show it, then compute the newest state if it moved on.

        A result the state has moved past (a scrub goes on) is still newer than what
        the panes show, so it is shown as one frame of the gesture while the newest
        state computes: one forward per frame, none queued behind another, instead of
        superseding every forward until the drag stops. Its pictures were left to the
        pictures' worker (``_run``), which makes them while the newest state's forward
        runs; a frame that ends before they are made waits for them (``_held``), so
        each frame is painted whole and no forward runs more than one frame ahead.
        """
        generation, result, error = done
        if generation == self._generation:
            self._finish(generation, result, error)
            return
        if error is None and self._newer(generation):
            if self.images.pending:  # the frame on display is still being pictured
                self._held = (result, generation)
                return
            self._show(result, generation)
        self._follow_the_state()

    def _newer(self, generation: int) -> bool:
        """Whether a result of ``generation`` is newer than the one on display and of
        this session (not of one closed by ``reset`` while its forward ran: opening a
        file that does not compute then brought the closed session's numbers back)."""
        return generation > self._result_generation and generation >= self._reset_generation

    def _on_pictures_made(self) -> None:
        """The pictures asked for are made: the frame held for them follows their
        paint (and its read-outs follow it), else the read-outs of the one on display."""
        if self._held is not None:
            self._after_paint.request()
        else:
            self._follow_lessons()

    def _follow_lessons(self) -> None:
        """The read-outs of the result on display, if they waited for its pictures."""
        if self._result is not None and self._lessons_wait:
            self._lessons_wait = False
            self._lessons.follow(self._result, off_thread=off_thread(self._result.state))

    def _show_held(self) -> None:
        """The frame held while the one before was pictured, once that one is painted:
        shown at once, its pictures and the next forward started during that paint and
        took the cores from it (issue 20)."""
        if self._held is None:
            return
        (result, generation), self._held = self._held, None
        if self._newer(generation):
            self._show(result, generation)
        else:
            self._follow_lessons()
        self._follow_the_state()

    def _follow_the_state(self) -> None:
        """Compute the newest state, if the one shown is older (and no edit is about to)."""
        if self._done_generation != self._generation and not self._timer.isActive():
            self._recompute()

    def _run(self, state: SessionState, prepare=None, generation: int | None = None):
        """``(result, None)`` or ``(None, error)``; on the worker, ``prepare``
        (``PaneImages.plan``) reduces the panes' n × n matrices while the forward makes
        them (``on_rows``), and ``prepare(result)`` makes the panes' pictures before the
        result is handed over,
        unless the state of ``generation`` has been replaced meanwhile (a scrub goes
        on): then the result goes over at once, and its pictures are made on the
        pictures' worker while the forward of the newest state runs, not before it.
        The base for edits of a new X (``cow_matrix``) is made beside the pictures."""
        self.compute_calls += 1
        try:
            result = compute(state, on_rows=None if prepare is None else prepare.on_rows)
        except Exception as exc:  # reported by _finish, never lost in the worker thread
            return None, exc
        if prepare is not None:  # the block means made during the forward go with it
            prepare.keep(result)
        if prepare is not None and generation == self._generation:
            # the copy-on-write base of a new X (about 100 ms at 8192 × 768) is made
            # beside the pictures, not after them
            prepare(result, also=(functools.partial(_share_for_edits, state),))
        return result, None

    def _finish(self, generation: int, result: ModelResult | None, error) -> None:
        if generation != self._generation:
            return  # computed for a state that has been replaced since
        self._done_generation = generation
        if error is not None:
            if not isinstance(error, (ValueError, FloatingPointError, MemoryError)):
                sys.excepthook(type(error), error, error.__traceback__)  # a bug: log it
            self._failure = error
            self._say_failure()
            if self._computed_index is None and self._result is not None:
                self._drop_result()  # another session's numbers
            self.message.emit(self.compute_error)
            self.computeErrorChanged.emit(self.compute_error)
            if self._result is not None and self.lessons_pending and not self._lessons_wait:
                # the result on display stays: its read-outs, stopped for the forward
                self._lessons.follow(self._result, off_thread=off_thread(self._result.state))
            return
        self._show(result, generation)
        self._failure = None
        if self.compute_error:
            self.compute_error = self.compute_reason = ""
            self.computeErrorChanged.emit("")

    def _drop_result(self) -> None:
        """Let go of the result on display (``resultCleared``)."""
        self._result, self._result_generation, self._held = None, -1, None
        self.resultCleared.emit()

    def _show(self, result: ModelResult, generation: int) -> None:
        """Give the panes ``result``, then have its lesson read-outs follow."""
        self._result, self._result_generation = result, generation
        if generation == self._generation:  # the current state: where the stack stands
            self._computed_index = self.undo_stack.index()
        self.pins_shown(generation)
        self.idle_memory.active()
        self.resultChanged.emit(result)
        # A frame of a scrub comes before its pictures (``_on_forward_done``): its
        # read-outs wait for them, or their row threads would run during its paint.
        self._lessons_wait = self.images.pending
        if self._lessons_wait:
            self._lessons.hold(result)
        else:
            self._lessons.follow(result, off_thread=off_thread(result.state))

    def steps_to_computed(self) -> int:
        """Undo steps back to the state the panes show, while the current one does not
        compute: the edit that broke it may not be the last (a good edit typed after
        1e200 is undone first by one Ctrl+Z). 1 when not known; 0 when no state of this
        session has computed (one opened with values that do not compute: nothing to
        go back to)."""
        index, computed = self.undo_stack.index(), self._computed_index
        if computed is None:
            return 0
        return index - computed if computed < index else 1

    def undo_to_computed(self) -> None:
        """Undo back to the state the panes show (``steps_to_computed`` steps); the
        steps stay on the stack for Redo."""
        self.undo_stack.setIndex(max(0, self.undo_stack.index() - self.steps_to_computed()))

    @property
    def lessons_pending(self) -> bool:
        """Whether the result on display still waits for its ``lessonsChanged``."""
        return self._lessons.pending

    def wait_until_idle(self, timeout_ms: int = 30_000) -> bool:
        """Process events until the current state has been computed (tests, export, render).

        The lesson read-outs of the result have been announced too, and the panes'
        pictures asked for are made. Returns whether
        ``result`` matches the state: ``False`` after a timeout or when the state could
        not be computed (the ``message`` signal said why).
        """
        deadline = QDeadlineTimer(timeout_ms)
        while (self._done_generation != self._generation or self._timer.isActive()
               or self.lessons_pending or self.images.pending):
            if deadline.hasExpired():
                return False
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        return self._result_generation == self._generation

    def shutdown(self) -> None:
        """Stop the worker threads and drop the undo history (the window calls this on
        close; so must anyone else who lets a model go).

        The commands go first, deleted by the stack while everything is alive: when the
        garbage collector tears down a model it reached through a reference cycle,
        PySide 6.11 may free the Python-made commands before ``~QUndoStack`` deletes
        them again (a segfault in ``QUndoStack::clear``; ``test_model_lifetime``).
        """
        self._held = None
        self.undo_stack.clear()
        self.idle_memory.stop()
        self._after_paint.cancel()
        self._jobs.shutdown()
        self._lessons.shutdown()
        self.images.shutdown()

    # -------------------------------------------------------------- mutations
    def _apply(self, edit: Edit | None) -> None:
        if edit is not None and self._push(edit.state, edit.text, edit.merge_key,
                                           edit.moved) and edit.note is not None:
            self.noted.emit(say(edit.note))

    def _push(self, after: SessionState, text: str | Text, merge_key: str | tuple[str, int] | None = None,
              moved: RowMap | None = None) -> bool:
        """Push ``after`` as a step; whether it was one (an unchanged state is not).
        ``moved``: where it takes the token rows (None: unknown, a load)."""
        self.preview.commit()
        if after.equals(self._state):
            return False
        self.undo_stack.push(StateCommand(self, self._state, after, text, merge_key, moved))
        return True

    _failure: BaseException | None = None
    """Why the current state did not compute (``compute_error`` says it)."""

    def _say_failure(self) -> None:
        # the state's reasons are marked for translation (``ComputeError``)
        self.compute_reason = say(self._failure)
        # a sentence with its full stop: without one, "… or of the weights compute"
        # in the status bar read as a message cut short
        self.compute_error = self.tr("Could not compute attention: {0}.").format(
            self.compute_reason.rstrip(".。"))

    def retranslate_failure(self) -> None:
        """``compute_error`` in the current interface language (the window calls this on
        a language change): the banner said "未能计算：W_K of head 2[d2, 0] = …
        is too large", the reason kept in the language it failed in (a review)."""
        if self._failure is not None and self.compute_error:
            self._say_failure()
            self.computeErrorChanged.emit(self.compute_error)

    def retranslate_steps(self) -> None:
        """Every undo step's text in the current interface language (the window calls
        this on a language change, before it writes its Undo and Redo items)."""
        for k in range(self.undo_stack.count()):
            self.undo_stack.command(k).retranslate()

    def new_gesture(self) -> int:
        """A key for ``set_cells(gesture=…)``: the edits of one drag undo as one step."""
        return next(self._gesture_ids)

    def set_cell(self, table: str, row: int, col: int, value: float, gesture=None) -> None:
        """Set one value of X (or X_kv)."""
        self.set_cells(table, [row], [col], [value], gesture)

    def set_cells(self, table: str, rows, cols, values, gesture: object = None,
                  text: str | None = None) -> None:
        """Set cells of X (or X_kv) at (rows[k], cols[k]); all values must be finite."""
        edit = self._translated(edits.set_cells, table, rows, cols, values)
        if edit.changed or gesture is not None:
            self.preview.commit()  # the state shown stays; the edit follows it
            self.undo_stack.push(CellsCommand(self, edit, text or edit.text, gesture))

    def load_state(self, state: SessionState, text: str | Text,
                   note: str | None = None, *, named: bool = True,
                   new_session: bool = True) -> None:
        """Replace everything with ``state`` as one undoable step (presets, models).

        Its size was checked when it was built (``SessionState`` refuses oversize ones).
        The hovered and pinned cells belong to what was replaced: they are let go.
        ``note``: what the load did, said (``noted``) once it is made, followed by how
        to undo it ("Your edits were replaced; Ctrl+Z brings them back" when they were).
        Without a note, edits replaced are said after ``text`` ("Load preset …: your
        edits were replaced; …"), or alone when not ``named``: a model's head, which
        the status bar names beside the note (at 1024 px the name cut off "Ctrl+Z").
        ``new_session`` False: another layer or head of the model loaded (the decoder
        panel's boxes), not a new session: ``replaced`` is not emitted, so what a view
        typed (the KV-cache lab's memory calculator) stays.
        """
        edited = self.edited_since_load_or_save()
        self.clear()
        # Not the stack's count: a push after undos drops the steps undone first.
        if self._push(state, text):  # the state did change: one undoable step
            self.undo_stack.command(self.undo_stack.index() - 1).loads = True
            if new_session:
                self.replaced.emit()
            undo = QKeySequence(QKeySequence.StandardKey.Undo).toString(
                QKeySequence.SequenceFormat.NativeText)
            replaced = self.tr("Your edits were replaced; {0} brings them back.")
            if note is None:
                if edited and named:  # a note on this step: gone once it is undone
                    self.noted.emit(self.tr("{0}: your edits were replaced; {1} brings "
                                            "them back.").format(say(text), undo))
                elif edited:
                    self.noted.emit(replaced.format(undo))
                return
            said = (replaced if edited else self.tr("{0} undoes it.")).format(undo)
            self.noted.emit(join_sentences([note, said]))  # the note names the load

    def _load(self, edit: Edit) -> None:
        """A pure edit that replaces the session's inputs (imported vectors), made as a
        load (``load_state``): one step, the pin let go, the note said."""
        self.load_state(edit.state, edit.text,
                        None if edit.note is None else say(edit.note))

    def edited_since_load_or_save(self) -> bool:
        """Whether the state on show holds edits made after the last load or save: what
        a load over it replaces (one undo step back), which the user is then told.

        Saved (the stack is clean), just loaded (the last step done is a load) or
        every step undone (the session as it was opened): no."""
        stack = self.undo_stack
        if stack.isClean():
            return False
        done = stack.index()
        return done > 0 and not getattr(stack.command(done - 1), "loads", False)

    def reset(self, state: SessionState) -> None:
        """Start afresh from ``state`` with an empty undo history (New, Open)."""
        self.preview.drop()
        self.undo_stack.clear()
        self._computed_index = None  # the result on display is the last session's
        self.clear()
        self.install_state(state)
        self._reset_generation = self._generation
        self.undo_stack.setClean()
        self.replaced.emit()
