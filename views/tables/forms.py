"""The forms of a table and its doors: its passphrase and the login, a new table, its players' names."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import InputRequired, Length

from models.files.matchfile import MAX_NAME
from views.site.forms import Form, Most, Name


class LoginForm(Form):
    passphrase = StringField(_l("Passphrase"), validators=[InputRequired(), Length(max=200)],
                             render_kw={"type": "password", "autocomplete": "current-password"})


class RenameForm(Form):
    new_name = StringField(_l("New name"), validators=[InputRequired(), Most(MAX_NAME), Name(MAX_NAME)])


class MergeForm(Form):
    keep = StringField(_l("Keep this name"), validators=[InputRequired(), Most(MAX_NAME), Name(MAX_NAME)])
    drop = StringField(_l("Merge this spelling into it"),
                       validators=[InputRequired(), Most(MAX_NAME), Name(MAX_NAME)])


MAX_TABLE_NAME = 80


class StartTableForm(Form):
    table_name = StringField(_l("Name of the table"),
                             validators=[InputRequired(), Most(MAX_TABLE_NAME), Name(MAX_TABLE_NAME)],
                             render_kw={"autocomplete": "off", "maxlength": MAX_TABLE_NAME})


class TablePassphraseForm(Form):
    passphrase = StringField(_l("Passphrase"), validators=[InputRequired(), Length(min=4, max=200)],
                             render_kw={"type": "password", "autocomplete": "new-password"})
