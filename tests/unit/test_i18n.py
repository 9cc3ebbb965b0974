"""Every server message is translated into every product language, placeholders intact."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from config.settings import ROOT
from serve.i18n import LANG_LOCALES, catalogue, normalize_lang, translate

PLACEHOLDER = re.compile(r"\{\w+\}")


def marked_messages() -> set[str]:
    found: set[str] = set()
    for package in ("actors", "serve", "store"):
        for _file, _line, message, _comments, _ctx in extract_from_dir(
            Path(ROOT / package), method_map=[("**.py", "python")], keywords={"N_": None}
        ):
            found.add(message)
    return found


def test_extraction_finds_the_catalogue_messages() -> None:
    messages = marked_messages()
    assert "Please log in first" in messages
    assert "A code was just sent, please try again in {seconds} seconds" in messages


@pytest.mark.parametrize("lang", [k for k in LANG_LOCALES if k != "en"])
def test_every_message_is_translated(lang: str) -> None:
    translations = catalogue(lang)
    missing = sorted(m for m in marked_messages() if not translations.get(m))
    assert not missing, f"{lang} lacks: {missing}"
    for message in marked_messages():
        assert sorted(PLACEHOLDER.findall(translations[message])) == sorted(PLACEHOLDER.findall(message)), message


def test_translate_fills_placeholders_in_the_requested_language() -> None:
    english = translate("A code was just sent, please try again in {seconds} seconds", "en", seconds=42)
    german = translate("A code was just sent, please try again in {seconds} seconds", "gm", seconds=42)
    assert english == "A code was just sent, please try again in 42 seconds"
    assert "42" in german and german != english


@pytest.mark.parametrize(
    ("given", "expected"), [("hk", "hk"), ("JP", "jp"), (" fr ", "fr"), ("xx", "en"), (None, "en")]
)
def test_unknown_languages_fall_back_to_english(given: str | None, expected: str) -> None:
    assert normalize_lang(given) == expected
