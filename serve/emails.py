"""The one e-mail address check, for every place that takes an address: register, login, codes,
bindings, password resets, the console's contact address and `exchange operator add` (issue 27, #8;
docs/decisions.md "The access edge").

The exchange accepts any syntactically valid address a mail server could deliver to, as the
``email-validator`` package judges it: a dot in the domain, no quoted local part, no IP literal, ASCII
before the @ (codes go out over plain SMTP); an internationalised domain is kept in its ASCII
(punycode) form. No DNS lookup: the code sent to the address is what proves it. The library refuses
every special-use domain; the exchange takes ``.local`` (the demo merchants, the seeded support
address and LAN names live there) and refuses the others (``localhost``, ``test``, ``invalid``,
``onion``, ``arpa``): mail to them would reach this host's own mail server or nothing at all.
"""

from __future__ import annotations

import email_validator
from email_validator import EmailNotValidError, validate_email

USER_MAX_LENGTH = 50  # the spec's input maximum for an e-mail, and the users.email column
ALLOWED_SPECIAL_USE = ("local",)

# The library's documented way to allow a special-use name: it reads this list on every call.
for _name in ALLOWED_SPECIAL_USE:
    if _name in email_validator.SPECIAL_USE_DOMAIN_NAMES:
        email_validator.SPECIAL_USE_DOMAIN_NAMES.remove(_name)


def normal_email(address: str, max_length: int = USER_MAX_LENGTH) -> str | None:
    """``address`` as the exchange stores and looks it up (ASCII, lower case), or None when it is not
    a valid address of at most ``max_length`` characters."""
    if len(address) > max_length:
        return None
    try:
        checked = validate_email(address, check_deliverability=False, allow_smtputf8=False,
                                 allow_quoted_local=False, allow_domain_literal=False)  # fmt: skip
    except EmailNotValidError:
        return None
    ascii_email = checked.ascii_email
    if ascii_email is None or len(ascii_email) > max_length:
        return None
    return ascii_email.lower()
