"""Message ids and creation times never reach a payload: no API has a field for ours."""

from __future__ import annotations

import pytest

import mediaparts as mp
from mediaparts.testing import MediaURLs
from tests._builders import TESTDATA
from tests.conversations._corpus import cases, load, path_of
from tests.providers._sdk import conversation


def _conversation() -> list[mp.Message]:
    photo = mp.part((TESTDATA / "palette.png").read_bytes())
    return [
        mp.System("Be terse."),
        mp.User("Look:"),
        mp.User(["What is this?", photo]),  # a run that renderers merge
        mp.Assistant("Checking.", tool_calls=[mp.ToolCall(id="call_1", name="zoom")]),
        mp.Tool("zoomed", tool_call_id="call_1", name="zoom"),
        mp.Assistant("A palette.", model="m", stop_reason="end", usage=mp.Usage(input_tokens=3)),
        mp.Assistant("Anything else?"),  # another run
        mp.User("No."),
    ]


@pytest.mark.parametrize("provider", mp.providers.names())
def test_render_ignores_message_ids_and_times(provider: str) -> None:
    """A conversation stamped with ids and times renders exactly as one without them."""
    plain = mp.render(_conversation(), provider)
    mp.configure(message_ids="uuid7", message_timestamps=True)
    stamped = _conversation()
    assert all(m.id is not None and m.created_at is not None for m in stamped)
    assert mp.render(stamped, provider) == plain


@pytest.mark.parametrize("provider", mp.providers.names())
def test_render_ignores_a_response_id(provider: str) -> None:
    """Even an id in a provider's own style (a Responses `msg_…`) is not sent as an item id."""
    with_ids = [m.model_copy(update={"id": f"msg_{i}"}) for i, m in enumerate(_conversation())]
    assert mp.render(with_ids, provider) == mp.render(_conversation(), provider)


@pytest.mark.parametrize("case", cases("requests"), ids="/".join)
def test_render_stamped_corpus_rerenders_identically(
    case: tuple[str, str], media_urls: MediaURLs
) -> None:
    """With stamping on, every real payload still reads and renders back to itself."""
    provider, name = case
    payload = load(path_of(provider, "requests", name))
    mp.configure(message_ids="uuid7", message_timestamps=True)
    messages = mp.messages_from(payload, provider)
    assert all(m.id is not None for m in messages)
    assert mp.render(messages, provider) == conversation(provider, payload)
