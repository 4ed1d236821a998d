"""Strict number, token and block parsing: what the table and paste accept and refuse."""

import numpy as np
import pytest

from qkv_desktop.state.parsing import ParseError, parse_block, parse_number, validate_token


@pytest.mark.parametrize("text, value", [
    ("0.5", 0.5), ("-1e-3", -1e-3), (".5", 0.5), ("5.", 5.0), ("  2  ", 2.0),
    ("+3", 3.0), ("1E3", 1000.0), ("-0", -0.0), ("1.7976931348623157e308", 1.7976931348623157e308),
])
def test_parse_number_accepts_plain_decimals(text, value):
    got, note = parse_number(text)
    assert got == value and np.signbit(got) == np.signbit(value)
    assert note is None


@pytest.mark.parametrize("text, reason", [
    ("", "empty"), ("   ", "empty"), ("abc", "not a number"), ("nan", "finite"),
    ("-inf", "finite"), ("Infinity", "finite"), ("1e400", "too large"),
    ("1,5", "decimal separator"), ("0x10", "hexadecimal"), ("١٢", "not a number"),
    ("1_000", "not a number"), ("1e", "not a number"), ("--1", "not a number"),
    ("x" * 65, "characters long"),
])
def test_parse_number_refuses_with_a_reason(text, reason):
    with pytest.raises(ParseError, match=reason):
        parse_number(text)


@pytest.mark.parametrize("text, value", [
    ("\u22120.25", -0.25), ("1e\u22123", 1e-3 * 1), ("０．５", 0.5), ("－１．５ｅ２", -150.0),
    ("１。５", 1.5), ("\u30000.5\u3000", 0.5),
])
def test_the_apps_own_minus_and_an_input_methods_full_width_forms_are_read(text, value):
    """"−0.25" is how every pane, tip and the Explain panel write a negative number, and
    a Chinese input method types "０．５" or "１。５": refused as "not a number" before."""
    assert parse_number(text) == (value, None)


def test_underflow_is_stored_as_zero_with_a_note():
    value, note = parse_number("1e-400")
    assert value == 0.0 and "stored as 0" in str(note)
    tiny, note = parse_number("5e-324")  # subnormal: kept as it is
    assert tiny == 5e-324 and note is None


def test_validate_token_rules():
    for ok in ("猫", "a b", "😀", "שלום", "x" * 200):
        assert validate_token(ok) == ok
    for bad, why in (("", "empty"), ("  ", "empty"), ("a\nb", "control"), ("\t", "empty"),
                     ("a\x00", "control"), ("x" * 201, "at most 200")):
        with pytest.raises(ParseError, match=why):
            validate_token(bad)


@pytest.mark.parametrize("text", [
    "1\t2\n3\t4", "1,2\n3,4", "1 2\n3  4", "1\t2\r\n3\t4\r\n", "\n1,2\n\n3,4\n",
])
def test_parse_block_separators(text):
    names, values = parse_block(text, 100)
    assert names is None
    np.testing.assert_array_equal(values, [[1, 2], [3, 4]])


def test_parse_block_with_token_names():
    names, values = parse_block("猫\t0.9\t0.1\n老鼠\t0.1\t0.2", 100)
    assert names == ["猫", "老鼠"]
    np.testing.assert_array_equal(values, [[0.9, 0.1], [0.1, 0.2]])
    names, values = parse_block("a,1\nb,2", 100)
    assert names == ["a", "b"] and values.shape == (2, 1)


def test_parse_block_names_the_first_bad_cell():
    with pytest.raises(ParseError, match=r"row 2, column 3: 'x' is not a number"):
        parse_block("1\t2\t3\n4\t5\tx", 100)
    with pytest.raises(ParseError, match=r"row 1, column 3"):  # names shift the column
        parse_block("a\t1\tnan\nb\t2\t3", 100)
    with pytest.raises(ParseError, match="different numbers of values"):
        parse_block("1\t2\n3", 100)
    with pytest.raises(ParseError, match="no values"):
        parse_block(" \n\n", 100)


def test_parse_block_limits_are_checked_before_parsing():
    with pytest.raises(ParseError, match="at most 3 are allowed"):
        parse_block("1 2\n3 4", 3)
    with pytest.raises(ParseError, match="100,000 rows; at most 4,096"):
        parse_block("x\n" * 100_000, 10**9, max_rows=4096)  # never parsed: all words
