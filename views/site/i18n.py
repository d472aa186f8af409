"""Languages: English, Czech, Slovak and Albanian, with Flask-Babel.

The page's language is the one chosen with the footer switch (kept in the
session), else the browser's Accept-Language, else English. The CLI takes it
from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English by default.

Flask-Babel does the work; this module adds only what it lacks: which
language a page speaks (the footer's choice), the engine's refusals in that
language (they are English templates, models/errors.py), and the command
line's language. The catalogues are `translations/<lang>/LC_MESSAGES/`; their
`.mo` files are compiled from the `.po` files and kept in git, so the app
starts from a read-only checkout (tests/test_i18n.py checks they are current).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import lru_cache
from urllib.parse import urlencode, urlsplit

from babel.dates import format_date as babel_date, format_time as babel_time, get_datetime_format
from babel.numbers import format_decimal
from flask import Blueprint, Flask, abort, g, redirect, request, session
from flask import has_app_context, has_request_context
from flask_babel import Babel, force_locale, format_date, get_locale, get_translations, gettext
from markupsafe import Markup

from models.errors import MatchError, Message, Refusal, Series, written

from .targets import safe_path

# Each language in its own name, as the footer offers it.
LANGUAGES = {"en": "English", "cs": "Čeština", "sk": "Slovenčina", "sq": "Shqip"}
DEFAULT = "en"
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

bp = Blueprint("language", __name__)


# --------------------------------------------------------------------------
# Which language
# --------------------------------------------------------------------------

def select_locale() -> str | None:
    """The footer's choice (session), else the browser's Accept-Language, else English."""
    if not has_request_context():
        return None
    chosen = session.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT


def current_language() -> str:
    if not has_app_context():
        return DEFAULT
    return page_language()[0]


def remember_language() -> None:
    """`?lang=cs` on any page keeps that language for this browser (runs before every request)."""
    chosen = request.args.get("lang")
    if chosen in LANGUAGES and session.get("lang") != chosen:
        session["lang"] = chosen


@bp.get("/language/<code>")
def switch(code: str):
    """The footer's links: keep the language in the session and go back to the page."""
    if code not in LANGUAGES:
        abort(404)
    session["lang"] = code
    return redirect(safe_path(request.args.get("next")), 303)


def here() -> str:
    """The page to come back to after switching: this one, or the one a refused POST came from."""
    if request.method == "GET":
        args = [(key, value) for key, value in request.args.items(multi=True) if key != "lang"]
        return request.path + ("?" + urlencode(args) if args else "")
    referrer = request.referrer or ""
    if referrer.startswith(request.host_url):
        parts = urlsplit(referrer)
        return parts.path + ("?" + parts.query if parts.query else "")
    return "/"


def language_links(back: str | None = None) -> list[dict]:
    """`back`: the page to return to, when the page says it (the match page is the same page
    whether it answers a GET or a saved hand's POST); else `here()`."""
    from flask import url_for

    back = back or here()
    now = current_language()
    return [{"code": code, "name": name, "current": code == now,
             "url": url_for("language.switch", code=code, next=back)}
            for code, name in LANGUAGES.items()]


def vary_on_language(response):
    """Everything but the static files differs by Accept-Language (the session's choice already adds Cookie)."""
    if request.endpoint != "static":
        response.vary.add("Accept-Language")
    return response


# --------------------------------------------------------------------------
# The engine's refusals, translated
# --------------------------------------------------------------------------

def render(message: Message) -> str:
    """The engine's sentence in the current language. A page writes its cards as a player does
    (3♥); the command line, outside any request, writes the codes it reads (3H)."""
    translations = get_translations()
    return message.render(translations.ugettext, translations.ungettext, faces=has_request_context(),
                          language=current_language())


def translated_reason(error: MatchError | Refusal) -> str:
    """Only the why, as shown next to the form field it concerns."""
    return render(error.message)


def translated(error: BaseException) -> str:
    """A refusal in the current language: 'hand 3, knocker_deadwood: 12 is over the knock limit 10'.

    The field names stay the match file's keys, whatever the language; cards as `render` writes them.
    """
    if isinstance(error, MatchError):
        reason = render(error.message)
        if error.hand is not None:
            return gettext("hand %(hand)s, %(field)s: %(reason)s", hand=error.hand, field=error.field, reason=reason)
        return gettext("%(field)s: %(reason)s", field=error.field, reason=reason)
    if isinstance(error, Refusal):
        return render(error.message)
    return str(error)


# --------------------------------------------------------------------------
# Numbers, money and dates in the page's language
# --------------------------------------------------------------------------

def number(value) -> str:
    """A count or a net that may run into thousands: 1,234 / 1 234 as the language writes it."""
    return written_number(value, current_language())


@lru_cache(maxsize=4096)
def written_number(value, language: str) -> str:
    """Babel's formatting of one number, remembered: a page writes the same few scores many times."""
    return format_decimal(value, locale=language)


def one_decimal(value) -> str:
    return format_decimal(value, format="#,##0.0", locale=current_language())


def money(amount: Decimal, stake) -> str:
    """An exact Decimal amount with at least two places (more if the stake has them), then the symbol."""
    places = max(2, -stake.per_point.as_tuple().exponent)
    text = format_decimal(amount, format="#,##0." + "0" * places, locale=current_language(),
                          decimal_quantization=False)
    return f"{text} {stake.currency}".strip()


MINUS = "\u2212"


def signed(value) -> str:
    """A net with its sign always written, and a true minus: '+196', '−838', '0'.

    Babel writes a hyphen-minus, which reads as a dash in a column of nets and may
    break a line; the typographic minus is as wide as the plus and never breaks."""
    if not value:
        return number(0)
    return ("+" if value > 0 else MINUS) + number(abs(value))


def day(stamp: str | None) -> str:
    """The date of a stored timestamp ('2026-11-29T10:00:00+00:00') as the language writes dates."""
    if not stamp:
        return ""
    return format_date(date.fromisoformat(stamp[:10]), format="medium")


def clock(when: datetime) -> str:
    """A time of day in the table's own clock, as the language writes it short (Babel's: '7:23 PM',
    '19:23'): every page says a time so, the match's and the history's alike."""
    local = when.astimezone()
    return babel_time(local, format="short", tzinfo=local.tzinfo, locale=current_language())


def played(stamp: str | None, today: date | None = None, relative: bool = True) -> str:
    """When a match was played, in the table's own clock: 'today 20:14', 'yesterday 20:14', else the date and time
    (always the date and time when not `relative`: paper is read on another day).

    Two matches of the same players differ by it on every list. Stored times
    are UTC; the server stands at the table, so its local time is the table's.
    """
    if not stamp:
        return ""
    when = datetime.fromisoformat(stamp).astimezone()
    locale = current_language()
    time = clock(when)
    today = today or datetime.now().astimezone().date()
    if relative and when.date() == today:
        return gettext("today %(time)s", time=time)
    if relative and when.date() == today - timedelta(days=1):
        return gettext("yesterday %(time)s", time=time)
    pattern = get_datetime_format("medium", locale=locale)
    return pattern.replace("{1}", babel_date(when.date(), format="medium", locale=locale)).replace("{0}", time)


# --------------------------------------------------------------------------
# Texts the page scripts need (they never hold English of their own)
# --------------------------------------------------------------------------

def games_list(numbers: list[int] | tuple[int, ...]) -> str:
    """'1', '1 and 2', '1, 2, and 3' (the games a hand went into), as the page's language lists them."""
    return written(Series(numbers), language=current_language())


def script_texts() -> dict:
    """What static/app.js and static/cards.js say, in the page's language, with %(name)s blanks.

    The hand's preview is not here: the server says it (views/match/preview.py)."""
    return {
        "no_layoffs": gettext("(no lay-offs after gin)"),
        "after_layoffs": gettext("after lay-offs"),
        "wake_on": gettext("Screen stays on"),
        "wake_off": gettext("Screen may sleep"),
        "none": gettext("none"),
        "not_counted": gettext("Not counted: %(reason)s", reason="%(reason)s"),
        "count_failed": gettext("the count failed"),
        "not_sent": gettext("Not saved: the server cannot be reached") + ". "
        + gettext("Your entries are still here: tap Save again when the Wi-Fi is back."),
        "waiting": gettext("Waiting to send hand %(number)s…", number="%(number)s"),
        "speak_on": gettext("Say saved hands aloud: on"),
        "speak_off": gettext("Say saved hands aloud: off"),
        "speak_none": gettext("No voice for this language on this phone"),
    }


# --------------------------------------------------------------------------
# The command line: the language of the environment
# --------------------------------------------------------------------------

def environment_language(environ=None) -> str:
    """The first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that names en, cs, sk or sq ('cs_CZ.UTF-8' -> cs)."""
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        for part in (environ.get(name) or "").split(":"):
            code = part.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            if code in LANGUAGES:
                return code
    return DEFAULT


@contextmanager
def speaking(app: Flask, lang: str | None = None):
    """Translate outside a request (the CLI): an app context with the language forced."""
    with app.app_context(), forced(lang or environment_language()):
        yield


@contextmanager
def forced(lang: str):
    """Flask-Babel's force_locale, and this module's language with it (page_language)."""
    with force_locale(lang):
        g.pop(PAGE_LANGUAGE, None)
        try:
            yield
        finally:
            g.pop(PAGE_LANGUAGE, None)


# --------------------------------------------------------------------------
# Wiring
# --------------------------------------------------------------------------

PAGE_LANGUAGE = "page_language"


def page_language() -> tuple[str, object]:
    """The request's language and its catalogue, looked up once a request and kept on `g`:
    Flask-Babel looks both up anew for every string and number, and a match page has a hundred.
    A language forced within a request is forced with `forced`, which forgets them."""
    found = g.get(PAGE_LANGUAGE)
    if found is None:
        locale = get_locale()
        language = locale.language if locale is not None and locale.language in LANGUAGES else DEFAULT
        found = (language, get_translations())
        setattr(g, PAGE_LANGUAGE, found)
    return found


def page_translations():
    """The catalogue of the request's language (page_language)."""
    return page_language()[1]


def page_gettext(string: str, **variables) -> str:
    """Flask-Babel's gettext with the page's catalogue (page_language), for the strings a page
    says many times; outside any app it is English, as Flask-Babel's is."""
    text = page_translations().ugettext(string) if has_app_context() else string
    return text % variables if variables else text


def page_ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """Flask-Babel's ngettext with the page's catalogue (`num` is a variable too, as there)."""
    variables.setdefault("num", num)
    if has_app_context():
        return page_translations().ungettext(singular, plural, num) % variables
    return (singular if num == 1 else plural) % variables


def page_text(message: str, **values) -> Markup:
    """What a template's `_(message, **values)` draws, for markup written in Python: the page's
    catalogue, the values escaped."""
    return Markup(page_translations().ugettext(message)) % values


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", os.path.join(app.root_path, "translations"))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    Babel(app, locale_selector=select_locale)
    app.jinja_env.install_gettext_callables(  # Flask-Babel's own, with the catalogue found once a request
        gettext=lambda s: page_translations().ugettext(s),
        ngettext=lambda s, p, n: page_translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: page_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: page_translations().unpgettext(c, s, p, n),
    )
    app.before_request(remember_language)
    app.register_blueprint(bp)
    app.after_request(vary_on_language)
    app.jinja_env.filters.update(num=number, one_decimal=one_decimal, money=money, day=day)
    app.jinja_env.filters.update(played=played, signed=signed)
    app.jinja_env.globals.update(refusal=translated, language_links=language_links, lang=current_language,
                                 script_texts=script_texts, games_list=games_list)
