"""Server-side messages in the language of the request's ``lang`` header.

Message ids are the English texts, marked with ``N_()`` so ``pybabel extract -k N_`` finds them; the
catalogues are gettext ``.po`` files under ``config/locales/<locale>/LC_MESSAGES/messages.po``, read
with Babel at import. A test checks that every marked id is translated in every language.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).resolve().parent.parent / "config" / "locales"
DEFAULT_LANG = "en"
# The product's language keys and the gettext locale each one is stored under.
LANG_LOCALES: dict[str, str] = {"en": "en", "hk": "zh_Hant", "jp": "ja", "gm": "de", "fr": "fr"}


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark a message id for extraction; translation happens at the edge."""
    return message


def normalize_lang(lang: str | None) -> str:
    lang = (lang or "").strip().lower()
    return lang if lang in LANG_LOCALES else DEFAULT_LANG


@lru_cache(maxsize=len(LANG_LOCALES))
def catalogue(lang: str) -> dict[str, str]:
    """The translations of one language key: message id -> text (empty ones left out)."""
    path = LOCALES_DIR / LANG_LOCALES[lang] / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return {}
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=LANG_LOCALES[lang])
    return {
        m.id: m.string for m in catalog if m.id and isinstance(m.id, str) and m.string and isinstance(m.string, str)
    }


def translate(message: str, lang: str | None = None, **params: Any) -> str:
    text = catalogue(normalize_lang(lang)).get(message, message)
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return message.format(**params)
    return text
