"""The global ceiling of codes sent per minute to one country: the answer to SMS pumping (toll fraud),
where bots request codes to premium numbers of one country and share the operator's fee.

Each country's count lives in Redis under the current minute (a fixed window: at most twice the
ceiling can pass around a minute's turn, which bounds the cost just the same). The ceiling is
``sms_country_per_minute`` unless an operator set one for the country (the console's SMS page,
``exchange outbox ceiling``): kept as the site setting ``sms_country_ceilings``, a JSON object of ISO
country to codes a minute, where 0 closes a country.
"""

from __future__ import annotations

import json
import time

from redis.asyncio import Redis

from config.settings import Settings
from store.errors import DomainError, ErrorCode
from store.models import SiteSetting
from store.sessions import PREFIX

SETTING_KEY = "sms_country_ceilings"

# KEYS[1]: the country's count this minute. ARGV: the ceiling. Counts the send and answers 1 when it
# fits; answers 0 and counts nothing when the ceiling is reached.
_TAKE = """
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 120)
return 1
"""


async def overrides() -> dict[str, int]:
    """The ceilings operators set, by country (ISO 3166, upper case)."""
    row = await SiteSetting.get_or_none(key=SETTING_KEY)
    return {k: int(v) for k, v in json.loads(row.value).items()} if row and row.value else {}


async def set_override(region: str, per_minute: int | None) -> dict[str, int]:
    """Set a country's ceiling (None: back to the default); answers every override now in force."""
    found = await overrides()
    if per_minute is None:
        found.pop(region, None)
    else:
        found[region] = per_minute
    await SiteSetting.update_or_create(key=SETTING_KEY, defaults={"value": json.dumps(found, sort_keys=True)})
    return found


def _key(region: str, minute: int) -> str:
    return f"{PREFIX}sms_ceiling:{region}:{minute}"


class CountryCeiling:
    def __init__(self, redis: Redis, settings: Settings) -> None:
        self._redis, self._default = redis, settings.sms_country_per_minute
        self._take = redis.register_script(_TAKE)

    async def limit(self, region: str) -> int:
        return (await overrides()).get(region, self._default)

    async def take(self, region: str) -> None:
        """Count one code to ``region`` this minute, or raise SMS_COUNTRY_BUSY (429) if its ceiling is reached."""
        if not await self._take(keys=[_key(region, int(time.time() // 60))], args=[await self.limit(region)]):
            raise DomainError(ErrorCode.SMS_COUNTRY_BUSY)

    async def used(self, regions: list[str]) -> dict[str, int]:
        """Codes counted this minute, by country."""
        minute = int(time.time() // 60)
        values = await self._redis.mget([_key(r, minute) for r in regions]) if regions else []
        return {r: int(v or 0) for r, v in zip(regions, values, strict=True)}
