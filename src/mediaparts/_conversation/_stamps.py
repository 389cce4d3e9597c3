"""Ids and timestamps for new messages: what `mp.configure(message_ids=...,
message_timestamps=...)` sets, and UUID version 7 (RFC 9562) where Python has none (before 3.14).

A message made without an id (by the application, `mp.message_from_dict`, `mp.messages_from`,
`mp.merge_runs`) gets one when `message_ids` is set; one that has an id keeps it, and so does a
copy (`model_copy` builds no new message). Ids and timestamps belong to the application: no
renderer sends them (a Responses item `id` is the API's own, kept in `native` hints).
"""

from __future__ import annotations

import enum
import os
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any, Literal, TypeAlias

from mediaparts._errors import InvalidConfig, excerpt

__all__ = [
    "UNSET",
    "IdScheme",
    "Unset",
    "check_stamps",
    "set_stamps",
    "stamp",
    "stamps",
    "uuid7",
    "uuid7_from",
]

IdScheme: TypeAlias = Literal["uuid4", "uuid7"]
"""How new messages get ids: random (`uuid4`) or time-ordered (`uuid7`, RFC 9562)."""


class Unset(enum.Enum):
    """The default of a `configure` argument that was not given (`None` means "off")."""

    UNSET = "unset"


UNSET = Unset.UNSET

_SCHEMES = ("uuid4", "uuid7")


class _Stamping:
    ids: IdScheme | None = None
    timestamps: bool = False


_settings = _Stamping()


def set_stamps(
    *,
    message_ids: IdScheme | Unset | None = UNSET,
    message_timestamps: bool | Unset = UNSET,
) -> None:
    """Set how new messages are stamped; an argument left out keeps its current setting.

    Raises:
        InvalidConfig: See `check_stamps` (checked before anything is set).
    """
    check_stamps(message_ids=message_ids, message_timestamps=message_timestamps)
    if not isinstance(message_ids, Unset):
        _settings.ids = message_ids
    if not isinstance(message_timestamps, Unset):
        _settings.timestamps = message_timestamps


def check_stamps(*, message_ids: Any = UNSET, message_timestamps: Any = UNSET) -> None:
    """Refuse a stamping setting of the wrong value.

    Raises:
        InvalidConfig: `message_ids` is not "uuid4", "uuid7" or None, or
            `message_timestamps` is not a bool.
    """
    if message_ids is not UNSET and message_ids is not None and message_ids not in _SCHEMES:
        raise InvalidConfig(
            f"configure(message_ids=...) takes 'uuid4', 'uuid7' or None, got {excerpt(message_ids)}"
        )
    if message_timestamps is not UNSET and not isinstance(message_timestamps, bool):
        raise InvalidConfig(
            "configure(message_timestamps=...) takes True or False, got "
            f"{type(message_timestamps).__name__}"
        )


def stamps() -> tuple[IdScheme | None, bool]:
    """Return the current settings: the id scheme (or None) and whether timestamps are on."""
    return _settings.ids, _settings.timestamps


def stamp(values: dict[str, Any]) -> None:
    """Give a new message's field values an id and a creation time, as configured.

    Only what is missing (absent or None) is filled in: given values always win.
    """
    scheme = _settings.ids
    if scheme is not None and values.get("id") is None:
        values["id"] = str(_NEW_ID[scheme]())
    if _settings.timestamps and values.get("created_at") is None:
        values["created_at"] = datetime.now(timezone.utc)


# -- UUID version 7 ---------------------------------------------------------------------------

_RANDOM_BITS = 74  # rand_a (12 bits) and rand_b (62 bits), RFC 9562 section 5.7
_lock = threading.Lock()
_last = [0, 0]  # the last UUID's millisecond and random bits


def _forget_after_fork() -> None:
    # A forked child starts from the parent's last UUID: incrementing it in both would make the
    # same id twice. The child draws anew (and gets its own lock, which a thread may have held).
    global _lock
    _lock = threading.Lock()
    _last[:] = [0, 0]


if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    os.register_at_fork(after_in_child=_forget_after_fork)


def uuid7() -> uuid.UUID:
    """Return a UUID version 7 (RFC 9562): a 48-bit Unix time in milliseconds, then random bits.

    UUIDs made in this process sort in the order they were made: within one millisecond (or
    when the clock steps back) the random bits of the last one are incremented instead of
    drawn anew (RFC 9562 section 6.2, method 2).
    """
    with _lock:
        ms = time.time_ns() // 1_000_000
        if ms > _last[0]:
            rand = secrets.randbits(_RANDOM_BITS)
        else:
            ms, rand = _last[0], _last[1] + 1
            if rand >> _RANDOM_BITS:  # the random bits overflowed: borrow the next millisecond
                ms, rand = ms + 1, secrets.randbits(_RANDOM_BITS)
        _last[:] = [ms, rand]
    return uuid7_from(ms, rand)


def uuid7_from(ms: int, rand: int) -> uuid.UUID:
    """Lay out a UUID version 7 from its millisecond timestamp and 74 random bits."""
    rand_a, rand_b = rand >> 62, rand & ((1 << 62) - 1)
    value = (ms & ((1 << 48) - 1)) << 80 | 0x7 << 76 | rand_a << 64 | 0b10 << 62 | rand_b
    return uuid.UUID(int=value)


_NEW_ID: dict[str, Callable[[], uuid.UUID]] = {
    "uuid4": uuid.uuid4,
    "uuid7": getattr(uuid, "uuid7", uuid7),  # the standard library's from Python 3.14
}
