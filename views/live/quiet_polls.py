"""A follower's quiet poll answered before Flask: one indexed SELECT and "nothing new".

A phone or spectator following a match asks for its live fragment every few seconds with the ETag it has,
`"id-epoch-version"`; nearly every answer is "nothing new". When the ETag sent is exactly the match's
current one, this WSGI layer answers 304 itself, without a request context, a session or a template:
the cost of a small static file or less. The ETag holds the file's epoch, a random word that only a
page of this match showed, so a 304 tells nothing to anyone who did not see the match; anything else
(no ETag, another version, another file under the path after a restore) goes on to Flask, which
checks who may see the match and draws the fragment.

The page script asks with `X-Sheet` (the ETag its live region shows), not If-None-Match: "nothing new"
is then a 200 with an empty body and its Content-Length, and the phone keeps its connection. Waitress
3.0.2 closes the connection after every response that has no Content-Length, a 304 among them, so each
304 poll cost a new connection on both sides. If-None-Match keeps its 304 for any other client.
"""
from __future__ import annotations

import re
import sqlite3

from models.errors import LedgerError
from models.storage import postgres
from views.site import db

MATCH = re.compile(r"/(?:t/(?P<key>[A-Za-z0-9_-]{1,64})/)?matches/(?P<id>\d{1,18})/live")
VIEW = re.compile(r"/view/(?P<token>[A-Za-z0-9_-]{1,64})/live")
# `shown` is what the ETag names the match by (views/tables/numbers.py): at home its id, on a
# hosted server its number at its table, which is also what a hosted table's address holds.
BY_ID = ("SELECT m.id AS shown, m.version, (SELECT value FROM epoch WHERE id = 1) AS epoch FROM match m"
         " JOIN play_table t ON t.id = m.table_id WHERE m.id = ? AND m.deleted IS NULL AND t.home = 1"
         " AND t.passphrase_hash IS NULL")  # behind a table's passphrase Flask asks for the login first
BY_NUMBER = ("SELECT m.number AS shown, m.version, (SELECT value FROM epoch WHERE id = 1) AS epoch FROM match m"
             " JOIN play_table t ON t.id = m.table_id WHERE m.number = ? AND t.key = ? AND m.deleted IS NULL"
             " AND t.passphrase_hash IS NULL")
BY_TOKEN = ("SELECT m.id AS shown, m.version, (SELECT value FROM epoch WHERE id = 1) AS epoch FROM match m"
            " WHERE m.view_token = ? AND m.deleted IS NULL")
BY_TOKEN_NUMBERED = BY_TOKEN.replace("m.id", "m.number", 1)
# On PostgreSQL the same rows, and the database's identity beside them.
WITH_IDENTITY = {query: query.replace(" FROM match m", f", {postgres.IDENTITY_COLUMNS} FROM match m", 1)
                 for query in (BY_ID, BY_NUMBER, BY_TOKEN, BY_TOKEN_NUMBERED)}


def etag_for(number: int, epoch: str, version: int) -> str:
    """ETags are per URL; the epoch makes a restored file's versions new tags. The match is named by the
    number its players see (views/tables/numbers.py)."""
    return f'"{number}-{epoch}-{version}"'


def tag(row) -> str:
    return etag_for(row["shown"], row["epoch"], row["version"])


class QuietPolls:
    def __init__(self, wsgi_app, app, hosted: bool):
        self.wsgi_app, self.app, self.hosted = wsgi_app, app, hosted
        # Behind the server's passphrase only the spectator's link (open to all) is answered here: a
        # browser not logged in must not learn when a match moved on.
        self.config = app.config
        self.pool, self.known, self.files = app.extensions[db.POOL], app.extensions[db.FILE], app.extensions[db.FILES]
        self.path = None if self.files is None else self.files.path

    def current_tag(self, match, view) -> str | None:
        if match is not None:
            key = match.group("key")
            if (key is None) == self.hosted or self.config.get("PASSPHRASE"):
                return None
            if self.hosted:
                query, params = BY_NUMBER, (int(match.group("id")), key)
            else:
                query, params = BY_ID, (int(match.group("id")),)
        else:
            query, params = BY_TOKEN_NUMBERED if self.hosted else BY_TOKEN, (view.group("token"),)
        if self.pool is not None:
            return self.postgres_tag(query, params)
        try:
            identity = db.file_identity(self.path)
        except LedgerError:
            return None  # Flask says why (DatabaseGone)
        if self.known["identity"] != identity:
            return None  # a file this app has not met: Flask meets it first (a new epoch after a restore)
        conn = self.files.lend(self.app)
        try:
            row = conn.execute(query, params).fetchone()
        finally:
            self.files.give_back(conn)
        return tag(row) if row else None

    def postgres_tag(self, query: str, params: tuple) -> str | None:
        conn = self.pool.lend()
        try:
            row = conn.execute(WITH_IDENTITY[query], params).fetchone()
        finally:
            conn.close()
        if row is None or postgres.identity_in(row) != self.known["identity"]:
            return None  # another database under the address: Flask meets it first (a new epoch)
        return tag(row)

    def __call__(self, environ, start_response):
        sent, shown = environ.get("HTTP_IF_NONE_MATCH"), environ.get("HTTP_X_SHEET")
        if (sent or shown) and environ.get("REQUEST_METHOD") == "GET":
            path = environ.get("PATH_INFO", "")
            match, view = MATCH.fullmatch(path), VIEW.fullmatch(path)
            if match or view:
                try:
                    tag = self.current_tag(match, view)
                except (LedgerError, sqlite3.Error, postgres.psycopg.Error):
                    tag = None  # the database failed: Flask answers, with the sentence for it (views/site/errors.py)
                if tag is not None and sent and tag in (part.strip() for part in sent.split(",")):
                    start_response("304 Not Modified", not_modified(tag))
                    return [b""]
                if tag is not None and shown and shown.strip() == tag:
                    start_response("200 OK", unchanged(tag))
                    return [b""]
        return self.wsgi_app(environ, start_response)


def not_modified(tag: str) -> list[tuple[str, str]]:
    """The headers of a 304 for If-None-Match `tag` (views/live/following.py answers the same)."""
    return [("ETag", tag), ("Cache-Control", "no-cache")]


def unchanged(tag: str) -> list[tuple[str, str]]:
    """The headers of "nothing new" for a page showing `tag` (views/live/following.py answers the same)."""
    return [("ETag", tag), ("Content-Length", "0"), ("Cache-Control", "no-store"), ("Vary", "X-Sheet")]
