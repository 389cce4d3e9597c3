"""Message ids and creation times: `mp.configure(message_ids=, message_timestamps=)`, UUIDv7."""

from __future__ import annotations

import os
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

import mediaparts as mp
from mediaparts._conversation import _stamps
from mediaparts._conversation._stamps import stamps, uuid7, uuid7_from
from mediaparts.fetching import default_policy

NOON = datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("scheme", "version"), [("uuid4", 4), ("uuid7", 7)])
def test_configure_message_ids_stamps_new_messages(scheme: Any, version: int) -> None:
    """Each new message gets a fresh id of the configured UUID version."""
    mp.configure(message_ids=scheme)
    made = [mp.System("s"), mp.User("u"), mp.Assistant("a"), mp.Tool("t", tool_call_id="c")]
    ids = [uuid.UUID(m.id or "") for m in made]
    assert {i.version for i in ids} == {version}
    assert len(set(ids)) == len(made)


def test_configure_message_ids_keeps_a_given_id() -> None:
    """A message made with an id keeps it; stamping fills in only what is missing."""
    mp.configure(message_ids="uuid7", message_timestamps=True)
    message = mp.User("hi", id="mine", created_at=NOON)
    assert (message.id, message.created_at) == ("mine", NOON)


def test_configure_message_ids_none_turns_it_off() -> None:
    """`message_ids=None` and `message_timestamps=False` stop stamping again."""
    mp.configure(message_ids="uuid4", message_timestamps=True)
    assert mp.User("x").id is not None
    mp.configure(message_ids=None, message_timestamps=False)
    assert (mp.User("x").id, mp.User("x").created_at) == (None, None)
    assert stamps() == (None, False)


def test_configure_without_arguments_changes_nothing() -> None:
    """`mp.configure()` keeps both the stamping and the fetch settings."""
    mp.configure(message_ids="uuid7")
    policy = default_policy()
    mp.configure()
    assert stamps() == ("uuid7", False)
    assert default_policy() is policy


def test_configure_fetch_policy_still_set() -> None:
    """The fetch arguments are passed on, and leave the stamping alone."""
    before = default_policy()
    policy = mp.FetchPolicy(timeout=5.0)
    try:
        mp.configure(fetch=policy)
        assert default_policy() is policy
        assert stamps() == (None, False)
    finally:
        mp.configure(fetch=before)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"message_ids": "uuid1"}, "'uuid4', 'uuid7' or None"),
        ({"message_ids": True}, "'uuid4', 'uuid7' or None"),
        ({"message_timestamps": "yes"}, "True or False"),
        ({"message_ids": "uuid7", "fetch": "strict"}, "FetchPolicy"),
    ],
)
def test_configure_refuses_a_wrong_stamping_argument(
    arguments: dict[str, Any], message: str
) -> None:
    """A wrong value is InvalidConfig naming the argument, and nothing is set."""
    with pytest.raises(mp.InvalidConfig, match=message):
        mp.configure(**arguments)
    assert stamps() == (None, False)


def test_configure_message_timestamps_stamps_now_in_utc() -> None:
    """`message_timestamps=True` gives new messages the current time, timezone-aware."""
    mp.configure(message_timestamps=True)
    before = datetime.now(timezone.utc)
    made = mp.User("x").created_at
    assert made is not None and made.tzinfo is not None
    assert before <= made <= datetime.now(timezone.utc)


def test_model_copy_keeps_id_and_time() -> None:
    """A copy is the same message: it keeps its id and created_at, stamping or not."""
    mp.configure(message_ids="uuid7", message_timestamps=True)
    message = mp.User("x")
    copy = message.model_copy(update={"parts": (mp.TextPart("y"),)})
    assert (copy.id, copy.created_at) == (message.id, message.created_at)


def test_message_from_dict_keeps_stored_id_and_stamps_missing_one() -> None:
    """A dict's own id and time win; a dict without them makes a new message, stamped."""
    stored = mp.User("x", id="m1", created_at=NOON).to_dict()
    mp.configure(message_ids="uuid7")
    assert mp.message_from_dict(stored).id == "m1"
    assert mp.message_from_dict({"role": "user", "content": "x"}).id is not None


def test_messages_from_payload_ids_win() -> None:
    """A reader's messages are new messages: stamped, unless the payload has its own id."""
    mp.configure(message_ids="uuid4")
    (read,) = mp.messages_from({"messages": [{"role": "user", "content": "hi"}]}, "anthropic")
    assert read.id is not None
    response = {"id": "msg_1", "type": "message", "role": "assistant", "content": []}
    assert mp.message_from_response(response, "anthropic").id == "msg_1"


def test_created_at_round_trips_with_its_offset() -> None:
    """created_at goes through to_dict() and JSON as ISO 8601 text and back, offset kept."""
    when = datetime(2026, 11, 24, 12, 0, 0, 1234, tzinfo=timezone(timedelta(hours=-5)))
    message = mp.Assistant("x", id="a1", created_at=when)
    out = message.to_dict()
    assert out["created_at"] == "2026-11-24T12:00:00.001234-05:00"
    back = mp.message_from_dict(out)
    assert back == message
    assert back.created_at is not None and back.created_at.utcoffset() == timedelta(hours=-5)


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 11, 24, 12, 0),
        "2026-11-24T12:00:00",
        1_764_000_000,
        1.5,
        True,
        "noon",
        "1700000000",  # digits in text would be read as a Unix time (seconds or ms)
        "1700000000000",
        "0",
    ],
)
def test_created_at_refuses_naive_or_non_time(value: Any) -> None:
    """A naive time, a bare number or other text is InvalidMedia (a naive time is ambiguous)."""
    with pytest.raises(mp.InvalidMedia, match="created_at"):
        mp.User("x", created_at=value)


def test_merge_runs_keeps_first_id_and_time_under_stamping() -> None:
    """With ids on, same-role runs still merge, keeping the first message's id and time."""
    mp.configure(message_ids="uuid7", message_timestamps=True)
    first, second = mp.User("a"), mp.User("b")
    (merged,) = mp.merge_runs([first, second])
    assert (merged.id, merged.created_at) == (first.id, first.created_at)


def test_uuid7_bit_layout() -> None:
    """Version 7, RFC 9562 variant, the millisecond in the top 48 bits, 74 random bits kept."""
    ms, rand = 0x0192_F0C4_7B5E, (1 << 74) - 2
    made = uuid7_from(ms, rand)
    assert made.version == 7
    assert made.variant == uuid.RFC_4122
    assert made.int >> 80 == ms
    assert (made.int >> 64) & 0xFFF == rand >> 62  # rand_a
    assert made.int & ((1 << 62) - 1) == rand & ((1 << 62) - 1)  # rand_b
    assert str(uuid7_from(0, 0)) == "00000000-0000-7000-8000-000000000000"


def test_uuid7_time_is_now() -> None:
    """The timestamp is the current Unix time in milliseconds."""
    before = int(datetime.now(timezone.utc).timestamp() * 1000)
    stamp = uuid7().int >> 80
    assert before - 1 <= stamp <= int(datetime.now(timezone.utc).timestamp() * 1000) + 1


def test_uuid7_is_monotonic_within_a_millisecond() -> None:
    """UUIDs made one after another sort in the order they were made, even within one ms."""
    made = [uuid7() for _ in range(2000)]
    assert made == sorted(made)
    assert len(set(made)) == len(made)


def test_uuid7_overflow_borrows_the_next_millisecond(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the random bits of one millisecond run out, the next UUID takes the next ms."""
    import time

    from mediaparts._conversation import _stamps

    frozen = 1_764_000_000_000
    monkeypatch.setattr(time, "time_ns", lambda: frozen * 1_000_000)
    monkeypatch.setattr(_stamps, "_last", [frozen, (1 << 74) - 1])
    made = uuid7()
    assert made.int >> 80 == frozen + 1
    assert made > uuid7_from(frozen, (1 << 74) - 1)


def test_stamping_turned_on_in_a_test() -> None:
    """(With the next test:) a test may turn stamping on and leave it on..."""
    mp.configure(message_ids="uuid7", message_timestamps=True)


def test_stamping_is_off_again_in_the_next_test() -> None:
    """...and the conftest fixture has put it back before the next test."""
    assert stamps() == (None, False)
    assert mp.User("x").id is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_uuid7_forked_child_draws_anew() -> None:
    """A forked child never repeats its parent's next UUIDv7, even with the clock behind the
    last id made (where both would increment the same random bits)."""
    _stamps._last[0] += 5_000  # the last id is 5 s ahead: as after the clock stepped back
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.write(write, str(uuid7()).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    theirs = os.read(read, 64).decode()
    os.close(read)
    assert theirs != str(uuid7())
