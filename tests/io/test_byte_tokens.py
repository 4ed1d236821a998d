"""Readable byte-level tokens: whole characters, characters split across tokens, stray
bytes and special tokens, never U+FFFD."""

from qkv_desktop.io.byte_tokens import byte_level_alphabet, piece_bytes, readable_labels, readable_piece
from tests.io.tiny_llama import byte_chars


def piece(data: bytes) -> str:
    table = byte_chars()  # the test's own copy of GPT-2's byte table
    return "".join(table[b] for b in data)


def test_the_byte_table_is_gpt2s():
    assert {c: b for b, c in enumerate(byte_chars())} == byte_level_alphabet()
    assert piece_bytes("ĠParis") == b" Paris" and piece_bytes("<|x|>") == b"<|x|>"
    assert piece_bytes("Paris一") is None


def test_a_character_split_over_three_tokens_is_shown_once():
    data = "我爱".encode()  # e6 88 91 | e7 88 b1
    pieces = [piece(data[:1]), piece(data[1:2]), piece(data[2:4]), piece(data[4:])]
    labels = readable_labels(pieces)
    assert [label.text for label in labels] == ["我…", "…", "…爱…", "…"]
    assert labels[0].continues == "我" and labels[1].completes == "我"
    assert labels[2].completes == "我" and labels[2].continues == "爱"
    assert labels[3].completes == "爱" and labels[3].hex == "88 b1"
    assert not any(label.whole for label in labels)


def test_whole_tokens_whitespace_and_special_tokens():
    labels = readable_labels(["<|im_start|>", piece(b" Paris"), piece(b"\n"), piece(b"  ")],
                             [True, False, False, False])
    assert [label.text for label in labels] == ["<|im_start|>", " Paris", "↵", "␣␣"]
    assert labels[0].special and all(label.whole for label in labels)


def test_a_lone_partial_token_shows_its_bytes_not_a_replacement_mark():
    assert readable_piece(piece("我".encode()[:2])) == "⟨e6 88⟩"
    assert readable_piece(piece(" 我".encode())) == " 我"
    assert "\ufffd" not in readable_piece(piece(b"\xff\xfe"))
