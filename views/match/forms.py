"""The forms of a match: the hand form, a new match, its name, a match file to import. Field names are the
match file's keys, player names the values; what the rules refuse is left to the engine (views/site/forms.py).
"""
from __future__ import annotations

import secrets

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField
from wtforms import BooleanField, Field, HiddenField, IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import Length, Optional, ValidationError
from wtforms.widgets import TextInput

from models.game.cards import RANKS, SUITS, SUIT_SYMBOLS
from models.game.hand import MAX_DEADWOOD
from models.errors import N_
from models.files.matchfile import MAX_IMPORT_BYTES, MAX_NAME
from models.game.presets import BUILT_IN
from models.game.rules import CHOICE_SETTINGS, INT_RANGES, SETTINGS, Rules, Setting, partners_on, placed

from views.site.forms import CARDS_MOST, FORM_ID_MOST, UPCARD_MOST, VERSION_DIGITS, Between, Form, Most, Name, whole

# What the engine says when a tap is missing (models/game/entry.py), and what the hand form asks instead.
MISSING = (N_("missing"), N_("missing: a hand needs a knocker, a winner with points, or draw"),
           N_("missing: Oklahoma needs the first upcard of the deal"))
ASK_FOR = {
    "upcard": _l("Choose the upcard first."),
    "knocker": _l("Tap who knocked, or type the points instead, or save a draw."),
    "knocker_deadwood": _l("Tap the knocker's deadwood."),
    "opponent_deadwood": _l("Enter the defender's deadwood."),
    "winner": _l("Tap who scores."),
    "points": _l("Enter the points."),
}

UPCARDS = [(rank + suit, rank + SUIT_SYMBOLS[suit]) for suit in SUITS for rank in RANKS]


def new_form_id() -> str:
    """A hand form's one-time id: the same id posted twice is one hand (models/stora.submission_key)."""
    return secrets.token_urlsafe(12)


class HandForm(Form):
    """One form for every kind of hand; the kind follows from the fields sent.

    No token of its own: CSRFProtect checks every POST before the view (app.py), and the
    form's own check signed a second token for nothing on every saved hand."""

    class Meta:
        csrf = False

    form_id = HiddenField(validators=[Most(FORM_ID_MOST)])
    version = HiddenField(validators=[Most(VERSION_DIGITS)])
    # The number of the hand the page entered: a page drawn before another phone's save is asked.
    number = HiddenField(validators=[Most(VERSION_DIGITS)])
    confirmed = HiddenField(validators=[Most(3)])  # "yes" once the player said a score above the most is right
    # The hand another phone saved while this page entered it, once the page said so (static/app.js):
    # an entry the same as that hand is asked about before it is stored as the next.
    told = HiddenField(validators=[Most(VERSION_DIGITS)])
    knocker = RadioField(_l("Who knocked?"), choices=[], validate_choice=False, validators=[Most(MAX_NAME)])
    knocker_deadwood = whole(_l("Knocker's deadwood"), 0, MAX_DEADWOOD)
    opponent_deadwood = whole(_l("Defender's deadwood after lay-offs"), 0, MAX_DEADWOOD)
    big_gin = BooleanField(_l("Big gin (all 11 cards)"))
    # Oklahoma's upcard as the match file writes it ("7S"); the form offers it as a rank and a
    # suit (two radio groups, no script needed), and a posted `upcard` (the count page) still counts.
    upcard = HiddenField(_l("Upcard"), validators=[Most(UPCARD_MOST)])
    upcard_rank = RadioField(_l("Upcard"), choices=[(rank, rank) for rank in RANKS], validate_choice=False,
                             validators=[Most(2)])
    upcard_suit = RadioField(_l("Upcard's suit"), choices=[(suit, SUIT_SYMBOLS[suit]) for suit in SUITS],
                             validate_choice=False, validators=[Most(1)])
    draw = BooleanField(_l("Draw"))
    winner = RadioField(_l("Who scores?"), choices=[], validate_choice=False, validators=[Most(MAX_NAME)])
    points = whole(_l("Points"), 1)
    # The cards tapped on the count page, space-separated codes; the engine checks them.
    cards_knocker = HiddenField(_l("Knocker's cards"), validators=[Most(CARDS_MOST)])
    cards_defender = HiddenField(_l("Defender's cards"), validators=[Most(CARDS_MOST)])
    UNSHOWN = ("form_id", "version", "number", "confirmed", "told")  # no label on the page: their refusals go above the form

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        for name in self.UNSHOWN:
            for reason in self[name].errors:
                self.form_errors.append(gettext("%(field)s: %(reason)s", field=name, reason=reason))
        return valid

    def validate_winner(self, field) -> None:
        """The typed-points form sent with nothing chosen is still a points hand: ask for its winner
        there (an empty entry would otherwise read as a knock and be refused on "Who knocked?")."""
        if self.points.raw_data and not field.data and not self.draw.data and not self.points.data:
            raise ValidationError(str(ASK_FOR["winner"]))

    def set_players(self, players: tuple[str, str]) -> None:
        choices = [(name, name) for name in players]
        self.knocker.choices = choices
        self.winner.choices = choices

    def new_form_id(self) -> None:
        self.form_id.data = new_form_id()

    def entry(self) -> dict:
        """The hand as match-file keys, every one that was filled in: the engine then refuses a mix
        (a draw with a knocker, points with deadwood) naming the field, as it does in a file."""
        raw = {
            "draw": True if self.draw.data else None,
            "winner": self.winner.data or None,
            "points": self.points.data if filled(self.points) else None,
            "knocker": self.knocker.data or None,
            "knocker_deadwood": self.knocker_deadwood.data if filled(self.knocker_deadwood) else None,
            "opponent_deadwood": self.opponent_deadwood.data if filled(self.opponent_deadwood) else None,
            "big_gin": True if self.big_gin.data else None,
            "upcard": self.upcard_code() or None,
        }
        if not (raw["draw"] or raw["winner"] or raw["points"] is not None):
            # The tapped cards stay in hidden fields while a draw or points is typed: only a knock keeps them.
            raw["cards"] = self.cards() or None
        return {key: value for key, value in raw.items() if value is not None}

    def upcard_code(self) -> str | None:
        """The upcard as one code: the rank and suit tapped, else an `upcard` sent whole.

        Only a rank, or only a suit, is no card yet: the hand then asks for the upcard."""
        if self.upcard_rank.data and self.upcard_suit.data:
            return f"{self.upcard_rank.data}{self.upcard_suit.data}"
        return self.upcard.data or None

    def upcard_parts(self) -> tuple[str | None, str | None]:
        """(rank, suit) to show as tapped: what was tapped, else the parts of a whole `upcard`."""
        code = self.upcard.data or ""
        whole = (code[:-1], code[-1]) if code[:-1] in RANKS and code[-1:] in SUITS else (None, None)
        return self.upcard_rank.data or whole[0], self.upcard_suit.data or whole[1]

    def bounds(self, name: str) -> dict:
        """A count field's most, as its declaration says it (Between): the page's pad refuses a digit past
        it aloud, rather than the field dropping it (static/app.js); the save still checks it."""
        most = next(v.high for v in self[name].validators if isinstance(v, Between))
        return {"maxlength": len(str(most)), "data-most": most}

    def most_words(self, name: str) -> str:
        """The field's most as the page's language writes numbers (1,000,000), for the pad's refusal."""
        from views.site.i18n import number

        return number(self.bounds(name)["data-most"])

    # The first refused field, in the order the page shows them: it gets the focus (autofocus).
    PAGE_ORDER = ("upcard", "knocker", "knocker_deadwood", "big_gin", "opponent_deadwood",
                  "cards_knocker", "cards_defender", "winner", "points")

    def first_refused(self) -> str | None:
        return next((name for name in self.PAGE_ORDER if getattr(self, name).errors), None)

    def refusal_words(self, name: str, reasons: list[str] | None = None) -> str:
        """A refusal as a player reads it by the field (the save) or under the form (the preview):
        a missing tap is asked for, anything else is the field's name and the engine's why."""
        field = getattr(self, name.replace(".", "_"), None)
        reasons = list(field.errors) if reasons is None else reasons
        missing = {gettext(template) for template in MISSING} | {str(ASK_FOR.get(name, ""))}
        if name in ASK_FOR and any(reason in missing for reason in reasons):
            return str(ASK_FOR[name])
        label = getattr(field, "label", None)
        return f"{label.text}: {' '.join(reasons)}" if label is not None else " ".join(reasons)

    def cards(self) -> dict:
        """{"knocker": [...], "defender": [...]} from the hidden fields, only the sides sent."""
        sides = (("knocker", self.cards_knocker), ("defender", self.cards_defender))
        return {side: field.data.split() for side, field in sides if field.data and field.data.strip()}


def filled(field) -> bool:
    """Sent with a value (an empty box of a form is not an entry)."""
    return bool(field.raw_data) and field.raw_data[0] != ""


def setting_label(name: str):
    """A rule setting's label as models/game/rules.py declares it, in the page's language."""
    return _l(SETTINGS[name].label)


def setting(name: str) -> IntegerField:
    """A rule setting typed over the preset, bounded as the engine bounds it."""
    return whole(setting_label(name), *INT_RANGES[name])


class PairField(Field):
    """Two inputs named `players`, as the match file's list is named."""

    widget = TextInput()

    def process_formdata(self, valuelist):
        self.data = [value.strip() for value in valuelist]

    def _value(self):
        return ""


# Each choice setting's words (models/game/rules.py: DealerRule, OklahomaAce), worded for the form.
CHOICE_LABELS = {name: {word.value: _l(word.label) for word in words} for name, words in CHOICE_SETTINGS.items()}
PRESET_LABELS = {key: _l(preset.name) for key, preset in BUILT_IN.items()}
PRESET_ABOUT = {key: _l(preset.about) for key, preset in BUILT_IN.items()}


def switch(name: str) -> SelectField:
    """A yes/no setting typed over the preset: empty keeps the preset's value."""
    return SelectField(setting_label(name), choices=[("", _l("as the preset")), ("on", _l("yes")), ("off", _l("no"))],
                       default="")


def choice(name: str) -> SelectField:
    """A choice setting typed over the preset: empty keeps the preset's value."""
    return SelectField(setting_label(name), choices=[("", _l("as the preset")), *CHOICE_LABELS[name].items()],
                       validate_choice=True, default="")


def rule_field(name: str, declared: Setting) -> Field:
    """A setting's field, named as the setting: a whole number bounded as the engine bounds it; a
    yes/no asked as "as the preset / yes / no" (so an untouched field keeps the preset's value), or,
    declared `ticked`, one tick box (ticked turns it on, unticked keeps the preset's); a choice as
    its words."""
    if declared.kind is int:
        return setting(name)
    if declared.kind is bool:
        return BooleanField(setting_label(name)) if declared.ticked else switch(name)
    return choice(name)


class NewMatchForm(Form):
    MULTIPLE = ("players",)
    players = PairField(_l("Players"), validators=[Most(MAX_NAME), Name(MAX_NAME, required=False)])
    # Asked only when a new name looks like a kept player's ("Аna" with a Cyrillic А beside Ana).
    new_players = BooleanField(_l("Yes, a new player: not the one the name looks like"))
    format = RadioField(_l("Format"), choices=[("hollywood", _l("Hollywood (three games)")),
                                               ("single", _l("Single game"))],
                        default="hollywood")
    preset = RadioField(_l("Rules"), choices=list(PRESET_LABELS.items()), default="classic")
    save_as = StringField(_l("Save these rules as a preset named"),
                          validators=[Most(MAX_NAME), Name(MAX_NAME, required=False)])
    stake = StringField(_l("Money per point"), validators=[Optional(), Length(max=20)],
                        render_kw={"inputmode": "decimal", "placeholder": _l("e.g. 0.05"), "autocomplete": "off"})
    currency = StringField(_l("Currency symbol"), validators=[Most(5), Name(5, required=False)],
                           render_kw={"placeholder": "€", "autocomplete": "off"})
    first_dealer = StringField(_l("First dealer"), validators=[Optional(), Length(max=MAX_NAME)])
    # One field per setting (below the class), named as the setting, as models/game/rules.py declares it.
    ASKED = tuple(name for name, declared in placed(lambda s: s.asked) if not declared.ticked)  # the grid's
    TICKED = tuple(name for name, declared in placed(lambda s: s.asked) if declared.ticked)  # tick boxes below it
    NUMBERS = frozenset(INT_RANGES)
    # Said beside them: the table they change, and their default (read off their declarations).
    PARTNERS_ONLY = tuple(name for name, declared in SETTINGS.items() if declared.applies is partners_on)

    @staticmethod
    def default_words(name: str) -> str:
        """A choice setting's default, in the words its field offers (read off its declaration)."""
        return CHOICE_LABELS[name][getattr(Rules(), name).value]

    def offer_presets(self, names: list[str]) -> None:
        """The built-in presets (Classic, Modern, Bicycle, Palace), then the ones this table saved
        (values 'saved:NAME')."""
        self.preset.choices = list(PRESET_LABELS.items()) + [
            ("saved:" + name, name) for name in names]

    @staticmethod
    def preset_about(value: str) -> str:
        """What a built-in preset is, in the page's language; a table's own preset says nothing more."""
        return str(PRESET_ABOUT[value]) if value in PRESET_ABOUT else ""

    def chosen_settings(self) -> dict:
        """Settings typed over the preset; an empty field keeps the preset's value."""
        chosen = {}
        for name, declared in SETTINGS.items():
            data = getattr(self, name).data
            if declared.kind is int:
                if data is not None:
                    chosen[name] = data
            elif data:  # an empty choice, "as the preset" and an unticked box keep the preset's value
                chosen[name] = data if declared.kind is not bool else declared.ticked or data == "on"
        return chosen


for _name, _declared in SETTINGS.items():  # WTForms takes fields set on the class before its first form
    setattr(NewMatchForm, _name, rule_field(_name, _declared))


MAX_MATCH_NAME = 60


class MatchNameForm(Form):
    """The match page's name for a match ("Friday at Eva's"); empty takes the name away."""

    name = StringField(_l("Name of this match"), validators=[Most(MAX_MATCH_NAME), Name(MAX_MATCH_NAME, required=False)],
                       render_kw={"placeholder": _l("e.g. Friday at Eva's"), "autocomplete": "off",
                                  "maxlength": MAX_MATCH_NAME})


class ImportForm(Form):
    file = FileField(_l("Match file (JSON)"))
    text = TextAreaField(_l("…or paste it here"), validators=[Most(MAX_IMPORT_BYTES)])
