"""Every name a template may use besides Jinja's own and the languages' (views/site/i18n.py), in one place.

Each helper is defined in the room of its concept and imported here; no blueprint registers a global
for other blueprints' templates, so what a template can call is read off this one list.
"""
from __future__ import annotations

from flask import Flask
from markupsafe import Markup, escape

from models.game.names import isolated


def bdi(name) -> Markup:
    """A name in a page's text, isolated from the words around it."""
    return Markup("<bdi>") + escape(name) + Markup("</bdi>")


def init_app(app: Flask) -> None:
    from views.tables import access
    from views.match import cards, hands, matches, rule_words, summary
    from . import csrf, pages, pwa
    from views.history import history
    from views.match.charts import plot
    from views.live.following import follow_every, tag_of
    from views.tables.numbers import shown_number
    from views.tables.qr import qr_svg, table_base_url, table_url
    from views.tables.scope import current_table, home_url, hosted, in_table

    app.jinja_env.globals.update(
        # the table and the app's addresses
        current_table=current_table, home_url=home_url, hosted=hosted, in_table=in_table,
        table_url=table_url, table_base_url=table_base_url, qr=qr_svg,
        asset=pwa.asset, icon_data_uri=pwa.icon_data_uri(app.static_folder),
        # this request's own parts of a kept page (views/site/pages.py), and who may log out
        per_request=pages.per_request, logout_offered=access.logout_offered, csrf_token=csrf.masked_token,
        table_passphrase_form=access.table_passphrase_form,
        # a match in words and forms
        match_label=summary.match_label, result_line=summary.result_line, match_state=matches.match_state,
        match_share_text=matches.match_share_text, match_name_form=matches.match_name_form,
        rules_summary=rule_words.rules_summary,
        rules_lines=rule_words.rules_lines, way_back=hands.way_back, deleted_matches=history.deleted_matches,
        follow_every=follow_every, live_tag=tag_of, match_number=shown_number,
        # drawings
        plot=plot, card_face=cards.card_face,
    )
    # Every name drawn in its own direction (issue 25): <bdi> in a page's text, isolates in plain text
    # (a page's title, an attribute), so "‮Ana" or an Arabic name never turns the words around it.
    app.jinja_env.filters.update(bdi=bdi, isolate=isolated)
    # Flask-WTF's context processor hands templates its unmasked token: this one, later, masks it.
    app.context_processor(lambda: {"csrf_token": csrf.masked_token})
