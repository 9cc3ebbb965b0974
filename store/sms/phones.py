"""Phone numbers as providers take them: E.164, checked against libphonenumber's metadata (the
``phonenumbers`` package), the country chosen by the dialling code of the spec's ``area_id``.

A number is read in its country's national format (a leading trunk 0 is fine: 07911 123456 in the
United Kingdom), or with the dialling code typed again in front of it (8613800138000 for China). It must
be a valid number of that dialling code's plan, so a string of digits that no operator could route is
refused before any provider is paid to try it.
"""

from __future__ import annotations

from dataclasses import dataclass

import phonenumbers

from store.errors import DomainError, ErrorCode


@dataclass(frozen=True)
class Phone:
    e164: str  # +8613800138000
    region: str  # CN: the ISO 3166 country the number belongs to

    @property
    def dialling_code(self) -> str:
        return str(phonenumbers.parse(self.e164).country_code)


def parse_phone(number: str, dialling_code: str) -> Phone:
    """The number in E.164 with its country; raises PHONE_INVALID when it is not a valid number of the
    plan ``dialling_code`` (digits, 86) names, or the dialling code names none."""
    code = dialling_code.strip().lstrip("+")
    region = phonenumbers.region_code_for_country_code(int(code)) if code.isdigit() else "ZZ"
    if region == "ZZ" or not number.isdigit():
        raise DomainError(ErrorCode.PHONE_INVALID)
    candidates = [number] + ([f"+{number}"] if number.startswith(code) else [])
    for candidate in candidates:
        try:
            parsed = phonenumbers.parse(candidate, region)
        except phonenumbers.NumberParseException:
            continue
        if str(parsed.country_code) == code and phonenumbers.is_valid_number(parsed):
            e164 = phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
            return Phone(e164, phonenumbers.region_code_for_number(parsed) or region)
    raise DomainError(ErrorCode.PHONE_INVALID)
