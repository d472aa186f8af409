"""The match file (JSON) and a CSV of the hands (or a table's deals), both computed by the same fold."""
from __future__ import annotations

import io
import json
import re
import unicodedata
import zipfile
from urllib.parse import quote

from flask import Blueprint, Response, render_template, request

from views.site.db import get_db
from models.files.matchfile import export_document, match_document
from models.files.sheetcsv import csv_text, sheet_rows, table_rows

from views.match import summary
from views.match.match_page import match_or_404
from views.tables.numbers import shown_number
from views.tables.scope import table_id
from models.storage.matches import list_matches

bp = Blueprint("exports", __name__)


# Letters that are no letter plus a mark, so NFKD cannot take a mark away: their usual Latin spelling.
LATIN = str.maketrans({"ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "ø": "o", "Ø": "O",
                       "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T", "ı": "i", "ŀ": "l", "Ŀ": "L", "ß": "ss",
                       "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th"})


def file_stem(players: tuple[str, str], number: int) -> str:
    """'gin-ledger-3-Žofia-Łukasz': the match's number as its players see it (views/tables/numbers.py),
    then every letter and digit of the names, in any script; nothing else (no space, slash, quote or
    dot), so the name is safe on every file system."""
    names = "-".join(re.sub(r"[\W_]+", "", unicodedata.normalize("NFC", name)) or "player" for name in players)
    return f"gin-ledger-{number}-{names}"


def ascii_name(filename: str) -> str:
    """'gin-ledger-3-Zofia-Lukasz.json': for a client that reads only `filename=`. The marks are taken off
    (NFKD), letters such as ł are spelt in Latin, and a name left with no letter at all is 'player'."""
    stem, dot, extension = filename.rpartition(".") if "." in filename else (filename, "", "")
    spelt = unicodedata.normalize("NFKD", stem.translate(LATIN))
    plain = "".join(ch for ch in spelt if not unicodedata.combining(ch))
    return "-".join(re.sub(r"[^A-Za-z0-9]+", "", part) or "player" for part in plain.split("-")) + dot + extension


def disposition(filename: str) -> str:
    """RFC 6266: the name with every letter as `filename*` (UTF-8, percent-encoded), beside an ASCII
    `filename` for older clients; an ASCII name is said once."""
    fallback = ascii_name(filename)
    if fallback == filename:
        return f'attachment; filename="{filename}"'
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='!#$&+-.^_`|~')}"


def attachment(response: Response, filename: str) -> Response:
    if request.args.get("download"):
        response.headers["Content-Disposition"] = disposition(filename)
    return response


def stored_document(stored) -> dict:
    """The match file of a stored match: its hands and the replay's result, or, for a match that no longer
    folds, its hands as entered alone (to repair elsewhere: nothing entered is held back)."""
    if stored.refusal is not None:
        return match_document(stored.match)
    return export_document(stored.match, stored.sheet())


@bp.get("/matches/<int:match_id>.json")
def match_json(match_id: int):
    stored = match_or_404(match_id)
    body = json.dumps(stored_document(stored), ensure_ascii=False, indent=2)
    response = Response(body, mimetype="application/json")
    return attachment(response, file_stem(stored.match.players, shown_number(stored)) + ".json")


@bp.get("/matches/<int:match_id>.csv")
def match_csv(match_id: int):
    stored = match_or_404(match_id)
    sheet = stored.sheet()
    rows = sheet_rows(sheet) if sheet.sides is None else table_rows(sheet)
    response = Response(csv_text(rows), mimetype="text/csv")
    return attachment(response, file_stem(stored.match.players, shown_number(stored)) + ".csv")


@bp.get("/export.zip")
def everything_zip():
    """Every match as its own match file: the whole ledger, importable again one by one."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for stored in list_matches(get_db(), finished=False, limit=-1, table=table_id()) + \
                list_matches(get_db(), finished=True, limit=-1, table=table_id()):
            doc = stored_document(stored)
            # A name beyond ASCII is stored as UTF-8 and marked so (the zip's flag 0x800): zipfile does both.
            name = file_stem(stored.match.players, shown_number(stored)) + ".json"
            archive.writestr(name, json.dumps(doc, ensure_ascii=False, indent=2))
    return Response(buffer.getvalue(), mimetype="application/zip",
                    headers={"Content-Disposition": disposition("gin-ledger-matches.zip")})


def plain(text: str) -> Response:
    return Response(text, mimetype="text/plain")


@bp.get("/matches/<int:match_id>/summary.txt")
def match_summary(match_id: int):
    """The match in a few lines for a messenger, in the page's language (the Share button's text)."""
    stored = match_or_404(match_id)
    return plain(summary.as_text(summary.match_lines(stored), stored.match.players))


@bp.get("/matches/<int:match_id>/evening.txt")
def evening_summary(match_id: int):
    """The whole sitting this match belongs to, for a messenger."""
    return plain(summary.evening_text(match_or_404(match_id)))


@bp.get("/matches/<int:match_id>/sheet.svg")
def sheet_svg(match_id: int):
    """The final sheet as a picture to send: drawn here, text and lines only."""
    body = render_template("sheet.svg", **summary.sheet_picture(match_or_404(match_id)))
    return Response(body, mimetype="image/svg+xml")
