"""Fixtures for the model's tests."""

import pytest

from qkv_desktop.model import AttentionModel
from qkv_desktop.state import SessionState


@pytest.fixture
def model(qapp):
    """A model on tutorial-1 whose status-bar messages and notes (``message``,
    ``noted``) are kept in ``model.messages``; shut down after the test (its undo
    history dropped first, as the app does)."""
    m = AttentionModel(SessionState.from_preset("tutorial-1"))
    m.messages = []
    m.message.connect(m.messages.append)
    m.noted.connect(m.messages.append)
    yield m
    m.shutdown()
