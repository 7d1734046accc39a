"""Fuzzy against ints too large for a float: a comparison never raises (found by B2)."""

from toolmatch import Fuzzy


def test_int_beyond_float_range_is_compared_not_raised() -> None:
    assert (Fuzzy("206588") == 10**400) is False
    assert (10**400 == Fuzzy("206588")) is False  # noqa: SIM300 (the reflected side)


def test_int_beyond_float_range_reads_as_infinity_like_the_reference() -> None:
    # The reference parses str(10**400) with float(), which gives inf.
    assert Fuzzy("1e400") == 10**400
