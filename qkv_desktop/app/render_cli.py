"""``qkv-desktop render``: write every pane as PNG/SVG/PDF without opening a window.

Any bad input ends with one line on stderr, exit status 2, and nothing written.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors in our one-line style."""

    def error(self, message: str):
        raise _Usage(message)


class _Usage(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="qkv-desktop render",
                description="Write x, q, k, v, scores, scaled, weights, output and a "
                            "dashboard as images, plus matrices.npz, without a window.",
                epilog="Layers and heads count from 0 (the window counts from 1); the "
                       "file names of several heads (q_h1, W_Q_h1 …) count from 1, as "
                       "the window does. With a decoder (smollm2 or a .gguf file), "
                       "matrices.npz also holds token_ids, Q_rope, K_rope, next_top5_ids "
                       "and next_top5_probs.")
    p.add_argument("source", nargs="?", help="a session file (.qkv.json)")
    p.add_argument("--preset", help="render a preset instead of a session file")
    p.add_argument("--model", metavar="MODEL",
                   help="minilm (the installed all-MiniLM-L6-v2 encoder), smollm2 (the "
                        "installed SmolLM2-135M decoder), a LLaMA .gguf file or a BERT "
                        "checkpoint folder")
    p.add_argument("--text", help="with --model: the sentence to tokenize")
    # Scripts index from 0, as NumPy and the checkpoint's tensor names do; the window
    # counts from 1 for people ("layer 3 of 6" is --layer 2).
    p.add_argument("--layer", type=int, default=0,
                   help="with --model: the layer, counted from 0 (the window's "
                        "\"layer 1 of N\" is --layer 0)")
    p.add_argument("--head", type=int, default=0,
                   help="with --model: the head, counted from 0 (the window's "
                        "\"head 1 of N\" is --head 0)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--format", default="png", help="comma-separated: png,svg,pdf")
    p.add_argument("--scale", type=float, default=2.0, help="PNG scale factor (default 2)")
    p.add_argument("--lang", help="figure language: en or zh_CN")
    return p


def _load_state(args):
    """(state, extra arrays for matrices.npz, the head the dashboard and the main panes
    show): a session file's own head on show (``layout.head``), as the window opens it."""
    from qkv_desktop.state.session_state import SessionState
    chosen = [x for x in (args.source, args.preset, args.model) if x]
    if len(chosen) != 1:
        raise ValueError("give exactly one of SOURCE, --preset NAME or --model FOLDER")
    if args.preset:
        return SessionState.from_preset(args.preset), None, 0
    if args.model:
        if not args.text:
            raise ValueError("--model needs --text \"a sentence\"")
        from qkv_desktop.io.model_sources import open_model, provenance_for
        ckpt = open_model(args.model)
        for what, value, count in (("layer", args.layer, ckpt.n_layers),
                                   ("head", args.head, ckpt.n_heads)):
            if not 0 <= value < count:  # counted from 0 on the command line
                raise ValueError(f"--{what} {value} is out of range: {ckpt.name} has "
                                 f"{what}s 0 … {count - 1} (counted from 0)")
        # which model, layer and head: the figures' titles name them, as the window's
        # exports do (they were left out here: a first user)
        state = ckpt.session_state(args.text, args.layer, args.head).with_(
            provenance=provenance_for(ckpt, args.text, args.layer, args.head))
        extra = {"token_ids": np.asarray(ckpt.encode(args.text).ids, dtype=np.int64)}
        if hasattr(ckpt, "next_tokens"):
            top = ckpt.next_tokens(args.text)
            extra["next_top5_ids"] = np.array([t.id for t in top], dtype=np.int64)
            extra["next_top5_probs"] = np.array([t.probability for t in top])
        return state, extra, 0
    from qkv_desktop.io.session import load_session
    loaded = load_session(args.source)
    return loaded.state, None, loaded.shown_head


def main(argv: list[str]) -> int:
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    try:
        args = _parser().parse_args(argv)
        formats = tuple(f.strip().lower() for f in args.format.split(",") if f.strip())
        from qkv_desktop.views.i18n import install_translators_for_cli
        try:  # figure titles and captions in this language
            install_translators_for_cli(args.lang)
        except ValueError as exc:
            raise ValueError(f"--lang: {exc}") from None
        state, extra, head = _load_state(args)
        from qkv_desktop.export.render import render
        written = render(state, args.out, formats=formats, scale=args.scale, h=head,
                         extra_arrays=extra)
    except _Usage as exc:
        print(f"qkv-desktop render: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"qkv-desktop render: error: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0
