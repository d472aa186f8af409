"""The web forms. Field names are the match file's keys, player names the values.

WTForms does the web's part (CSRF, whole numbers, lengths); what the rules
refuse is left to the engine, so the form, the import and `replay` agree.
"""
from __future__ import annotations

import secrets

from flask_babel import get_translations, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, Field, HiddenField, IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional, ValidationError
from wtforms.widgets import TextInput

from models.cards import RANKS, SUITS, SUIT_SYMBOLS
from models.errors import N_
from models.matchfile import MAX_NAME
from models.rules import DEALER_RULES, INT_RANGES

UPCARDS = [(rank + suit, rank + SUIT_SYMBOLS[suit]) for suit in SUITS for rank in RANKS]


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular/plural pair for `pybabel extract` (babel.cfg: N_plural:1,2)."""
    return singular, plural


# What WTForms itself may say about these fields, in our catalogues (WTForms ships no Albanian).
WTFORMS_MESSAGES = (
    N_("Not a valid integer value."),
    N_("Not a valid choice."),
    N_("Invalid Choice: could not coerce."),
    N_("This field is required."),
)
WTFORMS_PLURALS = (
    N_plural("Field cannot be longer than %(max)d character.", "Field cannot be longer than %(max)d characters."),
)


class Catalogue:
    """WTForms' own messages through the app's catalogues, in the page's language."""

    def gettext(self, string):
        return get_translations().ugettext(string)

    def ngettext(self, singular, plural, n):
        return get_translations().ungettext(singular, plural, n)


class Form(FlaskForm):
    class Meta:
        def get_translations(self, form):
            return Catalogue()


class Between:
    """Like NumberRange, but compares whole numbers only: NumberRange calls math.isnan,
    which overflows on a 309-digit integer and would turn a typo into a 500."""

    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    def __call__(self, form, field) -> None:
        if field.data is not None and not self.low <= field.data <= self.high:
            raise ValidationError(gettext("must be between %(low)s and %(high)s", low=self.low, high=self.high))


def whole(label: str, low: int = 0, high: int = 1_000_000) -> IntegerField:
    """A whole-number field that opens the phone's number keyboard."""
    return IntegerField(
        label,
        validators=[Optional(), Between(low, high)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )


class HandForm(Form):
    """One form for every kind of hand; the kind follows from the fields sent."""

    form_id = HiddenField()
    version = HiddenField()
    number = HiddenField()  # the number of the hand the page entered: a page drawn before another save is asked
    confirmed = HiddenField()  # "yes" once the player said a score above the most one hand makes is right
    knocker = RadioField(_l("Who knocked?"), choices=[], validate_choice=False)
    knocker_deadwood = whole(_l("Knocker's deadwood"), 0, 98)
    opponent_deadwood = whole(_l("Defender's deadwood after lay-offs"), 0, 98)
    big_gin = BooleanField(_l("Big gin (all 11 cards)"))
    upcard = SelectField(_l("Upcard"), choices=[("", "—")] + UPCARDS, validate_choice=False)
    draw = BooleanField(_l("Draw"))
    winner = RadioField(_l("Who scores?"), choices=[], validate_choice=False)
    points = whole(_l("Points"), 1)
    # The cards tapped on the count page, space-separated codes; the engine checks them.
    cards_knocker = HiddenField(_l("Knocker's cards"))
    cards_defender = HiddenField(_l("Defender's cards"))

    def set_players(self, players: tuple[str, str]) -> None:
        choices = [(name, name) for name in players]
        self.knocker.choices = choices
        self.winner.choices = choices

    def new_form_id(self) -> None:
        self.form_id.data = secrets.token_urlsafe(12)

    def entry(self) -> dict:
        """The hand as match-file keys, leaving out what was not sent."""
        if self.draw.data:
            raw: dict = {"draw": True}
        elif self.winner.data or self.points.raw_data:
            raw = {"winner": self.winner.data, "points": self.points.data}
        else:
            raw = {
                "knocker": self.knocker.data,
                "knocker_deadwood": self.knocker_deadwood.data,
                "opponent_deadwood": self.opponent_deadwood.data,
            }
            if self.big_gin.data:
                raw["big_gin"] = True
            cards = self.cards()
            if cards:
                raw["cards"] = cards
        if self.upcard.data:
            raw["upcard"] = self.upcard.data
        return {key: value for key, value in raw.items() if value is not None}

    def cards(self) -> dict:
        """{"knocker": [...], "defender": [...]} from the hidden fields, only the sides sent."""
        sides = (("knocker", self.cards_knocker), ("defender", self.cards_defender))
        return {side: field.data.split() for side, field in sides if field.data and field.data.strip()}


def setting(label, name: str) -> IntegerField:
    """A rule setting typed over the preset, bounded as the engine bounds it."""
    return whole(label, *INT_RANGES[name])


class PairField(Field):
    """Two inputs named `players`, as the match file's list is named."""

    widget = TextInput()

    def process_formdata(self, valuelist):
        self.data = [value.strip() for value in valuelist]

    def _value(self):
        return ""


# The dealer rules by their match-file names (winner, loser, alternate), worded for the form.
DEALER_RULE_LABELS = {
    "winner": _l("winner"),
    "loser": _l("loser"),
    "alternate": _l("alternate"),
}
PRESET_LABELS = {"classic": _l("Classic"), "modern": _l("Modern")}


class NewMatchForm(Form):
    players = PairField(_l("Players"))
    format = RadioField(_l("Format"), choices=[("hollywood", _l("Hollywood (three games)")),
                                               ("single", _l("Single game"))],
                        default="hollywood")
    preset = RadioField(_l("Rules"), choices=list(PRESET_LABELS.items()), default="classic")
    save_as = StringField(_l("Save these rules as a preset named"),
                          validators=[Optional(), Length(max=MAX_NAME)])
    stake = StringField(_l("Money per point"), validators=[Optional(), Length(max=20)],
                        render_kw={"inputmode": "decimal", "placeholder": _l("e.g. 0.05"), "autocomplete": "off"})
    currency = StringField(_l("Currency symbol"), validators=[Optional(), Length(max=5)],
                           render_kw={"placeholder": "€", "autocomplete": "off"})
    first_dealer = StringField(_l("First dealer"), validators=[Optional(), Length(max=MAX_NAME)])
    dealer_rule = SelectField(_l("After a win, who deals"),
                              choices=[("", _l("as the preset"))] + [(r, DEALER_RULE_LABELS[r]) for r in DEALER_RULES],
                              validate_choice=True, default="")
    oklahoma = BooleanField(_l("Oklahoma (the upcard sets the knock limit)"))
    spade_double = SelectField(_l("Spade upcard doubles"),
                               choices=[("", _l("as the preset")), ("on", _l("yes")), ("off", _l("no"))],
                               default="")
    # One field per whole-number setting, named as the setting (tests/test_web_matches.py checks none is missing).
    gin_bonus = setting(_l("Gin bonus"), "gin_bonus")
    undercut_bonus = setting(_l("Undercut bonus"), "undercut_bonus")
    big_gin_bonus = setting(_l("Big gin bonus"), "big_gin_bonus")
    knock_limit = setting(_l("Knock limit"), "knock_limit")
    target = setting(_l("Game ends at"), "target")
    game_bonus = setting(_l("Game bonus"), "game_bonus")
    box_bonus = setting(_l("Box bonus (per hand won)"), "box_bonus")
    shutout_multiplier = setting(_l("Shutout multiplier"), "shutout_multiplier")

    def offer_presets(self, names: list[str]) -> None:
        """Classic and Modern, then the presets this table saved (values 'saved:NAME')."""
        self.preset.choices = list(PRESET_LABELS.items()) + [
            ("saved:" + name, name) for name in names]

    def chosen_settings(self) -> dict:
        """Settings typed over the preset; an empty field keeps the preset's value."""
        chosen = {}
        for name in INT_RANGES:
            value = getattr(self, name).data
            if value is not None:
                chosen[name] = value
        if self.dealer_rule.data:
            chosen["dealer_rule"] = self.dealer_rule.data
        if self.oklahoma.data:
            chosen["oklahoma"] = True
        if self.spade_double.data:
            chosen["spade_double"] = self.spade_double.data == "on"
        return chosen


MAX_MATCH_NAME = 60


class MatchNameForm(Form):
    """The match page's name for a match ("Friday at Eva's"); empty takes the name away."""

    name = StringField(_l("Name of this match"), validators=[Optional(), Length(max=MAX_MATCH_NAME)],
                       render_kw={"placeholder": _l("e.g. Friday at Eva's"), "autocomplete": "off",
                                  "maxlength": MAX_MATCH_NAME})


class VersionForm(Form):
    """Undo and delete: the version the page was drawn at, to refuse a stale change."""

    version = HiddenField()


class ImportForm(Form):
    file = FileField(_l("Match file (JSON)"))
    text = TextAreaField(_l("…or paste it here"))


class LoginForm(Form):
    passphrase = StringField(_l("Passphrase"), validators=[InputRequired(), Length(max=200)],
                             render_kw={"type": "password", "autocomplete": "current-password"})


class RenameForm(Form):
    new_name = StringField(_l("New name"), validators=[InputRequired(), Length(max=MAX_NAME)])


class MergeForm(Form):
    keep = StringField(_l("Keep this name"), validators=[InputRequired(), Length(max=MAX_NAME)])
    drop = StringField(_l("Merge this spelling into it"),
                       validators=[InputRequired(), Length(max=MAX_NAME)])


MAX_TABLE_NAME = 80


class StartTableForm(Form):
    table_name = StringField(_l("Name of the table"), validators=[InputRequired(), Length(max=MAX_TABLE_NAME)],
                             render_kw={"autocomplete": "off", "maxlength": MAX_TABLE_NAME})


class TablePassphraseForm(Form):
    passphrase = StringField(_l("Passphrase"), validators=[InputRequired(), Length(min=4, max=200)],
                             render_kw={"type": "password", "autocomplete": "new-password"})
