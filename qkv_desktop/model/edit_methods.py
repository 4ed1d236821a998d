"""``EditMethods``: the pure edits of ``qkv_desktop.state.edits`` as model methods.

Each method applies ``fn(state, …)`` to the model's state as one undo step; a refusal
(``EditError``) becomes a ``ValueError`` in the interface language. The host (the
``AttentionModel``) provides ``_state``, ``_apply(edit)`` and ``_load(edit)`` (an edit
that replaces the inputs, as a load does); the edits themselves,
and their undo texts, stay Qt-free in ``state/edits.py``.
"""

from __future__ import annotations

import functools

from qkv_desktop.presentation.texts import say
from qkv_desktop.state import edits
from qkv_desktop.state.edits import EditError, Text

__all__ = ["EditMethods"]


def _edit(fn):
    """A model method applying the pure edit ``fn(state, …)`` as one undo step."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        self._apply(self._translated(fn, *args, **kwargs))
    return method


def _naming(fn):
    """``_edit(fn)`` for an edit that may make tokens: named with ``NEW_TOKEN`` in the
    interface language (新 in Chinese) unless the caller names a ``stem``."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        kwargs.setdefault("stem", say(Text(edits.NEW_TOKEN)))
        self._apply(self._translated(fn, *args, **kwargs))
    return method


def _loading(fn):
    """A model method making the pure edit ``fn(state, …)`` a load (``_load``): what it
    replaces is the session's inputs, as a preset or a model head does."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        self._load(self._translated(fn, *args, **kwargs))
    return method


class EditMethods:
    """The session edits, bound to a model that holds ``_state`` and ``_apply``."""

    def _translated(self, fn, *args, **kwargs):
        """``fn(state, …)``, its refusal (``EditError``) in the interface language."""
        try:
            return fn(self._state, *args, **kwargs)
        except EditError as exc:
            raise ValueError(say(exc.text)) from None

    rename_token = _edit(edits.rename_token)
    insert_tokens = _naming(edits.insert_tokens)
    delete_tokens = _edit(edits.delete_tokens)
    move_token = _edit(edits.move_token)
    paste_block = _naming(edits.paste_block)
    set_d_model = _edit(edits.set_d_model)
    remove_dimension = _edit(edits.remove_dimension)
    set_d_k = _edit(edits.set_d_k)
    set_seed = _edit(edits.set_seed)
    set_init_scale = _edit(edits.set_init_scale)
    set_heads = _edit(edits.set_heads)
    set_output_projection = _edit(edits.set_output_projection)
    set_weight = _edit(edits.set_weight)
    set_options = _edit(edits.set_options)
    set_mode = _edit(edits.set_mode)
    scale_inputs = _edit(edits.scale_inputs)
    set_masked = _edit(edits.set_masked)
    load_vectors = _loading(edits.load_vectors)
    load_weights = _loading(edits.load_weights)
