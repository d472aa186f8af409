"""The one kind of refusal the engine gives: it names where, which field, and why.

The engine speaks English and knows nothing of Flask. A refusal keeps its
sentence as an English template with named blanks (`Message`), so the web
layer and the CLI can translate the template and fill the same blanks
(i18n.translated), while `.reason`, `str(error)` and `replay`'s stderr line
stay the English text they always were.
"""
from __future__ import annotations

from babel.lists import format_list


def N_(message: str) -> str:
    """Marks an English template for `pybabel extract`; it is translated where it is shown."""
    return message


class Message:
    """An English sentence with named blanks, e.g. Message(N_("{kd} is over the knock limit {limit}"), kd=12, limit=10).

    A blank may hold another Message (a reason inside a reason); `render` fills
    the blanks after passing every template through `translate`. A blank may hold a
    card (models/game/cards.Card, anything with a `face`): the English text writes its
    code (7H, as the match file and the command line read it), a page its face (7♥).
    """

    __slots__ = ("template", "params")

    def __init__(self, template: str, /, **params):
        self.template = template
        self.params = params

    def render(self, translate=None, ntranslate=None, faces: bool = False, language: str = "en") -> str:
        """The sentence, its template passed through `translate` (gettext) when given; `faces`:
        cards as a player writes them (7♥), for a page, else as codes (7H); `language`: how a
        `Series` in it is joined."""
        return self.fill(translate(self.template) if translate else self.template, translate, ntranslate, faces,
                         language)

    def fill(self, text: str, translate=None, ntranslate=None, faces: bool = False, language: str = "en") -> str:
        if not self.params:
            return text
        values = {key: written(value, translate, ntranslate, faces, language) for key, value in self.params.items()}
        return text.format(**values)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.template, self.params) == (other.template, other.params)

    __hash__ = None


class Plural(Message):
    """A Message whose words follow a count, as ngettext's: Plural("{count} match", "{count} matches", n).

    `pybabel extract` finds it by its name (babel.cfg: Plural:1,2), so the two strings are plain literals.
    """

    __slots__ = ("plural", "count")

    def __init__(self, singular: str, plural: str, count: int, /, **params):
        super().__init__(singular, count=count, **params)
        self.plural = plural
        self.count = count

    def render(self, translate=None, ntranslate=None, faces: bool = False, language: str = "en") -> str:
        if ntranslate:
            text = ntranslate(self.template, self.plural, self.count)
        else:
            text = self.template if self.count == 1 else self.plural
        return self.fill(text, translate, ntranslate, faces, language)

    def __repr__(self) -> str:
        return f"Plural({self.template!r}, {self.plural!r}, {self.count!r}, **{self.params!r})"


class Series(tuple):
    """Words in a list ('1', '1 and 2', '1, 2, and 3': the games of a hand), joined where they are
    shown as that language joins a list (CLDR's, Babel's format_list)."""

    __slots__ = ()


def written(value, translate=None, ntranslate=None, faces: bool = False, language: str = "en"):
    """A blank's value as its sentence writes it: a Message rendered, a Series joined, a card as its
    face or code."""
    if isinstance(value, Message):
        return value.render(translate, ntranslate, faces, language)
    if isinstance(value, Series):
        return format_list([str(item) for item in value], locale=language)
    face = getattr(value, "face", None)
    if isinstance(face, str):
        return face if faces else str(value)
    return value


def as_message(reason: str | Message, params: dict) -> Message:
    return reason if isinstance(reason, Message) else Message(reason, **params)


class LedgerError(Exception):
    """Everything Gin Ledger refuses or cannot find: one base, so a caller may catch them all.

    `.message` is the English Message; the web layer and the CLI translate it.
    Subclasses are told apart by type, never by their text or field.
    """

    def __init__(self, reason: str | Message, /, **params):
        self.message = as_message(reason, params)
        super().__init__(str(self.message))


class Refusal(LedgerError, ValueError):
    """Input the engine will not take (a card, a meld, a rename): str(error) is the English."""


class MatchError(Refusal):
    """A match, a hand or a setting that breaks RULES.md or MATCHFILE.md.

    `hand` is the 1-based hand number (None for the match's own fields) and
    `field` the match-file key, so every refusal can say exactly what to fix.
    `reason` is an English template (marked with N_) filled from `params`,
    or a Message (e.g. a CardError's), or a Refusal whose message is taken.
    """

    def __init__(self, field: str, reason: str | Message | Refusal, hand: int | None = None, /, **params):
        self.field = field
        self.hand = hand
        message = reason.message if isinstance(reason, Refusal) else as_message(reason, params)
        self.reason = str(message)
        super().__init__(message)
        self.args = (self.line(),)

    def line(self) -> str:
        where = f"hand {self.hand}, " if self.hand is not None else ""
        return f"{where}{self.field}: {self.reason}"

    def __str__(self) -> str:
        return self.line()

    def at_hand(self, hand: int) -> "MatchError":
        return type(self)(self.field, self.message, hand)


class MatchOver(MatchError):
    """A hand after the last game closed: `hand` is the refused hand (None for "the next one").

    Its own type, so storage and the views tell "the match is over" from any other refusal.
    """

    def __init__(self, hand: int | None, reason: str | Message = N_("the match was already over after hand {last}"),
                 /, **params):
        if hand is not None:
            params.setdefault("last", hand - 1)
        super().__init__("hand", reason, hand, **params)

    def at_hand(self, hand: int) -> "MatchOver":
        return MatchOver(hand, self.message)


class NotFound(LedgerError, LookupError):
    """What was asked for (a match, a hand, a player, a link) is not kept here."""

    def __init__(self, what: object):
        self.what = what
        super().__init__("{what} is not kept here", what=what)  # never shown: each page says its own 404


class NoSuchMatch(NotFound):
    """A match (or a hand in it, or a player) that storage does not hold."""


class NoSuchTable(NotFound):
    """A table key this server does not hold: its pages answer 404, never another table's."""


class StaleMatch(LedgerError):
    """Someone changed the match after this page was drawn: the change is refused, not merged."""

    def __init__(self, match_id: int):
        self.match_id = match_id
        super().__init__("match {match_id} changed since the page was drawn", match_id=match_id)


class HandAlreadySaved(LedgerError):
    """The page entered hand `number`, but another phone saved that deal first.

    Saving it anyway would store one deal twice; `line` is the hand already there,
    so the player can be told what it was and asked whether theirs is another deal.
    """

    def __init__(self, match_id: int, number: int, line):
        self.match_id, self.number, self.line = match_id, number, line
        super().__init__("hand {number} of match {match_id} was already saved", number=number, match_id=match_id)


class PlayerProblem(Refusal):
    """A rename, merge or delete that would lose or confuse someone's matches."""


class MatchNotOver(Refusal):
    """A rematch asked for before the match it follows has ended: its hands would have nowhere to go."""


class SchemaTooNew(LedgerError):
    """The file was written by a newer Gin Ledger; using it could lose what that version stored.

    Said once, in English, to whoever starts the server; no page ever shows it.
    """

    def __init__(self, path: str, found: int, known: int):
        self.path, self.found, self.known = path, found, known
        super().__init__("{path} was written by a newer Gin Ledger (database version {found}; this Gin Ledger "
                         "knows up to {known}): upgrade Gin Ledger, or open another file",
                         path=path, found=found, known=known)


class NotALedger(LedgerError):
    """A file given to `restore` that no Gin Ledger wrote (it has no schema version): nothing is restored."""

    def __init__(self, path: str):
        self.path = path
        super().__init__("{path} is not a Gin Ledger database", path=path)


class LedgerDamaged(LedgerError):
    """The SQLite file itself cannot be read even with its -wal applied: damaged pages, or not a database.

    Said once, in English, to whoever starts the server or runs a command; nothing is written to it.
    """

    def __init__(self, path: str, problem: str):
        self.path, self.problem = path, problem
        super().__init__("{path} is damaged and cannot be read ({problem}); nothing was written to it. Keep "
                         "a copy of it and of its -wal file, move them aside, then put your last backup back "
                         "with `flask --app app restore BACKUP` (backups come from `flask --app app backup "
                         "FILE`)", path=path, problem=problem)


class DatabaseGone(LedgerError):
    """The database file is not where it was (deleted or moved while the app runs).

    Its own type, so a page can say so (503) instead of a 500, and nothing is
    written: a new empty file in its place would hide every match the table kept.
    """

    def __init__(self, path: str, problem: str):
        self.path = path
        super().__init__("the database {path} cannot be opened ({problem}): nothing is written until it is "
                         "back; restart Gin Ledger only once it is restored", path=path, problem=problem)


class DatabaseUnreachable(DatabaseGone):
    """The PostgreSQL server does not answer, or every session is taken: a 503, nothing written."""

    def __init__(self, address: str, problem: str):
        self.path = address
        LedgerError.__init__(self, "the PostgreSQL database {address} cannot be reached ({problem}): nothing "
                             "is written until it answers", address=address, problem=problem)


class DatabaseFault(LedgerError):
    """The database failed in the middle of a request. A 503 whose sentence says what this request did
    (views/site/errors.py): a read could not read, a write was not kept, or a write was kept but the page after
    it cannot be drawn. Told apart by type; `problem` is the engine's own words, for the log."""

    def __init__(self, problem: str):
        self.problem = problem
        super().__init__("the database failed ({kind}): {problem}", kind=type(self).__name__, problem=problem)


class DatabaseLost(DatabaseFault):
    """PostgreSQL dropped the session: the server restarted, failed over, or was stopped."""


class DatabaseBusy(DatabaseFault):
    """SQLite's file stayed locked by another program for longer than the busy timeout."""


class DiskFull(DatabaseFault):
    """The disk under the database is full: no write can be kept until there is room."""


class DatabaseUnreadable(DatabaseFault):
    """The database file cannot be read or written (an I/O error, damaged pages, no permission)."""


class CommitUnknown(DatabaseLost):
    """The session was cut while its COMMIT was on the way: the write may or may not be kept. `submission`,
    the write's one-time key where it has one, finds out once the database is back."""

    def __init__(self, problem: str, submission: str | None = None):
        super().__init__(problem)
        self.submission = submission


class DatabaseRefused(LedgerError):
    """An address Gin Ledger cannot use, or a server that does not answer; `setting`: where it was given
    (FLASK_DATABASE at the start; a command's argument names none).

    Said once, in English, to whoever starts the server or runs the command; nothing is created.
    """

    def __init__(self, address: str, problem: str, setting: str | None = None):
        self.address, self.problem, self.setting = address, problem, setting
        super().__init__("{named} cannot be used: {problem}. Give a file path for SQLite, or "
                         "postgresql://USER@HOST:PORT/DATABASE for PostgreSQL; nothing was created",
                         named=f"{setting}={address}" if setting else address, problem=problem)

    def given_as(self, setting: str) -> "DatabaseRefused":
        return DatabaseRefused(self.address, self.problem, setting)


class DestinationNotEmpty(LedgerError):
    """`flask copy-db` was given a destination that already holds a ledger; `held`: table -> rows."""

    def __init__(self, held: dict[str, int]):
        self.held = held
        super().__init__("the destination is not empty ({held})",
                         held=", ".join(f"{count} {table}" for table, count in held.items()))


class MigrationsBroken(LedgerError):
    """The migration files themselves are misnumbered: a packaging mistake, not a user's."""
