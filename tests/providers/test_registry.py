"""Adding a provider is one module and one registry line: this module is a throw-away provider.

The module-level `RULES`, `render` and `media_site` below are everything "pixie" is: a made-up
API that takes PNG and JPEG images and PDFs, with its own vision table and PDF rate. The
`pixie` fixture registers this very module (`mp.providers.register("pixie", module)`) and
removes it afterwards; the tests then normalize, render, check and estimate through the
public API, as users would.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.formats import Kind
from mediaparts.providers import (
    AnthropicPatches,
    CostsTable,
    FileRules,
    ImageRules,
    KindRules,
    MediaCosts,
    ModelRule,
    OpenAITiles,
    Prepare,
    Problems,
    Rules,
    Site,
    VisionTable,
    Where,
    payload_bytes,
)
from mediaparts.testing import MediaFactory

NAME = "pixie"

# The made-up API's model tables: the first row (the default, model=None) prices 28-px patches
# with a 512-px long edge (so fitting shrinks large images to 512); "pixie-tiles*" models price
# OpenAI-style tiles.
VISION: VisionTable = (
    ModelRule("pixie-1*", AnthropicPatches(max_long_edge=512, max_tokens=400)),
    ModelRule("pixie-tiles*", OpenAITiles(base=10, tile=20)),
)
COSTS: CostsTable = (
    ModelRule("*", MediaCosts("Pixie", pdf_per_page=100, not_accepted=frozenset({"audio"}))),
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
    """Register this module as the provider "pixie"; unregister it afterwards."""
    module = importlib.import_module(__name__)
    provider = mp.providers.register(NAME, module)
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
    """A provider object without `media_site`: check could not read its payloads."""

    RULES = RULES

    def render(self, messages: Sequence[mp.Message], prepare: Prepare) -> dict[str, Any]:
        return {}


@pytest.mark.parametrize(
    ("name", "module", "message"),
    [
        ("nosites", _NoSites(), "media_site"),
        ("norules", object(), "RULES"),
        (NAME + "-other", importlib.import_module(__name__), "must be the same name"),
        ("", importlib.import_module(__name__), "non-empty string"),
    ],
)
def test_registry_refuses_what_breaks_the_protocol(name: str, module: Any, message: str) -> None:
    """register checks ProviderModule and names what is missing or wrong (InvalidConfig)."""
    with pytest.raises(mp.InvalidConfig, match=message):
        mp.providers.register(name, module)
    assert name not in mp.providers.names()


def test_registry_refuses_a_taken_name(pixie: mp.Provider) -> None:
    """A second provider under a registered name needs replace=True."""
    module = importlib.import_module(__name__)
    with pytest.raises(mp.InvalidConfig, match="already registered"):
        mp.providers.register(NAME, module)
    assert mp.providers.register(NAME, module, replace=True).rules is RULES


@pytest.mark.parametrize("provider", mp.providers.names())
def test_registry_built_ins_meet_the_protocol(provider: str) -> None:
    """Every built-in provider module is registered under its RULES.provider name."""
    assert mp.providers.get(provider).rules.provider == provider


@pytest.mark.parametrize(
    "call",
    [
        lambda: mp.providers.get("mistral"),
        lambda: mp.normalize(b"%PDF-1.4", "mistral"),
        lambda: mp.render(mp.User("hi"), "mistral"),
        lambda: mp.check({}, "mistral"),
        lambda: mp.estimate_tokens(mp.User("hi"), "mistral"),
        lambda: mp.providers.unregister("mistral"),
    ],
)
def test_registry_unknown_name_is_unknown_provider(call: Any) -> None:
    """Every entry point raises UnknownProvider for a name nobody registered."""
    with pytest.raises(mp.UnknownProvider, match="mistral") as info:
        call()
    assert info.value.known == mp.providers.names()
