"""Gin Ledger: the application factory."""
from __future__ import annotations

import os

from flask import Flask

import cli


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "gin-ledger.sqlite"),
    )
    app.config.from_prefixed_env()
    if test_config:
        app.config.update(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    cli.register(app)
    return app
