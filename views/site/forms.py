"""What every form of the site shares: the masked CSRF token, WTForms' messages in the page's language, one
value per field, and the checks of what a person types (lengths, names, whole numbers).

WTForms does the web's part (CSRF, whole numbers, lengths); what the rules refuse is left to the engine,
so the form, the import and `replay` agree.
"""
from __future__ import annotations

from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField
from wtforms.validators import Optional, ValidationError

from models.errors import N_, MatchError
from models.game.digits import read_count
from models.game.names import read_name

from .csrf import MaskedCSRF
from .i18n import page_translations


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
    """WTForms' own messages through the app's catalogues, in the page's language (looked up once a
    request: a form asks for its unlabelled fields' names each time it is made)."""

    def gettext(self, string):
        return page_translations().ugettext(string)

    def ngettext(self, singular, plural, n):
        return page_translations().ungettext(singular, plural, n)


# Length limits of what no person types: a longer value is an attack or a broken client.
VERSION_DIGITS = 18  # a match's version counts its changes
FORM_ID_MOST = 64  # new_form_id makes 16 characters
CARDS_MOST = 100  # 11 codes of up to 3 characters with their spaces, and room for a 12th to be refused by name
UPCARD_MOST = 3  # "10H"
COUNT_DIGITS = 12  # a whole-number field; Between bounds the value


class Form(FlaskForm):
    class Meta:
        csrf_class = MaskedCSRF  # the token masked per response (views/site/csrf.py)

        def get_translations(self, form):
            return Catalogue()

    MULTIPLE = ()  # the fields that are lists by design (PairField's two names)

    def validate(self, extra_validators=None) -> bool:
        """The field's own checks, then one more: a field sent twice is a contradiction, not a choice
        (WTForms would silently take the first value)."""
        valid = super().validate(extra_validators)
        for field in self:
            if field.name not in self.MULTIPLE and len(field.raw_data or ()) > 1:
                field.errors = list(field.errors) + [
                    gettext("sent %(count)s times; send one value", count=len(field.raw_data))]
                valid = False
        return valid


class Most:
    """A length limit checked before anything reads the value (WTForms' Length says no field name
    and runs after an IntegerField has already called int())."""

    def __init__(self, most: int):
        self.most = most

    def __call__(self, form, field) -> None:
        values = field.raw_data or ()
        if any(isinstance(value, str) and len(value) > self.most for value in values):
            raise ValidationError(gettext("at most %(most)s characters", most=self.most))


class Name:
    """Every name a form takes (models/game/names.read_name): NFC, no white space around it, no control
    or formatting character; the field's data becomes the name as read (None for an empty optional one)."""

    def __init__(self, most: int, required: bool = True):
        self.most, self.required = most, required

    def __call__(self, form, field) -> None:
        from views.site.i18n import translated_reason

        values = field.data if isinstance(field.data, list) else [field.data]
        try:
            read = [read_name(value, field.name, self.most, required=self.required) for value in values]
        except MatchError as error:
            raise ValidationError(translated_reason(error)) from None
        field.data = read if isinstance(field.data, list) else read[0]


class CountField(IntegerField):
    """A whole number as a person types it (models/game/digits.read_count), not as Python's int() reads code."""

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        text = valuelist[0]
        self.data = read_count(text, COUNT_DIGITS)
        if self.data is None and text.startswith("-") and read_count(text[1:], COUNT_DIGITS) is not None:
            self.data = -read_count(text[1:], COUNT_DIGITS)  # a number, below the range: Between says the range
        if self.data is None:
            raise ValueError(self.gettext("Not a valid integer value."))


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
    return CountField(
        label,
        validators=[Optional(), Between(low, high)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )


class VersionForm(Form):
    """Undo and delete: the version the page was drawn at, to refuse a stale change."""

    version = HiddenField(validators=[Most(VERSION_DIGITS)])
