"""What render does with what a provider cannot carry (`on_loss`), prompts and empty
conversations, and the tool-call ids renderers share.

Only core behaviour is asserted here: what `parts()` reports in user turns (another
provider's blocks and reasoning, a file of another store). How each provider renders
reasoning, citations and its own blocks is its own test's business.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import get
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._render import Preparer
from mediaparts.providers._wire._rendering import call_ids, parts
from tests._builders import TESTDATA
from tests.providers._sdk import validate_request

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "bedrock")
# Where each provider's payload keeps the conversation, and its empty conversation.
EMPTY: dict[str, dict[str, list[Any]]] = {
    "openai": {"messages": []},
    "openai-responses": {"input": []},
    "anthropic": {"messages": []},
    "gemini": {"contents": []},
    "bedrock": {"messages": []},
}
TURNS = {provider: next(iter(empty)) for provider, empty in EMPTY.items()}


def _lost_things() -> tuple[list[mp.Message], list[tuple[Any, str]]]:
    """A conversation whose user turn holds three things no provider here can carry."""
    foreign_block = mp.ProviderPart(provider="acme", data={"type": "web_search_result"})
    foreign_reasoning = mp.ReasoningPart(text="private musings", provider="acme")
    foreign_file = mp.part({"file_id": "file-xyz", "provider": "acme", "media_type": None})
    user = mp.User(["Question?", foreign_block, foreign_reasoning, foreign_file, "More."])
    expected = [
        (foreign_block, "ProviderPart (acme web_search_result)"),
        (foreign_reasoning, "ReasoningPart from acme 'private musings'"),
        (foreign_file, "FilePart 'file-xyz' (acme file)"),
    ]
    return [mp.System("Be brief."), user], expected


@pytest.mark.parametrize("provider", PROVIDERS)
def test_render_on_loss_warn_names_each_lost_part(provider: str) -> None:
    """ "warn" issues one ConversionWarning per lost part: the part, its message, and why."""
    messages, expected = _lost_things()
    with pytest.warns(mp.ConversionWarning) as caught:
        payload = mp.render(messages, provider)
    texts = [str(w.message) for w in caught if issubclass(w.category, mp.ConversionWarning)]
    assert len(texts) == len(expected)
    for text, (_, named) in zip(texts, expected, strict=True):
        assert text.startswith(f"{provider} cannot carry {named} in message 1 (user): ")
        assert text.split(": ", 1)[1]  # why
    assert "only acme can read it" in texts[0] and "only acme can read it" in texts[1]
    assert "acme's file store" in texts[2]
    dumped = json.dumps(payload)
    assert "Question?" in dumped and "More." in dumped
    assert "private musings" not in dumped and "file-xyz" not in dumped
    assert all(w.filename == __file__ for w in caught)  # attributed to render's caller


@pytest.mark.parametrize("provider", PROVIDERS)
def test_render_on_loss_drop_is_quiet(provider: str) -> None:
    """ "drop" leaves the same parts out and warns nothing."""
    messages, _ = _lost_things()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dropped = mp.render(messages, provider, on_loss="drop")
    with pytest.warns(mp.ConversionWarning):
        warned = mp.render(messages, provider, on_loss="warn")
    assert dropped == warned


@pytest.mark.parametrize("provider", PROVIDERS)
def test_render_on_loss_error_raises_conversion_error(provider: str) -> None:
    """ "error" raises ConversionError at the first lost part, with part, provider and reason."""
    messages, expected = _lost_things()
    with pytest.raises(mp.ConversionError) as caught:
        mp.render(messages, provider, on_loss="error")
    error = caught.value
    assert error.part is expected[0][0]
    assert error.provider == provider
    assert error.reason == "only acme can read it"
    assert "in message 1 (user)" in str(error) and "on_loss='error'" in str(error)
    assert isinstance(error, mp.MediaError)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_arender_on_loss_matches_render(provider: str) -> None:
    """arender loses the same parts with the same warnings and errors as render."""
    messages, expected = _lost_things()
    with pytest.warns(mp.ConversionWarning) as caught:
        payload = asyncio.run(mp.arender(messages, provider))
    assert len([w for w in caught if issubclass(w.category, mp.ConversionWarning)]) == len(expected)
    assert payload == mp.render(messages, provider, on_loss="drop")
    with pytest.raises(mp.ConversionError):
        asyncio.run(mp.arender(messages, provider, on_loss="error"))


@pytest.mark.parametrize("on_loss", ["ignore", "WARN", "", None, 1, ["warn"]])
def test_render_refuses_unknown_on_loss(on_loss: Any) -> None:
    """An on_loss that is not "warn", "drop" or "error" is InvalidConfig, before rendering."""
    with pytest.raises(mp.InvalidConfig, match="on_loss"):
        mp.render("hi", "openai", on_loss=on_loss)
    with pytest.raises(mp.InvalidConfig, match="on_loss"):
        asyncio.run(mp.arender("hi", "openai", on_loss=on_loss))


def test_render_on_loss_error_names_a_message_field() -> None:
    """A lost message field (reported with the message itself) names its message."""
    messages = [mp.User("a"), mp.User("b", name="bob")]
    provider = get("openai")
    prepare = Preparer(provider, messages, lambda p: mp.normalize(p, provider), "error")
    with pytest.raises(mp.ConversionError, match=r"cannot carry User in message 1 \(user\)"):
        prepare.lose(messages[1], "no name field")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_render_prompt_is_one_user_text_message(
    provider: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain string is one user message of text, never a path (even when a file has the
    name)."""
    (tmp_path / "Write a haiku").write_bytes((TESTDATA / "palette.png").read_bytes())
    monkeypatch.chdir(tmp_path)
    payload = mp.render("Write a haiku", provider)
    assert payload == mp.render([mp.User("Write a haiku")], provider)
    (turn,) = payload[TURNS[provider]]
    assert turn["role"] == "user"
    assert json.dumps(payload).count("Write a haiku") == 1
    assert "image" not in json.dumps(payload).lower()


@pytest.mark.parametrize("provider", PROVIDERS)
def test_render_empty_list_is_empty_conversation(provider: str) -> None:
    """`render([])` is the provider's empty conversation, sync and async alike."""
    assert mp.render([], provider) == EMPTY[provider]
    assert asyncio.run(mp.arender([], provider)) == EMPTY[provider]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_render_file_reference_of_another_store_is_lost(provider: str) -> None:
    """A file in another provider's store is lost (warned), never sent as something else."""
    other = "anthropic" if provider != "anthropic" else "openai"
    ref = mp.part({"file_id": "file-abc", "provider": other, "media_type": "application/pdf"})
    with pytest.warns(mp.ConversionWarning, match=f"{other}'s file store"):
        payload = mp.render(mp.User(["Summarise", ref]), provider)
    assert "file-abc" not in json.dumps(payload)
    with pytest.raises(mp.ConversionError) as caught:
        mp.render(mp.User(["Summarise", ref]), provider, on_loss="error")
    assert caught.value.part is ref


def test_render_anthropic_cannot_carry_an_openai_file() -> None:
    """Anthropic loses an OpenAI file and keeps its own: only the foreign one is reported."""
    theirs = mp.part({"file_id": "file-openai", "provider": "openai", "media_type": None})
    ours = mp.part(
        {"file_id": "file_011", "provider": "anthropic", "media_type": "application/pdf"}
    )
    message = mp.User(["Compare", theirs, ours])
    with pytest.warns(mp.ConversionWarning) as caught:
        mp.render(message, "anthropic")
    texts = [str(w.message) for w in caught if issubclass(w.category, mp.ConversionWarning)]
    assert len(texts) == 1 and "'file-openai' (openai file)" in texts[0]
    with pytest.raises(mp.ConversionError) as error:
        mp.render(message, "anthropic", on_loss="error")
    assert error.value.part is theirs
    mp.render(mp.User(["Read", ours]), "anthropic", on_loss="error")  # nothing lost


@pytest.mark.parametrize(
    ("store", "provider"),
    [
        ("anthropic", "anthropic"),
        ("openai", "openai"),
        ("openai", "openai-responses"),
        ("gemini", "gemini"),
        ("bedrock", "bedrock"),
    ],
)
def test_parts_pass_own_store_reference_as_file_id(store: str, provider: str) -> None:
    """parts() gives a renderer its own store's file as a NormalizedPart holding the file_id."""
    ref = mp.part({"file_id": "file-abc", "provider": store, "media_type": "application/pdf"})
    message = mp.User(["Read", ref])
    chosen = get(provider)
    prepare = Preparer(chosen, [message], lambda p: mp.normalize(p, chosen), "error")
    text, fitted = parts(message, prepare)
    assert isinstance(text, mp.TextPart)
    assert isinstance(fitted, NormalizedPart)
    assert (fitted.file_id, fitted.data, fitted.url) == ("file-abc", None, None)


@pytest.mark.parametrize(
    ("store", "provider"),
    [
        ("openai", "openai"),
        ("anthropic", "anthropic"),
        ("openai", "openai-responses"),
        ("gemini", "gemini"),
        ("bedrock", "bedrock"),
    ],
)
def test_render_own_store_reference_is_sent_by_id(store: str, provider: str) -> None:
    """A file of the provider's own store is sent by its id, never as empty inline data."""
    ref = mp.part({"file_id": "file-abc", "provider": store, "media_type": "application/pdf"})
    payload = mp.render(mp.User(["Read", ref]), provider, on_loss="error")
    dumped = json.dumps(payload)
    assert "file-abc" in dumped and "null" not in dumped


# -- call_ids: the ids renderers give tool calls and results ------------------------------


def _loop(*results: mp.Tool) -> list[mp.Message]:
    calls = [
        mp.ToolCall(name="weather", arguments='{"city": "Paris"}'),
        mp.ToolCall(name="time"),
        mp.ToolCall(name="weather", arguments='{"city": "Rome"}'),
    ]
    return [mp.User("Go"), mp.Assistant("Calling.", tool_calls=calls), *results]


def test_call_ids_keep_own_ids() -> None:
    """A call's own id and a result's tool_call_id are used as they are."""
    call = mp.ToolCall(id="toolu_1", name="f")
    result = mp.Tool("ok", tool_call_id="toolu_1")
    ids = call_ids([mp.Assistant(tool_calls=[call]), result])
    assert ids == {id(call): "toolu_1", id(result): "toolu_1"}


def _call_ids_in_order(messages: list[mp.Message]) -> list[str]:
    ids = call_ids(messages)
    return [ids[id(c)] for m in messages if isinstance(m, mp.Assistant) for c in m.tool_calls]


def test_call_ids_are_derived_and_stable() -> None:
    """Calls without ids get distinct ids made from their position: the same for the same
    conversation, and unchanged when turns are added after them."""
    derived = _call_ids_in_order(_loop())
    assert len(set(derived)) == 3 and all(i.startswith("call_") for i in derived)
    assert _call_ids_in_order(_loop()) == derived
    longer = [*_loop(mp.Tool("sunny", name="weather")), mp.Assistant(tool_calls=[{"name": "x"}])]
    assert _call_ids_in_order(longer)[:3] == derived
    assert len(set(_call_ids_in_order(longer))) == 4


def test_call_ids_match_results_by_name() -> None:
    """Results without ids (Gemini) answer the earliest unanswered call of their name."""
    rome_first = mp.Tool("sunny", name="weather")
    clock = mp.Tool("noon", name="time")
    rome_second = mp.Tool("rain", name="weather")
    messages = _loop(rome_first, clock, rome_second)
    ids = call_ids(messages)
    paris, time, rome = messages[1].tool_calls  # type: ignore[union-attr]
    assert ids[id(rome_first)] == ids[id(paris)]
    assert ids[id(clock)] == ids[id(time)]
    assert ids[id(rome_second)] == ids[id(rome)]


def test_call_ids_unnamed_result_takes_earliest_pending() -> None:
    """A result with neither id nor name answers the earliest unanswered call."""
    answered = mp.Tool("sunny", name="weather")
    unnamed = mp.Tool("noon")
    messages = _loop(answered, unnamed)
    ids = call_ids(messages)
    _, time, _ = messages[1].tool_calls  # type: ignore[union-attr]
    assert ids[id(unnamed)] == ids[id(time)]


def test_call_ids_result_with_id_answers_that_call_only() -> None:
    """A result naming its call by id takes it off the pending list; one with no call left
    gets an id of its own, not another call's."""
    explicit = mp.ToolCall(id="c1", name="weather")
    derived = mp.ToolCall(name="weather")
    by_id = mp.Tool("a", tool_call_id="c1")
    by_name = mp.Tool("b", name="weather")
    orphan = mp.Tool("c", name="weather")
    ids = call_ids([mp.Assistant(tool_calls=[explicit, derived]), by_id, by_name, orphan])
    assert ids[id(by_id)] == "c1"
    assert ids[id(by_name)] == ids[id(derived)] != "c1"
    assert ids[id(orphan)] not in (ids[id(explicit)], ids[id(derived)])


# -- review fixes: ids, copies, prompts, foreign reasoning -----------------------------------


def test_call_ids_never_collide_with_explicit_ids() -> None:
    """A derived id skips any id a call already has, so no two calls share one."""
    calls = [mp.ToolCall(name="f"), mp.ToolCall(id="call_1", name="g")]
    ids = call_ids([mp.Assistant(tool_calls=calls)])
    assert len({ids[id(c)] for c in calls}) == 2
    assert ids[id(calls[1])] == "call_1"


def test_call_ids_replace_ids_the_target_refuses() -> None:
    """An id outside the target's pattern is replaced, in the call and in its result alike."""
    call = mp.ToolCall(id="functions.get:0", name="get")
    result = mp.Tool("ok", tool_call_id="functions.get:0")
    ids = call_ids([mp.Assistant(tool_calls=[call]), result], str.isidentifier)
    assert ids[id(call)] == ids[id(result)] == "call_1"


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_render_makes_foreign_tool_ids_valid(provider: str) -> None:
    """Anthropic and Bedrock get ids their patterns take; the result still answers its call."""
    messages: list[mp.Message] = [
        mp.User("q"),
        mp.Assistant(tool_calls=[mp.ToolCall(id="functions.get:0/" + "x" * 70, name="get")]),
        mp.Tool("ok", tool_call_id="functions.get:0/" + "x" * 70),
    ]
    dumped = json.dumps(mp.render(messages, provider))
    assert "functions.get" not in dumped
    assert dumped.count('"call_1"') == 2


def test_render_payload_shares_nothing_with_the_parts() -> None:
    """Editing a rendered payload leaves the conversation's own blocks unchanged."""
    block = {"type": "web_search_call", "id": "ws_1", "action": {"query": "q"}}
    kept = mp.ProviderPart(provider="openai-responses", data=block)
    payload = mp.render([mp.User("q"), mp.Assistant([kept])], "openai-responses")
    payload["input"][1]["action"]["query"] = "EDITED"
    assert kept.data["action"] == {"query": "q"}


@pytest.mark.parametrize("provider", mp.providers.names())
def test_render_empty_prompt_is_an_empty_conversation(provider: str) -> None:
    """render("") is the same empty conversation as render([]), for every provider."""
    assert mp.render("", provider) == mp.render([], provider)


def test_render_takes_a_bytearray_as_one_part() -> None:
    """A bytearray or memoryview is one piece of media, as bytes are."""
    raw = (TESTDATA / "palette.png").read_bytes()
    for value in (bytearray(raw), memoryview(raw)):
        payload = mp.render(value, "openai")
        assert payload["messages"][0]["content"][0]["type"] == "image_url"


@pytest.mark.parametrize("provider", mp.providers.names())
def test_render_unsigned_reasoning_as_text_when_asked(provider: str) -> None:
    """foreign_reasoning="text" also sends reasoning that names no provider, as text."""
    messages: list[mp.Message] = [
        mp.User("q"),
        mp.Assistant([mp.ReasoningPart(text="an unsigned thought"), "answer"]),
        mp.User("next"),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error", mp.ConversionWarning)
        payload = mp.render(messages, provider, foreign_reasoning="text")
    assert "an unsigned thought" in json.dumps(payload)


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_render_fits_cache_breakpoints_to_anthropics_rules(provider: str) -> None:
    """At most 4 breakpoints (the earliest reported), and a 5m one before a 1h one is raised."""
    messages: list[mp.Message] = [mp.System(parts=[mp.TextPart("Be brief.", cache="5m")])]
    for n in range(5):
        messages += [mp.User(parts=[mp.TextPart(f"q{n}", cache="5m")]), mp.Assistant(f"a{n}")]
    messages.append(mp.User(parts=[mp.TextPart("last", cache="1h")]))
    with pytest.warns(mp.ConversionWarning, match="cache breakpoint") as caught:
        payload = mp.render(messages, provider)
    assert len(caught) == 3  # 7 breakpoints, 4 kept
    validate_request(provider, payload)
    key = "cache_control" if provider == "anthropic" else "cachePoint"
    assert json.dumps(payload).count(f'"{key}"') == 4
    assert json.dumps(payload).count('"1h"') == 4


@pytest.mark.parametrize(
    ("provider", "model"),
    [("openai", "gpt-4o"), ("openai-responses", "gpt-4.1"), ("anthropic", None), ("bedrock", None)],
)
def test_arender_matches_render_when_breakpoints_change(provider: str, model: str | None) -> None:
    """Breakpoints dropped or fitted on media parts: arender gives what render gives."""
    image = mp.part(TESTDATA / "palette.png", cache="5m")
    messages: list[mp.Message] = [
        mp.User([image, mp.TextPart("look", cache="1h")]),
    ]
    expected = mp.render(messages, provider, model=model)
    assert asyncio.run(mp.arender(messages, provider, model=model)) == expected


def test_call_ids_skip_ids_that_results_already_use() -> None:
    """A derived id never repeats a tool_call_id a result already names."""
    messages: list[mp.Message] = [
        mp.Assistant(tool_calls=[mp.ToolCall(name="a")]),
        mp.Tool("r-a", name="a"),
        mp.Tool("orphan", tool_call_id="call_1", name="b"),
    ]
    ids = call_ids(messages)
    assert ids[id(messages[0].parts[0])] != "call_1"


@pytest.mark.parametrize("provider", ["deepseek", "ollama", "xai", "xai-responses"])
def test_render_loss_of_a_cached_part_names_its_message(provider: str) -> None:
    """A part lost by a provider that takes no cache breakpoints (the wire renders a copy
    without them) is still named with its message."""
    stored = mp.FilePart(
        file_id="file-abc", file_provider="openai", media_type="application/pdf", cache="5m"
    )
    messages = [mp.System("Read it."), mp.User(["Who signs?", stored])]
    with pytest.warns(mp.ConversionWarning, match=r"FilePart .* in message 1 \(user\)"):
        mp.render(messages, provider)
