"""Key/value groups read off a session's weights (grouped-query attention)."""

import numpy as np

from qkv_desktop.core import Weights
from qkv_desktop.state.head_groups import head_groups
from qkv_desktop.state.session_state import SessionState


def state_with(kv_of_head, d=6, dk=2):
    rng = np.random.default_rng(0)
    kv = {g: (rng.normal(size=(d, dk)), rng.normal(size=(d, dk))) for g in set(kv_of_head)}
    heads = tuple(Weights(rng.normal(size=(d, dk)), *kv[g]) for g in kv_of_head)
    return SessionState(("a", "b"), rng.normal(size=(2, d)), heads,
                        W_O=rng.normal(size=(len(heads) * dk, d)))


def test_heads_sharing_keys_and_values_form_groups_with_their_counts():
    g = head_groups(state_with([0, 0, 0, 1, 1, 1]))
    assert g.groups == ((0, 1, 2), (3, 4, 5)) and g.shared and g.group_of(4) == 1
    d, dk, h = 6, 2, 6
    assert g.params_mha == 3 * d * dk * h + h * dk * d
    assert g.params_gqa == d * dk * h + 2 * d * dk * 2 + h * dk * d
    assert (g.kv_values_gqa, g.kv_values_mha) == (2 * 2 * dk, 2 * h * dk)


def test_ordinary_multi_head_attention_shares_nothing():
    g = head_groups(state_with([0, 1, 2]))
    assert g.groups == ((0,), (1,), (2,)) and not g.shared
    assert g.params_gqa == g.params_mha and g.kv_values_gqa == g.kv_values_mha
