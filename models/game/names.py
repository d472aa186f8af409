"""The one reader of names, for every kind of name: a player's, a table's, a match's, a preset's, a
device's, a currency symbol.

- A name is read in Unicode NFC, without white space around it.
- Control and format characters are refused with the field named: a U+202E (right-to-left override)
  turns "Ana vs Ben" into "neB sv anA" around it, a NUL cuts a name short in other programs. Zero
  width joiners (U+200C, U+200D) stay: some scripts and emoji are written with them.
- Characters that draw nothing (default-ignorable: U+200B, U+00AD, variation selectors, …) are no part
  of who a name is (`identity`): "A\u200bna" is Ana.
- `skeleton` is how a name looks: "Аna" with a Cyrillic А looks like "Ana"; a new player whose name
  looks like a kept player's is asked about, never silently a second person.
"""
from __future__ import annotations

import unicodedata

from models.errors import N_, MatchError

KEPT_FORMAT = frozenset("\u200c\u200d")  # zero width non-joiner and joiner: how some words are written
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

# Default-ignorable code points (Unicode's DerivedCoreProperties), as ranges.
IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
             (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
             (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
             (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))

# Letters of other scripts drawn like Latin ones (a small part of Unicode's confusables: the Greek and
# Cyrillic capitals and small letters a keyboard offers).
LOOKALIKES = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "Ѕ": "S", "І": "I", "Ј": "J",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "ι": "i", "κ": "k",
    "0": "o", "1": "l", "ı": "i",
})


def ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in IGNORABLE)


def refused_characters(text: str) -> list[str]:
    """The characters of `text` no name may hold (control and format characters, but the joiners)."""
    return [char for char in text if unicodedata.category(char) in REFUSED_CATEGORIES and char not in KEPT_FORMAT]


def codes(chars: list[str]) -> str:
    return ", ".join(dict.fromkeys(f"U+{ord(char):04X}" for char in chars))


def read_name(value: object, field: str, most: int, *, required: bool = True) -> str | None:
    """`value` as a name of at most `most` characters; a MatchError naming `field` for one it cannot be."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise MatchError(field, N_("must be text"))
    text = unicodedata.normalize("NFC", value).strip()
    bad = refused_characters(text)
    if bad:
        raise MatchError(field, N_("may not hold control or invisible formatting characters ({codes})"),
                         codes=codes(bad))
    if not text:
        if required:
            raise MatchError(field, N_("must not be empty"))
        return None
    if len(text) > most:
        raise MatchError(field, N_("at most {most} characters"), most=most)
    return text


def identity(name: str) -> str:
    """Who a name is: NFC, case folded, runs of white space as one space, nothing invisible.

    "Ana", "ana", "ANA" and "A\u200bna" are one person, and so is "Zoë" typed as one character or
    as e and a combining diaeresis; a keyboard decides those, not the player."""
    visible = "".join(char for char in unicodedata.normalize("NFC", name) if not ignorable(char))
    folded = unicodedata.normalize("NFC", " ".join(visible.split())).casefold()
    return unicodedata.normalize("NFC", folded)


def which_player(name: object, players: tuple[str, str]) -> str | None:
    """The player of `players` that `name` names, as the match spells them (MATCHFILE.md: "ana" in a hand
    is the match's "Ana"); None for anything else, a name or not."""
    if not isinstance(name, str):
        return None
    return next((player for player in players if identity(player) == identity(name)), None)


def skeleton(name: str) -> str:
    """How a name looks: its identity without accents, other scripts' look-alike letters as Latin ones."""
    plain = "".join(char for char in unicodedata.normalize("NFKD", identity(name))
                    if not unicodedata.combining(char))
    return plain.translate(LOOKALIKES).casefold()


ISOLATE, POP = "\u2068", "\u2069"  # first strong isolate, pop directional isolate


def isolated(name: str) -> str:
    """A name in plain text (a share text, the CSV) between isolates, so its direction stays its own."""
    return f"{ISOLATE}{name}{POP}"
