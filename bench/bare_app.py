"""The floor under a saved hand: a bare Flask + Flask-WTF + sqlite3 app of the same shape, for
bench/host_costs.py to measure beside Gin Ledger on the same waitress.

It does what a script's save needs and no more: a form with a CSRF token (Flask-WTF's CSRFProtect and a
FlaskForm), the hand stored in one transaction on a connection kept per thread (the cheapest sqlite3
allows), a flash in the session cookie, and an answer drawn from a small template: the new row and a
new token. Its stylesheet is Gin Ledger's, sent by Flask's own static route.
"""
from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
from pathlib import Path

from flask import Flask, flash, render_template
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from jinja2 import DictLoader
from wtforms import IntegerField, RadioField, StringField
from wtforms.validators import DataRequired, NumberRange

STATIC = Path(__file__).resolve().parents[1] / "static"
ANSWER = """<div data-region="notices">{% for m in get_flashed_messages() %}<p>{{ m }}</p>{% endfor %}</div>
<table><tr id="hand-{{ number }}"><th>{{ number }}</th><td>{{ winner }}</td><td>{{ points }}</td></tr></table>
<form method="post"><input type="hidden" name="csrf_token" value="{{ csrf_token() }}"></form>"""


class HandForm(FlaskForm):
    winner = RadioField(choices=["Ana", "Ben"])
    points = IntegerField(validators=[NumberRange(0, 500)])
    form_id = StringField(validators=[DataRequired()])


def create_app() -> Flask:
    app = Flask(__name__, static_folder=str(STATIC))
    app.jinja_loader = DictLoader({"answer.html": ANSWER})  # compiled once, as a template folder's would be
    app.config["SECRET_KEY"] = os.urandom(16).hex()
    CSRFProtect(app)
    path = os.path.join(tempfile.mkdtemp(prefix="gin-bare-"), "bare.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE hand (id INTEGER PRIMARY KEY, winner TEXT, points INTEGER, form_id TEXT UNIQUE)")
    kept = threading.local()

    def db() -> sqlite3.Connection:
        if getattr(kept, "conn", None) is None:
            kept.conn = sqlite3.connect(path, isolation_level=None)
            kept.conn.execute("PRAGMA synchronous=NORMAL")
        return kept.conn

    @app.get("/")
    def home():
        return render_template("answer.html", number=0, winner="", points=0)

    @app.post("/hands")
    def add():
        form = HandForm()
        if not form.validate_on_submit():
            return str(form.errors), 400
        conn = db()
        conn.execute("BEGIN IMMEDIATE")
        number = conn.execute("INSERT INTO hand (winner, points, form_id) VALUES (?, ?, ?)",
                              (form.winner.data, form.points.data, form.form_id.data)).lastrowid
        conn.execute("COMMIT")
        flash(f"Hand {number}: {form.winner.data} {form.points.data}")
        return render_template("answer.html", number=number, winner=form.winner.data, points=form.points.data)

    return app


def watched_app() -> Flask:
    """create_app in a server that ends when the bench that started it does (tests/server.py), as
    Gin Ledger's own server beside it does."""
    from tests.server import watch_parent

    watch_parent()
    return create_app()
