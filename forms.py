"""The web forms. Field names are the match file's keys, player names the values.

WTForms does the web's part (CSRF, whole numbers, lengths); what the rules
refuse is left to the engine, so the form, the import and `replay` agree.
"""
from __future__ import annotations

import secrets

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, Field, HiddenField, IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional, ValidationError
from wtforms.widgets import TextInput

from models.cards import RANKS, SUITS, SUIT_SYMBOLS
from models.matchfile import MAX_NAME
from models.rules import BOOL_SETTINGS, DEALER_RULES, INT_RANGES

UPCARDS = [(rank + suit, rank + SUIT_SYMBOLS[suit]) for suit in SUITS for rank in RANKS]


class Between:
    """Like NumberRange, but compares whole numbers only: NumberRange calls math.isnan,
    which overflows on a 309-digit integer and would turn a typo into a 500."""

    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    def __call__(self, form, field) -> None:
        if field.data is not None and not self.low <= field.data <= self.high:
            raise ValidationError(f"must be between {self.low} and {self.high}")


def whole(label: str, low: int = 0, high: int = 1_000_000) -> IntegerField:
    """A whole-number field that opens the phone's number keyboard."""
    return IntegerField(
        label,
        validators=[Optional(), Between(low, high)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )


class HandForm(FlaskForm):
    """One form for every kind of hand; the kind follows from the fields sent."""

    form_id = HiddenField()
    version = HiddenField()
    knocker = RadioField("Who knocked?", choices=[], validate_choice=False)
    knocker_deadwood = whole("Knocker's deadwood", 0, 98)
    opponent_deadwood = whole("Defender's deadwood after lay-offs", 0, 98)
    big_gin = BooleanField("Big gin (all 11 cards)")
    upcard = SelectField("Upcard", choices=[("", "—")] + UPCARDS, validate_choice=False)
    draw = BooleanField("Draw")
    winner = RadioField("Who scores?", choices=[], validate_choice=False)
    points = whole("Points", 1)
    # The cards tapped on the count page, space-separated codes; the engine checks them.
    cards_knocker = HiddenField("Knocker's cards")
    cards_defender = HiddenField("Defender's cards")

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


class PairField(Field):
    """Two inputs named `players`, as the match file's list is named."""

    widget = TextInput()

    def process_formdata(self, valuelist):
        self.data = [value.strip() for value in valuelist]

    def _value(self):
        return ""


class NewMatchForm(FlaskForm):
    players = PairField("Players")
    format = RadioField("Format", choices=[("hollywood", "Hollywood (three games)"), ("single", "Single game")],
                        default="hollywood")
    preset = RadioField("Rules", choices=[("classic", "Classic"), ("modern", "Modern")], default="classic")
    save_as = StringField("Save these rules as a preset named", validators=[Optional(), Length(max=MAX_NAME)])
    stake = StringField("Money per point", validators=[Optional(), Length(max=20)],
                        render_kw={"inputmode": "decimal", "placeholder": "e.g. 0.05", "autocomplete": "off"})
    currency = StringField("Currency symbol", validators=[Optional(), Length(max=5)],
                           render_kw={"placeholder": "€", "autocomplete": "off"})
    first_dealer = StringField("First dealer", validators=[Optional(), Length(max=MAX_NAME)])
    dealer_rule = SelectField("After a win, who deals", choices=[("", "as the preset")] + [(r, r) for r in DEALER_RULES],
                              validate_choice=True, default="")
    oklahoma = BooleanField("Oklahoma (the upcard sets the knock limit)")
    spade_double = SelectField("Spade upcard doubles", choices=[("", "as the preset"), ("on", "yes"), ("off", "no")],
                               default="")

    def offer_presets(self, names: list[str]) -> None:
        """Classic and Modern, then the presets this table saved (values 'saved:NAME')."""
        self.preset.choices = [("classic", "Classic"), ("modern", "Modern")] + [
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


SETTING_LABELS = {
    "gin_bonus": "Gin bonus",
    "undercut_bonus": "Undercut bonus",
    "big_gin_bonus": "Big gin bonus",
    "knock_limit": "Knock limit",
    "target": "Game ends at",
    "game_bonus": "Game bonus",
    "box_bonus": "Box bonus (per hand won)",
    "shutout_multiplier": "Shutout multiplier",
}
for _name, (_low, _high) in INT_RANGES.items():
    setattr(NewMatchForm, _name, whole(SETTING_LABELS[_name], _low, _high))
assert set(BOOL_SETTINGS) == {"oklahoma", "spade_double"}


class VersionForm(FlaskForm):
    """Undo and delete: the version the page was drawn at, to refuse a stale change."""

    version = HiddenField()


class ImportForm(FlaskForm):
    file = FileField("Match file (JSON)")
    text = TextAreaField("…or paste it here")


class LoginForm(FlaskForm):
    passphrase = StringField("Passphrase", validators=[InputRequired(), Length(max=200)],
                             render_kw={"type": "password", "autocomplete": "current-password"})


class RenameForm(FlaskForm):
    new_name = StringField("New name", validators=[InputRequired(), Length(max=MAX_NAME)])


class MergeForm(FlaskForm):
    keep = StringField("Keep this name", validators=[InputRequired(), Length(max=MAX_NAME)])
    drop = StringField("Merge this spelling into it", validators=[InputRequired(), Length(max=MAX_NAME)])
