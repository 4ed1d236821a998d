"""Byte-level BPE tokens as a learner can read them.

GPT-2-style tokenizers (SmolLM2, LLaMA 3, GPT-2) work on UTF-8 bytes, each spelled
as one printable stand-in character: a space is ``Ġ``, a newline ``Ċ``, and the three
bytes of 我 are ``æĪĳ``. A Chinese character is often split across two tokens, so
decoding one token alone gives half a character, which Python and ``tokenizers``
would show as U+FFFD (�). This module maps pieces back to bytes and labels tokens
honestly instead:

* a token made of whole characters shows them (``" Paris"``);
* a character split across tokens is shown once, on the token where it starts,
  followed by ``…``; a token that only continues a character shows ``…`` (its bytes,
  and which character they complete, are in the hover text);
* bytes that never form a character (possible in a lone next-token prediction) are
  shown as ``⟨e6 88⟩``, never as U+FFFD.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

__all__ = ["TokenLabel", "byte_level_alphabet", "piece_bytes", "readable_labels",
           "readable_piece"]

CONTINUES = "…"
"""Marks a character that continues into the next token, or a token that ends one."""


@dataclass(frozen=True)
class TokenLabel:
    """What to show for one token (``text``) and the facts for its hover text.

    ``data`` is the token's bytes (empty for a special token), ``piece`` its vocabulary
    string; ``completes`` is the character whose last bytes it holds, ``continues`` the
    character that starts in it and ends in a later token (None when there is none).
    """

    text: str
    piece: str
    data: bytes
    completes: str | None = None
    continues: str | None = None
    special: bool = False

    @property
    def whole(self) -> bool:
        """True when the token holds only whole characters."""
        return self.completes is None and self.continues is None

    @property
    def hex(self) -> str:
        """The bytes as hex pairs, e.g. ``"e6 88"``."""
        return _hex(self.data)


@cache
def byte_level_alphabet() -> dict[str, int]:
    """GPT-2's byte-to-character table, inverted: stand-in character → byte value.

    Printable Latin-1 bytes stand for themselves; the other 68 bytes (controls, space,
    0x7f–0xa0, 0xad) are given the characters U+0100 onwards, in byte order.
    """
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
            *range(ord("®"), ord("ÿ") + 1)]
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[chr(b)] = b
        else:
            table[chr(256 + extra)] = b
            extra += 1
    return table


def piece_bytes(piece: str) -> bytes | None:
    """The bytes a byte-level piece stands for, or None if it has a character outside
    the byte alphabet (an added token may; ``<|im_start|>`` does not, so which tokens
    are special is the tokenizer's to say)."""
    table = byte_level_alphabet()
    try:
        return bytes(table[c] for c in piece)
    except KeyError:
        return None


def _visible(text: str) -> str:
    """Whitespace that would vanish on an axis, made visible."""
    if text and not text.strip():
        return text.replace(" ", "␣").replace("\n", "↵").replace("\t", "⇥").replace("\r", "␍")
    return text.replace("\n", "↵").replace("\t", "⇥").replace("\r", "␍")


def _hex(data: bytes) -> str:
    return " ".join(f"{b:02x}" for b in data)


def readable_piece(piece: str) -> str:
    """One token on its own (e.g. a predicted next token): its text, with bytes that are
    not a whole character shown as ``⟨e6 88⟩``."""
    data = piece_bytes(piece)
    if data is None:
        return piece
    out, i = [], 0
    while i < len(data):
        for size in (1, 2, 3, 4):  # the shortest prefix that decodes is one character
            try:
                out.append(data[i:i + size].decode("utf-8"))
            except UnicodeDecodeError:
                continue
            i += size
            break
        else:
            j = i + 1
            while j < len(data) and (data[j] & 0xC0) == 0x80:
                j += 1
            out.append(f"⟨{_hex(data[i:j])}⟩")
            i = j
    return _visible("".join(out))


def readable_labels(pieces: list[str], special: list[bool] | None = None) -> list[TokenLabel]:
    """Labels for a tokenised text (see the module docstring for the rules); tokens
    flagged in ``special`` (e.g. ``<|im_start|>``) are shown as they are spelled."""
    special = special or [False] * len(pieces)
    datas = [None if flag else piece_bytes(p) for p, flag in zip(pieces, special, strict=True)]
    labels: list[TokenLabel | None] = [None] * len(pieces)
    # Runs of byte-level tokens are decoded together so characters can span tokens.
    i = 0
    while i < len(pieces):
        if datas[i] is None:
            labels[i] = TokenLabel(pieces[i], pieces[i], b"", special=True)
            i += 1
            continue
        j = i
        while j < len(pieces) and datas[j] is not None:
            j += 1
        _label_run(pieces, datas, i, j, labels)
        i = j
    return labels  # type: ignore[return-value]


def _label_run(pieces, datas, start: int, stop: int, labels) -> None:
    blob = b"".join(datas[start:stop])
    owner = [k for k in range(start, stop) for _ in datas[k]]  # token of each byte
    texts = {k: [] for k in range(start, stop)}
    ends_inside = set()   # tokens whose last character goes on into the next token
    continues = {}        # token → the character whose bytes it continues
    i = 0
    while i < len(blob):
        for size in (1, 2, 3, 4):
            try:
                char = blob[i:i + size].decode("utf-8")
            except UnicodeDecodeError:
                continue
            break
        else:
            char, size = f"⟨{_hex(blob[i:i + 1])}⟩", 1
        start_of = owner[i]
        texts[start_of].append(char)
        last = owner[i + size - 1]
        if last != start_of:
            ends_inside.add(start_of)
            for k in range(start_of + 1, last + 1):
                continues[k] = char
        i += size
    for k in range(start, stop):
        text = _visible("".join(texts[k]))
        if k in continues:
            text = CONTINUES + text
        if k in ends_inside:
            text += CONTINUES
        labels[k] = TokenLabel(text, pieces[k], datas[k], continues.get(k),
                               texts[k][-1] if k in ends_inside else None)
