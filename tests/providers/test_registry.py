"""Adding a wire is one module and one registration: this module is a throw-away wire.

The module-level `render` and `media_site` below are everything the "pixie" wire is: a
made-up API shape of text and blob blocks. `RULES` is the "pixie" provider's data: PNG and
JPEG images and PDFs, with its own vision table and PDF rate. The `pixie` fixture registers
the provider on this very module (`mp.providers.register("pixie", wire=module,
rules=RULES)`) and removes it afterwards; the tests then normalize, render, check and
estimate through the public API, as users would. A provider on an existing wire is the same
call with a wire's name (`wire="openai"`), shown at the end.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import json
import types
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import mediaparts as mp
import mediaparts.testing
from mediaparts import cli
from mediaparts.formats import Kind
from mediaparts.providers import (
    AnthropicPatches,
    FileRules,
    ImageRules,
    KindRules,
    MediaRates,
    ModelRule,
    OpenAITiles,
    Prepare,
    Problems,
    RatesTable,
    Rules,
    Site,
    VisionTable,
    Where,
    payload_bytes,
)
from mediaparts.providers import _registry as registry
from mediaparts.testing import MediaFactory
from tests._builders import TESTDATA

NAME = "pixie"

# The made-up API's model tables: the first row (the default, model=None) prices 28-px patches
# with a 512-px long edge (so fitting shrinks large images to 512); "pixie-tiles*" models price
# OpenAI-style tiles.
VISION: VisionTable = (
    ModelRule("pixie-1*", AnthropicPatches(max_long_edge=512, max_tokens=400)),
    ModelRule("pixie-tiles*", OpenAITiles(base=10, tile=20)),
)
COSTS: RatesTable = (
    ModelRule("*", MediaRates("Pixie", pdf_per_page=100, not_accepted=frozenset({"audio"}))),
)

RULES = Rules(
    provider=NAME,
    image=ImageRules(media_types=("image/png", "image/jpeg"), max_count=3, source="made up"),
    audio=KindRules(source="made up: no audio"),
    video=KindRules(source="made up: no video"),
    file=FileRules(media_types=("application/pdf",), max_bytes=2**20, source="made up"),
    vision=VISION,
    costs=COSTS,
    vision_source="made up for this test",
    costs_source="made up for this test",
)


def render(messages: Sequence[mp.Message], prepare: Prepare) -> dict[str, Any]:
    """Render as `{"turns": [{"role", "blocks": [{"text"} | {"blob": {"mime", "b64"}}]}]}`."""
    turns = []
    for message in messages:
        blocks: list[dict[str, Any]] = []
        for part in message.parts:
            if isinstance(part, mp.MediaPart):
                ready = prepare(part)
                blocks.append({"blob": {"mime": ready.media_type, "b64": ready.base64}})
            elif isinstance(part, mp.TextPart):
                blocks.append({"text": part.text})
        turns.append({"role": message.role, "blocks": blocks})
    return {"turns": turns}


def media_site(node: dict[str, Any], at: Where, problems: Problems) -> Site | None:
    """Return the `blob` block that `node` is, if it is one."""
    blob = node.get("blob")
    if not isinstance(blob, dict):
        return None
    mime = blob.get("mime")
    kind: Kind = "image" if isinstance(mime, str) and mime.startswith("image/") else "file"
    where = f"{at}.blob.b64"
    return Site(where, kind, mime, data=payload_bytes(blob.get("b64"), where, problems))


@pytest.fixture
def pixie() -> Iterator[mp.Provider]:
    """Register the provider "pixie" on this module's wire; unregister it afterwards."""
    module = importlib.import_module(__name__)
    provider = mp.providers.register(NAME, wire=module, rules=RULES)
    try:
        yield provider
    finally:
        mp.providers.unregister(NAME)
    assert NAME not in mp.providers.names()


def test_registry_lists_and_gets_the_new_provider(pixie: mp.Provider) -> None:
    """A registered provider is in names() and get() returns it, with its own rules."""
    assert NAME in mp.providers.names()
    assert mp.providers.get(NAME) is pixie
    assert pixie.rules.vision == VISION and pixie.rules.costs == COSTS


def test_registry_normalize_fits_to_its_own_vision_table(
    pixie: mp.Provider, media: MediaFactory
) -> None:
    """normalize shrinks an image to the new provider's table (512 px) and prices it by it."""
    default = VISION[0].rule
    result = mp.normalize(media.image(2048, 1024), NAME)
    assert (result.width, result.height) == default.target_size(2048, 1024)
    assert result.width is not None and result.width <= 512
    assert result.tokens == default.tokens(2048, 1024)
    tiles = mp.normalize(media.image(2048, 1024), NAME, model="pixie-tiles-2")
    assert tiles.tokens == OpenAITiles(base=10, tile=20).tokens(2048, 1024)


def test_registry_normalize_refuses_what_it_does_not_take(
    pixie: mp.Provider, media: MediaFactory
) -> None:
    """Audio is refused with UnsupportedMediaType naming the provider."""
    with pytest.raises(mp.UnsupportedMediaType, match=NAME) as info:
        mp.normalize(media.audio(1.0), NAME)
    assert info.value.provider == NAME


def test_registry_render_and_check(pixie: mp.Provider, media: MediaFactory) -> None:
    """render goes through the module's renderer; check reads its blocks and finds it fits."""
    message = mp.User(["Compare", media.image(64, 48), media.pdf(pages=2)])
    payload = mp.render([message], NAME)
    blocks = payload["turns"][0]["blocks"]
    assert blocks[0] == {"text": "Compare"}
    assert [b["blob"]["mime"] for b in blocks[1:]] == ["image/png", "application/pdf"]
    assert mp.check(payload, NAME) == []
    mp.testing.assert_fits(payload, NAME)


def test_registry_check_reports_by_its_rules(pixie: mp.Provider, media: MediaFactory) -> None:
    """check applies the new provider's rules to its own block shape, with JSON paths."""
    payload = mp.render([mp.User([media.image(8, 8) for _ in range(4)])], NAME)
    payload["turns"][0]["blocks"][0]["blob"]["mime"] = "image/jpeg"
    rules = {(v.path, v.rule) for v in mp.check(payload, NAME)}
    assert ("$.turns[0].blocks[0].blob.b64", "image.media_type") in rules
    assert ("$.turns[0].blocks[3].blob.b64", "image.max_count") in rules


def test_registry_estimate_by_its_tables(pixie: mp.Provider, media: MediaFactory) -> None:
    """estimate_tokens prices images by the module's vision table and PDFs by its rate; text,
    with no table of the module's, by the generic approximation."""
    image = media.image(56, 28)
    assert mp.estimate_tokens(image, NAME) == 2
    assert mp.estimate_tokens(media.pdf(pages=3), NAME) == 300
    conversation = [mp.System("Be brief."), mp.User(["Look", image, media.pdf(pages=1)])]
    counted = mp.count_tokens(conversation, NAME)
    assert [(p.kind, p.tokens) for p in counted.parts] == [
        ("text", 3),  # "Be brief.": 9 characters at 4 a token
        ("text", 1),
        ("image", 2),
        ("file", 100),
    ]
    assert mp.estimate_tokens(conversation, NAME) == counted.total == 106


def test_registry_with_rules_changes_what_estimate_uses(
    pixie: mp.Provider, media: MediaFactory
) -> None:
    """A vision table given through with_rules is the one estimate_tokens and normalize use."""
    flat = pixie.with_rules(vision=(ModelRule("*", OpenAITiles(base=7, tile=0)),))
    assert mp.estimate_tokens(media.image(900, 900), flat) == 7
    assert mp.normalize(media.image(900, 900), flat).tokens == 7


class _NoSites:
    """A wire without `media_site`: check could not read its payloads."""

    __name__ = "no-sites"

    def render(self, messages: Sequence[mp.Message], prepare: Prepare) -> dict[str, Any]:
        return {}


@pytest.mark.parametrize(
    ("name", "kwargs", "message"),
    [
        ("nosites", {"wire": _NoSites(), "rules": RULES}, "media_site"),
        ("norules", {"wire": "openai", "rules": object()}, "rules must be"),
        ("nowire", {"rules": RULES}, "needs wire="),
        ("badwire", {"wire": "chat-completion", "rules": RULES}, "no wire is named"),
        ("shadow", {"wire": types.SimpleNamespace(__name__="openai"), "rules": RULES}, "built-in"),
        ("quirky", {"wire": "openai", "rules": RULES, "quirks": {"nope": 1}}, "reads no quirk"),
        ("halfbatch", {"wire": "openai", "rules": RULES, "batch_request": print}, "both"),
        ("", {"wire": "openai", "rules": RULES}, "non-empty string"),
    ],
)
def test_registry_refuses_what_breaks_the_protocol(
    name: str, kwargs: dict[str, Any], message: str
) -> None:
    """register checks the wire, the rules and the data, and names what is wrong."""
    with pytest.raises(mp.InvalidConfig, match=message):
        mp.providers.register(name, **kwargs)
    assert name not in mp.providers.names()


def test_registry_refuses_a_taken_name(pixie: mp.Provider) -> None:
    """A second provider under a registered name needs replace=True."""
    module = importlib.import_module(__name__)
    with pytest.raises(mp.InvalidConfig, match="already registered"):
        mp.providers.register(NAME, wire=module, rules=RULES)
    assert mp.providers.register(NAME, wire=module, rules=RULES, replace=True).rules is RULES


def test_registry_module_form_still_works_with_a_warning() -> None:
    """The old register(name, module) registers the module as its own wire, deprecated."""
    module = types.SimpleNamespace(RULES=RULES, render=render, media_site=media_site)
    with pytest.warns(DeprecationWarning, match="wire=..., rules="):
        provider = mp.providers.register(NAME, module)
    try:
        assert provider.wire == f"module:{NAME}"
        assert mp.render(mp.User("hi"), NAME) == {
            "turns": [{"role": "user", "blocks": [{"text": "hi"}]}]
        }
    finally:
        mp.providers.unregister(NAME)


@pytest.mark.parametrize("provider", mp.providers.names())
def test_registry_built_ins_are_records_on_the_five_wires(provider: str) -> None:
    """Every built-in provider is a record of its own name on a built-in wire."""
    record = mp.providers.get(provider)
    assert record.rules.provider == provider
    assert record.wire in mp.providers.wires.names()
    assert record.shape is mp.providers.wires.get(record.wire)


def test_registry_wires_are_named_by_shape_too() -> None:
    """Each wire answers to its first provider's name and to the name of its API shape."""
    shapes = ["chat-completions", "responses", "messages", "generate-content", "converse"]
    wires = ["openai", "openai-responses", "anthropic", "gemini", "bedrock"]
    assert [mp.providers.wires.canonical(s) for s in shapes] == wires
    assert [mp.providers.get(w).wire for w in wires] == wires


def test_registry_provider_on_an_existing_wire_is_one_call(media: MediaFactory) -> None:
    """A user's OpenAI-compatible endpoint with its own limit: one registration, then it is
    a provider like the built-ins, its rules renamed to it and its limit applied."""
    rules = mp.providers.get("openai").with_rules(image_max_bytes=20_000).rules
    provider = mp.providers.register("my-vllm", wire="chat-completions", rules=rules)
    try:
        assert (provider.wire, provider.rules.provider, provider.rules.store) == (
            "openai",
            "my-vllm",
            "my-vllm",
        )
        assert mp.providers.get("openai").rules.provider == "openai"  # left as it was
        payload = mp.render([mp.User(["Look", media.image(3000, 2000)])], "my-vllm")
        image = payload["messages"][0]["content"][1]["image_url"]["url"]
        assert image.startswith("data:image/")
        assert len(mp.normalize(media.image(3000, 2000), "my-vllm").data or b"") <= 20_000
        assert mp.check(payload, "my-vllm") == []
        assert mp.messages_from(payload, "my-vllm")[0].parts[0] == mp.TextPart("Look")
    finally:
        mp.providers.unregister("my-vllm")


@pytest.mark.parametrize(
    ("quirks", "model", "sent"),
    [
        ({}, None, False),  # a provider on the wire takes no breakpoints unless it says so
        ({"breakpoint_models": ("acme-2*",)}, "acme-2.1", True),
        ({"breakpoint_models": ("acme-2*",)}, "acme-1", False),
        ({"breakpoint_models": ("acme-2*",)}, None, True),
    ],
)
@pytest.mark.parametrize("wire", ["chat-completions", "responses"])
def test_registry_breakpoint_models_quirk_decides_cache_breakpoints(
    wire: str, quirks: dict[str, Any], model: str | None, sent: bool
) -> None:
    """Whether a cache breakpoint goes out is the provider's `breakpoint_models` quirk; one
    left out by a provider none of whose models takes one is reported lost."""
    rules = mp.providers.get("openai").rules
    mp.providers.register("acme", wire=wire, rules=rules, quirks=quirks)
    conversation = [mp.User([mp.TextPart("Long context", cache="5m")])]
    try:
        if quirks:
            payload = mp.render(conversation, "acme", model=model)
        else:
            with pytest.warns(mp.ConversionWarning, match="cache breakpoint: this API takes none"):
                payload = mp.render(conversation, "acme", model=model)
    finally:
        mp.providers.unregister("acme")
    assert ("prompt_cache_breakpoint" in json.dumps(payload)) is sent


@pytest.mark.parametrize("value", ["gpt-5*", [1, 2], 7])
@pytest.mark.parametrize(
    ("wire", "quirk"),
    [
        ("openai", "breakpoint_models"),
        ("openai-responses", "breakpoint_models"),
        ("openai", "file_urls"),
        ("gemini", "older_models"),
        ("gemini", "file_uris"),
        ("anthropic", "file_sources"),
        ("openai", "roles"),
        ("openai", "message_names"),
        ("openai", "refusals"),
        ("openai", "image_url_string"),
        ("openai", "audio_string"),
        ("openai", "document_url"),
    ],
)
def test_registry_refuses_a_malformed_quirk(wire: str, quirk: str, value: Any) -> None:
    """A quirk of the wrong form is refused when the provider is registered."""
    rules = mp.providers.get(wire).rules
    with pytest.raises(mp.InvalidConfig, match=quirk):
        mp.providers.register("acme", wire=wire, rules=rules, quirks={quirk: value})
    assert "acme" not in mp.providers.names()


@pytest.mark.parametrize("file_urls", [False, True])
def test_registry_file_urls_quirk_decides_whether_a_file_goes_by_url(file_urls: bool) -> None:
    """On Chat Completions, a PDF by URL goes in `file_data` only for a provider whose
    `file_urls` quirk says it fetches it (OpenRouter); it reads back as the URL part."""
    rules = mp.providers.get("openai").with_rules(file_url_types=("application/pdf",)).rules
    mp.providers.register("acme", wire="openai", rules=rules, quirks={"file_urls": file_urls})
    pdf = mp.FilePart.from_url("https://example.com/report.pdf")
    try:
        if not file_urls:
            with pytest.raises(mp.UnsupportedMediaType, match="no URL field"):
                mp.render([mp.User(["Read it.", pdf])], "acme", urls="pass")
            return
        payload = mp.render([mp.User(["Read it.", pdf])], "acme", urls="pass")
        assert payload["messages"][0]["content"][1]["file"] == {
            "filename": "report.pdf",
            "file_data": "https://example.com/report.pdf",
        }
        assert mp.messages_from(payload, "acme")[0].parts[1] == pdf
        assert mp.check(payload, "acme") == []
    finally:
        mp.providers.unregister("acme")


@pytest.mark.parametrize(
    ("quirks", "nested"),
    [({}, True), ({"older_models": ("gemini-2",)}, False), ({"older_models": ("other-",)}, True)],
)
def test_registry_older_models_quirk_decides_where_tool_media_goes(
    quirks: dict[str, Any], nested: bool
) -> None:
    """On the Gemini wire, media returned by a tool goes inside the function response for a
    current model, beside it for one the provider's `older_models` quirk names."""
    rules = mp.providers.get("gemini").rules
    mp.providers.register("acme", wire="generate-content", rules=rules, quirks=quirks)
    image = mp.ImagePart.from_bytes((TESTDATA / "alpha.png").read_bytes())
    conversation = [
        mp.User("Zoom in"),
        mp.Assistant([mp.ToolCall(id="c1", name="zoom", arguments="{}")]),
        mp.Tool(["Cropped:", image], tool_call_id="c1", name="zoom"),
    ]
    try:
        payload = mp.render(conversation, "acme", model="gemini-2.5-flash")
    finally:
        mp.providers.unregister("acme")
    parts = payload["contents"][-1]["parts"]
    inside = "parts" in parts[0]["functionResponse"]
    assert (inside, len(parts) == 1) == (nested, nested)


@pytest.mark.parametrize(
    "call",
    [
        lambda: mp.providers.get("no-such-provider"),
        lambda: mp.normalize(b"%PDF-1.4", "no-such-provider"),
        lambda: mp.render(mp.User("hi"), "no-such-provider"),
        lambda: mp.check({}, "no-such-provider"),
        lambda: mp.estimate_tokens(mp.User("hi"), "no-such-provider"),
        lambda: mp.providers.unregister("no-such-provider"),
    ],
)
def test_registry_unknown_name_is_unknown_provider(call: Any) -> None:
    """Every entry point raises UnknownProvider for a name nobody registered."""
    with pytest.raises(mp.UnknownProvider, match="no-such-provider") as info:
        call()
    assert info.value.known == mp.providers.names()


# An installed package's provider, as its entry point names it: a record on an existing wire.
ACME = mp.providers.Provider("acme", dataclasses.replace(RULES, provider="acme"), "openai")


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[importlib.metadata.EntryPoint]]:
    """Pretend installed packages name providers in the group (filled in by the test)."""
    entries: list[importlib.metadata.EntryPoint] = []
    monkeypatch.setattr(
        importlib.metadata,
        "entry_points",
        lambda group: [e for e in entries if group == "mediaparts.providers"],
    )
    monkeypatch.setattr(registry, "_plugins", [False])
    yield entries
    for entry in entries:
        if entry.name in mp.providers.names():
            mp.providers.unregister(entry.name)


def _entry(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name=name, value=value, group="mediaparts.providers")


def test_registry_installed_provider_works_in_the_cli_and_plugin(
    installed: list[importlib.metadata.EntryPoint],
    media: MediaFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A provider an installed package names in the entry-point group is known to names(),
    get(), the CLI's --provider and assert_fits, with no code of the user's."""
    installed.append(_entry("acme", f"{__name__}:ACME"))
    assert "acme" in mp.providers.names()
    assert mp.providers.get("acme") is ACME
    payload = mp.render([mp.User(["Look", media.image(64, 48)])], "acme")
    mediaparts.testing.assert_fits(payload, "acme")
    assert cli.main(["inspect", str(TESTDATA / "photo.jpg"), "--provider", "acme"]) == 0
    assert "acme" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "message"),
    [(f"{__name__}:RULES", "must give a mediaparts.providers.Provider"), ("no_such:X", "loaded")],
)
def test_registry_installed_provider_that_is_wrong_is_invalid_config(
    installed: list[importlib.metadata.EntryPoint], value: str, message: str
) -> None:
    """An entry point that cannot load, or is not a Provider of its name, is InvalidConfig."""
    installed.append(_entry("broken", value))
    with pytest.raises(mp.InvalidConfig, match=message):
        mp.providers.get("broken")


def test_registry_chunk_quirks_are_the_chat_wires_alone() -> None:
    """The Chat Completions chunk and message quirks are not the Responses wire's."""
    rules = mp.providers.get("openai-responses").rules
    for quirk in ("roles", "document_url", "audio_string"):
        with pytest.raises(mp.InvalidConfig, match="reads no quirk"):
            mp.providers.register("acme", wire="openai-responses", rules=rules, quirks={quirk: 1})


def test_registry_chat_quirks_shape_a_users_provider() -> None:
    """A user's provider on the Chat Completions wire with Mistral's quirks renders and reads
    as Mistral does: the quirks are the wire's, not Mistral's."""
    mistral = mp.providers.get("mistral")
    mp.providers.register(
        "acme", wire="openai", rules=mistral.rules, quirks=mistral.quirks, replace=True
    )
    try:
        document = mp.FilePart.from_url("https://media.example/report.pdf")
        conversation = [mp.User(["Read it.", document])]
        payload = mp.render(conversation, "acme", urls="pass")
        assert payload == mp.render(conversation, "mistral", urls="pass")
        assert payload["messages"][0]["content"][1]["type"] == "document_url"
        assert mp.render(mp.messages_from(payload, "acme"), "acme", urls="pass") == payload
    finally:
        mp.providers.unregister("acme")
