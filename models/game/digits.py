"""Reading a count typed by a person: digits only, of one script, a few of them.

`str.isdigit` is true for '²' and '①', which `int` then refuses (a 500 where a
refusal was due), and `int` itself takes '1_0' as 10, ' 7' and '+7', and
spends quadratic time on thousands of digits before it refuses them. A count
here is decimal digits (Unicode category Nd: ASCII or another script's, such
as Arabic-Indic '٣' for 3) all of one script, at most `most_digits` of them.
"""
from __future__ import annotations

import unicodedata


def read_count(text: str | None, most_digits: int) -> int | None:
    """The value of `text` as a whole number >= 0, or None when it is not one."""
    if not text or len(text) > most_digits:
        return None
    values = [unicodedata.decimal(char, None) for char in text]
    if None in values:
        return None
    zeros = {ord(char) - value for char, value in zip(text, values)}
    if len(zeros) != 1:  # '1٣' mixes two scripts: a typo, not a number
        return None
    return int("".join(map(str, values)))
