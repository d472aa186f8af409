"""The built-in presets' names and what each is, in the page's language, from their one declaration
(models/game/presets.BUILT_IN): the new-match form shows both beside each preset (issue 45)."""
from __future__ import annotations

from html import unescape

import pytest
from flask_babel import force_locale, gettext

from models.game.presets import BUILT_IN

pytestmark = pytest.mark.sqlite_only  # words only

ACCEPT = {"en": "en", "cs": "cs-CZ,cs;q=0.9", "sk": "sk-SK,sk;q=0.9", "sq": "sq-AL,sq;q=0.9"}


@pytest.mark.parametrize("lang", ["en", "cs", "sk", "sq"])
def test_each_preset_says_what_it_is_in_the_page_language(app, client, lang):
    page = unescape(client.get("/matches/new", headers={"Accept-Language": ACCEPT[lang]}).get_data(as_text=True))
    with app.test_request_context(), force_locale(lang):
        for key, preset in BUILT_IN.items():
            about = gettext(preset.about)
            assert about and (lang == "en" or about != preset.about), (lang, key)  # translated, not left English
            assert f'value="{key}"' in page and f"{about}: " in page, (lang, key)
            assert gettext(preset.name) in page
