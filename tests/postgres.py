"""The PostgreSQL half of the tests: a throwaway schema per test on the server that
GIN_LEDGER_TEST_POSTGRESQL names (.ci/run starts one on loopback).

Without that variable the PostgreSQL half skips, saying how to run it; under CI=true a missing
or silent server is an error, so CI never passes with the half left out.
"""
from __future__ import annotations

import os
import secrets
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import pytest

VARIABLE = "GIN_LEDGER_TEST_POSTGRESQL"
HOW = (f"set {VARIABLE}=postgresql://USER@127.0.0.1:PORT/DATABASE to run the PostgreSQL half "
       "(bash .ci/run starts a throwaway cluster and sets it)")


def server_url() -> str:
    url = os.environ.get(VARIABLE, "")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but no PostgreSQL server for the tests: {HOW}", pytrace=False)
        pytest.skip(f"PostgreSQL half skipped: {HOW}")
    return url


def with_schema(url: str, schema: str) -> str:
    """The same database, with `schema` first on the search path: every table the app makes is there.
    Its sessions carry the schema's name as their application_name, so a test that ends sessions ends
    its own, never those of a test running beside it on the same server."""
    return with_query(url, options=f"-c search_path={schema}", application_name=schema)


def with_query(url: str, **settings: str) -> str:
    """The same address with these settings in its query, each in place of the one it had.
    An address's application_name goes before libpq's PGAPPNAME."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key not in settings]
    query.extend(settings.items())
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


class Schema:
    """A schema of its own for one test, dropped after it."""

    def __init__(self):
        import psycopg

        self.server = server_url()
        self.name = "t_" + secrets.token_hex(6)
        try:
            with psycopg.connect(self.server, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'CREATE SCHEMA "{self.name}"')
        except psycopg.OperationalError as error:
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI=true but the PostgreSQL server does not answer: {error}", pytrace=False)
            pytest.skip(f"PostgreSQL half skipped, the server does not answer ({error}): {HOW}")
        self.url = with_schema(self.server, self.name)

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.server, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA "{self.name}" CASCADE')
