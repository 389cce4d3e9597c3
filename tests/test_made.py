"""`made`: parts and messages a reader checked, made without validation, equal to validated ones.

Equal means more than `==`: the same class, the same fields in the same order, the same set of
fields given, the same private and extra state, repr and hash, part by part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

import mediaparts as mp
from mediaparts._conversation import _construct
from mediaparts._conversation._made import made, made_text, updated
from tests.conversations._corpus import cases, load, path_of


def _validating(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `made` validate everything, as the constructors do."""
    monkeypatch.setattr(_construct, "_SHORTCUTS", {})
    monkeypatch.setattr(_construct, "_shortcut", lambda cls: None)


def _same(a: Any, b: Any, at: str = "") -> None:
    """Assert that two values are the same, models field for field, recursively."""
    assert type(a) is type(b), at
    if isinstance(a, BaseModel):
        assert list(a.__dict__) == list(b.__dict__), at
        assert a.model_fields_set == b.model_fields_set, at
        assert _private(a) == _private(b), at
        assert a.__pydantic_extra__ == b.__pydantic_extra__, at
        assert (repr(a), hash(a)) == (repr(b), hash(b)), at
        for name, value in a.__dict__.items():
            _same(value, b.__dict__[name], f"{at}.{name}")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), at
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{at}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), at
        for key, value in a.items():
            _same(value, b[key], f"{at}.{key}")
    else:
        assert a == b, at


def _private(model: BaseModel) -> Any:
    """A model's private state, by value (a media part's load state has no `==` of its own)."""
    private = model.__pydantic_private__
    if private is None:
        return None
    return {name: (type(v), _state(v)) for name, v in private.items()}


def _state(value: Any) -> Any:
    state = getattr(value, "__getstate__", None)
    return state() if state is not None else value


@pytest.mark.parametrize("case", cases("requests"), ids="/".join)
def test_made_reads_the_corpus_as_validation_does(
    case: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every conversation of the corpus reads back the same with and without validation."""
    provider, name = case
    payload = load(path_of(provider, "requests", name))
    fast = mp.messages_from(payload, provider)
    _validating(monkeypatch)
    _same(fast, mp.messages_from(payload, provider))


_TEXT = mp.TextPart("x")
_IMAGE = mp.ImagePart.from_url("https://example.com/a.png")

# (what `made` is given, as a class and its keyword fields)
_CASES: list[tuple[str, Callable[[], tuple[type[Any], dict[str, Any]]]]] = [
    ("text", lambda: (mp.TextPart, {"text": "hello"})),
    ("text with a lone surrogate", lambda: (mp.TextPart, {"text": "a\ud800b"})),
    ("text that is not a str", lambda: (mp.TextPart, {"text": 1})),
    ("text with a cache", lambda: (mp.TextPart, {"text": "x", "cache": "5m"})),
    ("text with an unknown cache", lambda: (mp.TextPart, {"text": "x", "cache": "2h"})),
    ("text with hints", lambda: (mp.TextPart, {"text": "x", "native": {"p": {"k": [1]}}})),
    ("a call", lambda: (mp.ToolCall, {"id": "c", "name": "f", "arguments": "{}"})),
    ("a call with dict arguments", lambda: (mp.ToolCall, {"name": "f", "arguments": {"a": 1}})),
    ("a user with a list of parts", lambda: (mp.User, {"parts": [_TEXT, _IMAGE]})),
    ("a user with no parts", lambda: (mp.User, {})),
    ("a user with a str for parts", lambda: (mp.User, {"parts": "text"})),
    ("a user with empty hints", lambda: (mp.User, {"parts": (_TEXT,), "native": {}})),
    ("a user with a name", lambda: (mp.User, {"parts": [_TEXT], "name": "ann"})),
    ("a user with metadata", lambda: (mp.User, {"parts": [_TEXT], "metadata": {"a": 1}})),
    ("a developer message", lambda: (mp.System, {"parts": [_TEXT], "role": "developer"})),
    ("a system message with media", lambda: (mp.System, {"parts": [_TEXT, _IMAGE]})),
    ("an assistant that stopped", lambda: (mp.Assistant, {"parts": [], "stop_reason": "end"})),
    ("a tool result", lambda: (mp.Tool, {"parts": [_TEXT], "tool_call_id": "c"})),
    ("a tool error", lambda: (mp.Tool, {"parts": [], "tool_call_id": "c", "error": "boom"})),
    ("a tool error flag", lambda: (mp.Tool, {"parts": [], "tool_call_id": "c", "is_error": True})),
    ("a tool error flag of 1", lambda: (mp.Tool, {"parts": [], "is_error": 1})),
    ("an unknown field", lambda: (mp.User, {"parts": [], "colour": "red"})),
]


@pytest.mark.parametrize(("name", "given"), _CASES, ids=[name for name, _ in _CASES])
def test_made_is_the_constructor(
    name: str, given: Callable[[], tuple[type[Any], dict[str, Any]]]
) -> None:
    """`made(cls, **values)` makes what `cls(**values)` makes, or raises what it raises."""
    cls, values = given()
    expected = _outcome(lambda: cls(**dict(values)))
    got = _outcome(lambda: made(cls, **dict(values)))
    if isinstance(expected, mp.MediaError):
        assert (type(got), str(got)) == (type(expected), str(expected))
    else:
        _same(got, expected)


def _outcome(make: Callable[[], Any]) -> Any:
    """What `make` returns, or the error it raises."""
    try:
        return make()
    except mp.MediaError as exc:
        return exc


def test_made_keeps_nothing_the_caller_gave() -> None:
    """Hints and lists given are copied: editing them afterwards leaves the model as it was."""
    hints: dict[str, Any] = {}
    parts = [mp.TextPart("x")]
    message = made(mp.User, parts=parts, native=hints)
    hints["p"] = {"edited": True}
    parts.append(mp.TextPart("y"))
    assert message.native == {}
    assert message.parts == (mp.TextPart("x"),)


def test_made_stamps_messages_as_the_constructors_do() -> None:
    """With ids and times configured, a message made gets both, as a constructed one does."""
    mp.configure(message_ids="uuid7", message_timestamps=True)
    message = made(mp.User, parts=[mp.TextPart("x")])
    assert message.id is not None
    assert message.created_at is not None
    assert made(mp.User, parts=[], id="kept").id == "kept"


@pytest.mark.parametrize("native", [None, {}, {"openai-responses": {"item": {"id": "msg_1"}}}])
@pytest.mark.parametrize("text", ["plain", "", "non-ASCII é", "a lone \ud800 surrogate", 7])
def test_made_text_is_made(text: Any, native: dict[str, Any] | None) -> None:
    """`made_text` (a reader's commonest part) is `made(TextPart, text=...)`, field for field,
    with a `native` given set as `model_copy` sets it (kept, not copied); what validation
    changes or refuses goes through it."""
    try:
        part = mp.TextPart(text=text)
    except mp.MediaError as exc:
        with pytest.raises(type(exc)):
            made_text(text, native=native)
        return
    expected = part if native is None else part.model_copy(update={"native": native})
    _same(made_text(text, native=native), expected)
    if native is None:
        _same(made_text(text), made(mp.TextPart, text=text))
    else:
        assert made_text(text, native=native).native is native
    if native == {}:  # as a reader giving `native={}` made it before
        _same(made_text(text, native={}), made(mp.TextPart, text=text, native={}))


@pytest.mark.parametrize("case", cases("requests"), ids="/".join)
def test_updated_is_model_copy(case: tuple[str, str]) -> None:
    """`updated` makes what `model_copy(update=...)` makes, for every message and part read."""
    provider, name = case
    for message in mp.messages_from(load(path_of(provider, "requests", name)), provider):
        for model in (message, *message.parts):
            native = {**model.native, "test": {"hint": [1]}}
            _same(updated(model, native=native), model.model_copy(update={"native": native}))


@pytest.mark.parametrize("text", ["plain", "non-ASCII é", "a lone \ud800 surrogate"])
def test_made_easy_user_message_is_the_general_readers(text: str) -> None:
    """A Responses easy user message of text, read by its shortcut, is what the general path
    makes of it: the message validation builds from its one text part and no hints."""
    read = mp.messages_from({"input": [{"role": "user", "content": text}]}, "openai-responses")
    _same(read, [mp.User(parts=[mp.TextPart(text=text)], native={})])


@pytest.mark.parametrize("text", ["plain", "non-ASCII é", "a lone \ud800 surrogate"])
def test_made_one_text_contents_are_the_general_readers(text: str) -> None:
    """Gemini Contents of one text Part, read by their shortcut, are what the general path
    makes of them: messages validation builds from that part and no hints."""
    contents = [{"role": role, "parts": [{"text": text}]} for role in ("user", "model")]
    read = mp.messages_from({"contents": contents}, "gemini")
    part = mp.TextPart(text=text, native={})
    _same(read, [mp.User(parts=[part]), mp.Assistant(parts=[part])])
