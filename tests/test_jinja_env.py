"""The templates' globals are the environment's, as a plain dict (views/site/jinja.py)."""
import pytest
from flask import render_template_string

pytestmark = pytest.mark.sqlite_only  # the template environment: the database is incidental


def test_a_template_sees_every_global_the_app_set(app):
    with app.test_request_context("/"):
        template = app.jinja_env.from_string("{{ lang() }} {{ url_for('matches.new_match') }}")
        assert type(template.globals) is dict
        assert set(app.jinja_env.globals) <= set(template.globals)
        assert template.render() == "en /matches/new"


def test_a_template_may_not_change_the_environment(app):
    with app.test_request_context("/"):
        template = app.jinja_env.from_string("{{ g }}")
        template.globals["extra"] = 1
        assert "extra" not in app.jinja_env.globals
        assert render_template_string("{{ extra is defined }}") == "False"
