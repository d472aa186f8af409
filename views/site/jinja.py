"""The templates' environment: Flask's, with each template's globals a plain dict.

Jinja 3.1 gives every template a ChainMap of its globals over the environment's, and copies it
into a new dict item by item on every render, each time a page draws one of its parts (a saved
hand's answer draws several: views/live/following.py). Every global is set while the app is made (app.py, the views' init_app), before any
template is loaded, so a snapshot taken at load holds them all; a template loaded later sees
what was set later.
"""
from __future__ import annotations

from flask.templating import Environment as FlaskEnvironment


class Environment(FlaskEnvironment):
    def make_globals(self, d):
        return {**self.globals, **(d or {})}
