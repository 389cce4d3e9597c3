"""count_tokens: whole conversations counted part by part, each part labelled, never failing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import mediaparts as mp
from mediaparts.providers._budgets import _tokenizer
from mediaparts.providers._budgets._tokens import message_tokens, part_tokens
from mediaparts.testing import MediaFactory

PROVIDERS = ["openai", "openai-responses", "anthropic", "gemini", "bedrock"]

# (provider, model, kinds that must come out unknown and why: no documented rule, or refused).
UNKNOWN = [
    ("openai", "gpt-4o", {"file", "audio"}),  # no documented PDF or audio formula
    ("openai-responses", "gpt-5.6-sol", {"file", "audio", "reasoning"}),
    ("anthropic", "claude-sonnet-4-5", {"file", "audio"}),
    ("gemini", "gemini-2.5-flash", set()),
    ("bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", {"file", "audio"}),
]


def conversation(media: MediaFactory, turns: int = 50) -> list[mp.Message]:
    """A conversation of `turns` turns mixing text, images, PDFs, audio and tool loops."""
    messages: list[mp.Message] = [mp.System("You are a careful analyst. Answer briefly.")]
    image = media.image(800, 600)  # the same object in several turns: counted once
    for turn in range(turns):
        match turn % 5:
            case 0:
                messages.append(mp.User(f"Turn {turn}: what is in this picture?", files=[image]))
            case 1:
                messages.append(
                    mp.User(f"Turn {turn}: summarise the report.", files=[media.pdf(2)])
                )
            case 2:
                messages.append(mp.User(f"Turn {turn}: transcribe this.", files=[media.audio(2.0)]))
            case 3:
                messages.append(
                    mp.User(f"Turn {turn}: the data.", files=[media.text("a,b\n1,2\n")])
                )
            case _:
                messages.append(mp.User(f"Turn {turn}: look up the weather in Paris."))
                call = mp.ToolCall(id=f"call_{turn}", name="weather", arguments='{"city": "Paris"}')
                thinking = mp.ReasoningPart(text="The user wants the weather; call the tool.")
                messages.append(mp.Assistant([thinking, "Let me check.", call]))
                messages.append(
                    mp.Tool(["Sunny, 21 °C", media.image(64, 64)], tool_call_id=f"call_{turn}")
                )
        messages.append(mp.Assistant(f"Answer {turn}: done, as asked."))
    return messages


@pytest.mark.parametrize(("provider", "model", "unknown_kinds"), UNKNOWN)
def test_count_fifty_turns(
    media: MediaFactory, provider: str, model: str, unknown_kinds: set[str]
) -> None:
    """On 50 mixed turns: the breakdown sums to the total, every part is labelled and said how,
    and the unknown parts are listed, 0 tokens each, with their reason."""
    messages = conversation(media)
    counted = mp.count_tokens(messages, provider, model=model)
    assert len(counted.messages) == len(messages)
    assert counted.total == sum(p.tokens for p in counted.parts)
    assert counted.total == sum(m.tokens for m in counted.messages) + sum(
        p.tokens for p in counted.framing
    )
    assert mp.estimate_tokens(messages, provider, model=model) == counted.total
    for message, tokens in zip(messages, counted.messages, strict=True):
        assert tokens.role == message.role
        parts = [p for p in tokens.parts if p.index is not None]
        assert [p.index for p in parts] == list(range(len(message.parts)))
        assert [p.kind for p in parts] == [p.kind for p in message.parts]
    for part in counted.parts:
        assert part.method in ("exact", "approximate", "unknown")
        assert part.how and part.tokens >= 0
    assert counted.unknown == tuple(p for p in counted.parts if p.method == "unknown")
    assert all(p.tokens == 0 for p in counted.unknown)
    assert {p.kind for p in counted.unknown} <= unknown_kinds
    assert counted.method == ("unknown" if counted.unknown else "approximate")


def test_count_fifty_turns_decode_no_image(media: MediaFactory, no_decoding: None) -> None:
    """Counting reads media headers only: no image is decoded."""
    messages = conversation(media)
    for provider in PROVIDERS:
        assert mp.count_tokens(messages, provider).total > 0


def test_count_openai_text_is_the_tokenizers(media: MediaFactory) -> None:
    """Text counted by OpenAI's tokenizer is exactly the tokenizer's own count."""
    encoder = _tokenizer.encoder("o200k_base")
    if encoder is None:
        pytest.skip("the [tokens] extra (bpe-openai) is absent")
    messages = conversation(media)
    counted = mp.count_tokens(messages, "openai", model="gpt-4o")
    texts = [p for m in messages for p in m.parts if isinstance(p, mp.TextPart)]
    exact = [p for p in counted.parts if p.kind == "text" and p.method == "exact"]
    assert len(exact) == len(texts) > 50
    assert [p.tokens for p in exact] == [len(encoder.encode(p.text)) for p in texts]


def test_count_without_the_extra_approximates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without bpe-openai, OpenAI text is approximate, and `how` says what to install."""
    monkeypatch.setattr(_tokenizer, "encoder", lambda name: None)
    monkeypatch.setattr(_tokenizer, "PACKAGE", "mediaparts_no_such_package")
    text = mp.count_tokens(mp.User("Hello, world!"), "openai").messages[0].parts[0]
    assert (text.tokens, text.method) == (4, "approximate")  # 13 characters, 4 a token
    assert "mediaparts' [tokens] extra" in text.how


# Published examples: a request and the token count its page gives, our count of that exact
# request, and the error we state (docs/tokens.md). (provider, model, messages, published,
# ours, source read 2026-11.)
PUBLISHED = [
    (
        "openai",
        "gpt-4",
        "cookbook",
        129,
        129,
        "github.com/openai/openai-cookbook examples/How_to_count_tokens_with_tiktoken.ipynb "
        "(API count for gpt-4-0613)",
    ),
    (
        "openai",
        "gpt-4o",
        "cookbook",
        124,
        124,
        "same notebook, gpt-4o-2024-08-06",
    ),
    (
        "anthropic",
        "claude-opus-4-20250514",
        "scientist",
        14,
        10,
        "platform.claude.com/docs/en/build-with-claude/token-counting (2025 page, claude-opus-4)",
    ),
    (
        "anthropic",
        "claude-opus-4-8",
        "scientist",
        14,
        14,
        "platform.claude.com/docs/en/build-with-claude/token-counting (current page)",
    ),
    (
        "gemini",
        "gemini-1.5-flash",
        "fox",
        10,
        11,
        "ai.google.dev/api/tokens (count_tokens example, gemini-1.5-flash)",
    ),
]

_COOKBOOK: list[mp.Message] = [
    mp.System(
        "You are a helpful, pattern-following assistant that translates corporate jargon "
        "into plain English."
    ),
    mp.System("New synergies will help drive top-line growth.", name="example_user"),
    mp.System("Things working well together will increase revenue.", name="example_assistant"),
    mp.System(
        "Let's circle back when we have more bandwidth to touch base on opportunities for "
        "increased leverage.",
        name="example_user",
    ),
    mp.System(
        "Let's talk later when we're less busy about how to do better.", name="example_assistant"
    ),
    mp.User(
        "This late pivot means we don't have time to boil the ocean for the client deliverable."
    ),
]
REQUESTS: dict[str, list[mp.Message]] = {
    "cookbook": _COOKBOOK,
    "scientist": [mp.System("You are a scientist"), mp.User("Hello, Claude")],
    "fox": [mp.User("The quick brown fox jumps over the lazy dog.")],
}


@pytest.mark.parametrize(
    ("provider", "model", "request_", "published", "ours", "source"), PUBLISHED
)
def test_count_published_examples(
    provider: str, model: str, request_: str, published: int, ours: int, source: str
) -> None:
    """Each provider's published example: our count, and so its error, is the one we state."""
    if provider.startswith("openai") and _tokenizer.encoder("o200k_base") is None:
        pytest.skip("the [tokens] extra (bpe-openai) is absent")
    assert source
    counted = mp.count_tokens(REQUESTS[request_], provider, model=model)
    assert counted.total == ours
    assert abs(ours - published) / published <= 0.3


def test_count_without_the_extra_cookbook_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the extra, the cookbook's 124 tokens (gpt-4o) come out as 165: 33% over."""
    monkeypatch.setattr(_tokenizer, "encoder", lambda name: None)
    total = mp.count_tokens(_COOKBOOK, "openai", model="gpt-4o").total
    assert total == 165
    assert abs(total - 124) / 124 <= 0.34


@pytest.mark.parametrize("index", [0, 3, None])
def test_count_results_made_fast_are_the_dataclasses(index: int | None) -> None:
    """The count's quick constructors make the same frozen values as the classes' own."""
    made = part_tokens("text", 5, "exact", "o200k_base tokenizer", index)
    plain = mp.tokens.PartTokens("text", 5, "exact", "o200k_base tokenizer", index)
    assert (made, hash(made), repr(made)) == (plain, hash(plain), repr(plain))
    message = message_tokens(2, "user", (made,))
    same = mp.tokens.MessageTokens(2, "user", (plain,))
    assert (message, hash(message), repr(message)) == (same, hash(same), repr(same))
    for value, field in ((made, "tokens"), (message, "role")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, 1)


def test_count_framing_is_each_messages_own() -> None:
    """Messages framed alike share a count; each message's framing is what it has alone."""
    messages: list[mp.Message] = [
        mp.User("a", name="ann"),
        mp.User("b"),
        mp.User("c", name="bob"),
        mp.User("d", name="ann"),
        mp.Assistant("e"),
        mp.Tool(["ok"], tool_call_id="call_1"),
        mp.Tool(["ok"], tool_call_id="call_two_longer"),
        mp.Tool(["ok"], tool_call_id="call_1"),
    ]
    counted = mp.count_tokens(messages, "openai", model="gpt-4o")
    framed = [m.parts[-1] for m in counted.messages]
    alone = [mp.count_tokens([m], "openai", model="gpt-4o").messages[0].parts[-1] for m in messages]
    assert framed == alone
    assert len({p.tokens for p in framed}) > 2


def test_count_openai_framing_is_labelled() -> None:
    """OpenAI's framing: per message after its parts (index None), per request in `framing`."""
    counted = mp.count_tokens([mp.User("Hi", name="ann")], "openai", model="gpt-4o")
    text, framing = counted.messages[0].parts
    assert (text.kind, framing.kind, framing.index) == ("text", "framing", None)
    assert framing.method == "approximate" and "cookbook" in framing.how
    assert framing.tokens == 3 + 1 + 1 + 1  # per message, "user", "ann", per name
    assert [(p.kind, p.tokens) for p in counted.framing] == [("framing", 3)]
    assert not mp.count_tokens([mp.User("Hi")], "anthropic").framing


def test_count_anthropic_thinking_of_earlier_turns_is_free() -> None:
    """Anthropic's older models strip thinking of earlier turns (0, exact), the current tool
    loop's counts; Opus 4.5 and later keep it all."""
    thinking = mp.ReasoningPart(text="x" * 35, signature="sig", provider="anthropic")
    call = mp.ToolCall(id="t1", name="f", arguments="{}")
    messages = [
        mp.User("first"),
        mp.Assistant([thinking, call]),
        mp.Tool(["ok"], tool_call_id="t1"),
        mp.Assistant("done"),
        mp.User("second"),
        mp.Assistant([thinking, call]),
        mp.Tool(["ok"], tool_call_id="t1"),
    ]
    counted = mp.count_tokens(messages, "anthropic", model="claude-sonnet-4-5")
    earlier, current = counted.messages[1].parts[0], counted.messages[5].parts[0]
    assert (earlier.tokens, earlier.method) == (0, "exact")
    assert "previous turns" in earlier.how
    assert (current.tokens, current.method) == (10, "approximate")
    kept = mp.count_tokens(messages, "anthropic", model="claude-opus-4-5").messages[1].parts[0]
    assert (kept.tokens, kept.method) == (10, "approximate")  # Opus 4.5 and later keep it


# (provider, model, the reasoning part, tokens, method): what each API is sent back.
REASONING = [
    ("openai", None, mp.ReasoningPart(text="think twice", provider="openai"), 0, "exact"),
    ("gemini", None, mp.ReasoningPart(text="think twice", provider="gemini"), 3, "approximate"),
    ("gemini", None, mp.ReasoningPart(text="think twice"), 0, "exact"),  # nobody's: not sent
    (
        "anthropic",
        "claude-opus-4-7",
        mp.ReasoningPart(text="think twice", signature="sig", provider="anthropic"),
        5,
        "approximate",
    ),
    # Unsigned: render leaves it out, so it costs nothing.
    ("anthropic", None, mp.ReasoningPart(text="think twice", provider="anthropic"), 0, "exact"),
    (
        "openai-responses",
        "gpt-5.6-sol",
        mp.ReasoningPart(data="enc", provider="openai-responses", id="rs_1"),
        0,
        "unknown",
    ),
    # No rs_ id: render leaves it out.
    (
        "openai-responses",
        None,
        mp.ReasoningPart(data="enc", provider="openai-responses"),
        0,
        "exact",
    ),
]


@pytest.mark.parametrize(("provider", "model", "reasoning", "tokens", "method"), REASONING)
def test_count_reasoning_per_provider(
    provider: str, model: str | None, reasoning: mp.ReasoningPart, tokens: int, method: str
) -> None:
    """Replayed reasoning counts what render sends back: none to Chat Completions, text to
    Gemini and Anthropic (signed), unknown encrypted items to Responses; what render leaves
    out (unsigned, nobody's, no id) is 0, exactly."""
    counted = mp.count_tokens([mp.User("q"), mp.Assistant([reasoning])], provider, model=model)
    part = counted.messages[1].parts[0]
    assert (part.tokens, part.method) == (tokens, method)


def test_count_responses_reasoning_of_earlier_turns_is_free() -> None:
    """Before GPT-5.6, Responses drops earlier turns' reasoning from the context: 0, exact;
    the current turn's encrypted reasoning is unknown."""

    def rs(n: int) -> mp.ReasoningPart:
        return mp.ReasoningPart(data="enc", provider="openai-responses", id=f"rs_{n}")

    call = mp.ToolCall(id="c", name="f", arguments="{}")
    chat = [
        mp.User("a"),
        mp.Assistant([rs(1), mp.TextPart("x")]),
        mp.User("b"),
        mp.Assistant([rs(2), call]),
        mp.Tool("ok", tool_call_id="c"),
    ]
    methods = [
        p.method
        for p in mp.count_tokens(chat, "openai-responses", model="gpt-5").parts
        if p.kind == "reasoning"
    ]
    assert methods == ["exact", "unknown"]


def test_count_what_render_leaves_out_is_zero() -> None:
    """Another provider's reasoning and blocks, and another store's files, cost 0: not sent."""
    message = mp.Assistant(
        [
            mp.ReasoningPart(text="hmm", signature="s", provider="anthropic"),
            mp.ProviderPart(provider="anthropic", data={"type": "server_tool_use"}),
        ]
    )
    file = mp.part({"file_id": "file-abc", "provider": "openai", "media_type": "application/pdf"})
    counted = mp.count_tokens([message, mp.User(["see", file])], "gemini")
    left_out = [counted.messages[0].parts[0], counted.messages[0].parts[1]]
    left_out.append(counted.messages[1].parts[1])
    assert all((p.tokens, p.method) == (0, "exact") for p in left_out)
    assert all(p.how.startswith("not sent to gemini") for p in left_out)


def test_count_own_file_reference_is_unknown() -> None:
    """A file in the provider's own store: its bytes are not here, so unknown with the reason."""
    file = mp.part({"file_id": "file-abc", "provider": "openai", "media_type": "application/pdf"})
    counted = mp.count_tokens([mp.User(["see", file])], "openai")
    assert [p.kind for p in counted.unknown] == ["file"]
    assert "file-abc" in counted.unknown[0].how
    with pytest.raises(mp.NoDocumentedRule):
        mp.estimate_tokens(file, "openai")


def test_count_provider_part_is_its_json() -> None:
    """A provider's own block is counted as its JSON text, approximately."""
    block = mp.ProviderPart(provider="anthropic", data={"type": "web_search", "query": "x" * 10})
    part = mp.count_tokens([mp.Assistant([block])], "anthropic").messages[0].parts[0]
    assert part.method == "approximate" and part.tokens > 0


def test_count_one_part_alone_raises_its_reason(testdata: Path) -> None:
    """One media part alone with unknown tokens raises the reason; in a conversation it is
    listed in `unknown` and adds 0."""
    with pytest.raises(mp.NoDocumentedRule):
        mp.estimate_tokens(testdata / "document.pdf", "openai")
    alone = mp.count_tokens(testdata / "document.pdf", "openai")
    assert alone.total == 0 and len(alone.unknown) == 1 and not alone.framing
    conversation = [mp.User("read", files=[testdata / "document.pdf"])]
    assert mp.estimate_tokens(conversation, "openai") > 0


@pytest.mark.parametrize(
    ("provider", "model", "per_page"),
    [
        ("anthropic", None, 3000),  # the top of the pdf-support page's 1,500-3,000 a page
        ("anthropic", "claude-opus-4-7", 3000),
        ("bedrock", None, 334),  # Bedrock's Claude guide: 3 pages ~ 1,000 (text-only)
        ("bedrock", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", 334),
        ("bedrock", "amazon.nova-pro-v1:0", None),  # nothing documented: unknown
    ],
)
def test_count_pdf_by_a_documented_approximation(
    testdata: Path, provider: str, model: str | None, per_page: int | None
) -> None:
    """A PDF without an exact rule is counted by the provider's documented per-page
    approximation where it has one (labelled approximate, naming it), else it is unknown."""
    pdf = mp.part(testdata / "document.pdf")
    counted = mp.count_tokens([mp.User(["read", pdf])], provider, model=model)
    file = counted.messages[0].parts[1]
    if per_page is None:
        assert (file.method, file.tokens) == ("unknown", 0)
        return
    assert (file.method, file.tokens) == ("approximate", 2 * per_page)  # document.pdf: 2 pages
    assert file.how.startswith("2 pages x about")
    assert mp.estimate_tokens(pdf, provider, model=model) == 2 * per_page


@pytest.mark.parametrize("name", ["data.csv", "page.html", "readme.md"])
def test_count_text_document_as_its_text(testdata: Path, name: str) -> None:
    """A text file a provider takes as a document (Bedrock) is counted as its text,
    approximately: the model reads the document's text."""
    file = mp.part(testdata / name)
    counted = mp.count_tokens([mp.User([file])], "bedrock")
    part = counted.messages[0].parts[0]
    assert part.method == "approximate" and part.tokens > 0
    assert part.how.startswith("a text document, counted as its text")


def test_count_refuses_a_detail_the_provider_lacks() -> None:
    """A detail level passed for the call is an argument: a wrong one is refused up front."""
    with pytest.raises(mp.InvalidMedia, match="detail"):
        mp.count_tokens([mp.User("hi")], "openai", detail="ultra")


def test_count_unknown_model_text_is_approximate() -> None:
    """Text of a model no row names is counted by the default row, labelled approximate."""
    part = mp.count_tokens(mp.User("hello"), "openai", model="made-up-9").messages[0].parts[0]
    assert part.method == "approximate"
    assert "'made-up-9' not in openai's text table" in part.how


def test_count_text_rules_override() -> None:
    """`with_rules(text=...)` changes how text is counted."""
    rule = mp.providers.TextRule(chars_per_token=1.0, approximation="one character a token")
    flat = mp.providers.get("anthropic").with_rules(text=(mp.providers.ModelRule("*", rule),))
    part = mp.count_tokens(mp.User("hello"), flat).messages[0].parts[0]
    assert (part.tokens, part.how) == (5, "one character a token")
    half = dataclasses.replace(rule, chars_per_token=2.0)
    halved = flat.with_rules(text=[mp.providers.ModelRule("*", half)])
    assert mp.estimate_tokens(mp.User("hello"), halved) == 3


def test_count_encoding_the_package_lacks() -> None:
    """An encoding bpe-openai does not ship falls back to the approximation, saying so."""
    rule = mp.providers.TextRule(encoding="no_such_encoding", approximation="4 a token")
    provider = mp.providers.get("openai").with_rules(text=[mp.providers.ModelRule("*", rule)])
    part = mp.count_tokens(mp.User("hello"), provider).messages[0].parts[0]
    assert part.method == "approximate"
    if _tokenizer.encoder("o200k_base") is not None:
        assert part.how == "4 a token; bpe-openai has no encoding 'no_such_encoding'"
    else:
        assert "mediaparts' [tokens] extra" in part.how


def test_count_tokenizer_absent_loads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the package, the loader answers None (and the count approximates)."""
    monkeypatch.setattr(_tokenizer, "PACKAGE", "mediaparts_no_such_package")
    assert _tokenizer.encoder.__wrapped__("o200k_base") is None
    assert "mediaparts' [tokens] extra" in _tokenizer.missing("o200k_base")


def test_count_refusal_and_redacted_reasoning() -> None:
    """A refusal is text; redacted thinking (data, no text) is unknown: its size is not known."""
    redacted = mp.ReasoningPart(data="opaque", provider="anthropic")
    message = mp.Assistant([redacted, mp.RefusalPart(text="I can't help with that.")])
    counted = mp.count_tokens([mp.User("q"), message], "anthropic", model="claude-sonnet-4-5")
    thinking, refusal = counted.messages[1].parts
    assert (thinking.method, thinking.tokens) == ("unknown", 0)
    assert (refusal.kind, refusal.tokens, refusal.method) == ("refusal", 7, "approximate")
    assert counted.messages[1].method == "unknown" and counted.messages[0].method == "approximate"


def test_count_same_media_object_keeps_each_index(media: MediaFactory) -> None:
    """One media object at two places is counted once, reported at each place's index."""
    image = media.image(100, 100)
    counted = mp.count_tokens([mp.User([image]), mp.User(["see", image])], "anthropic")
    first, second = counted.messages[0].parts[0], counted.messages[1].parts[1]
    assert (first.index, second.index) == (0, 1)
    assert first.tokens == second.tokens == 16


@pytest.mark.parametrize("provider", PROVIDERS)
def test_count_tool_error_line(provider: str) -> None:
    """A tool result's error, sent as a line of text, is counted after its parts."""
    result = mp.Tool(
        ["partial output"], tool_call_id="c1", error="took too long", error_type="Timeout"
    )
    counted = mp.count_tokens([result], provider)
    error = [p for p in counted.messages[0].parts if p.kind == "error"]
    assert len(error) == 1 and error[0].tokens > 0 and error[0].index is None
    assert error[0].how.startswith("the tool's error line")


def test_count_provider_block_with_bytes_is_unknown() -> None:
    """A provider block holding raw bytes (Bedrock's pcm audio, read back) is unknown, never a
    failure of the whole count."""
    payload = {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"text": "transcribe"},
                    {"audio": {"format": "pcm", "source": {"bytes": b"\x00\x01" * 100}}},
                ],
            }
        ]
    }
    counted = mp.count_tokens(mp.messages_from(payload, "bedrock"), "bedrock")
    assert [(p.kind, p.method) for p in counted.unknown] == [("provider", "unknown")]
    assert counted.total > 0


def test_count_encrypted_reasoning_from_its_reported_usage() -> None:
    """Encrypted reasoning whose size is unknown is priced from the reasoning tokens its
    response reported, when the message carries them (approximate); without usage it stays
    unknown."""
    item = mp.ReasoningPart(data="enc", provider="openai-responses", id="rs_1")
    call = mp.ToolCall(id="c", name="f", arguments="{}")
    usage = mp.Usage(input_tokens=10, output_tokens=500, reasoning_tokens=420)
    with_usage = [
        mp.User("q"),
        mp.Assistant([item, call], usage=usage),
        mp.Tool("ok", tool_call_id="c"),
    ]
    part = mp.count_tokens(with_usage, "openai-responses", model="gpt-5").messages[1].parts[0]
    assert (part.tokens, part.method) == (420, "approximate")
    assert "usage.reasoning_tokens" in part.how
    without = [mp.User("q"), mp.Assistant([item, call]), mp.Tool("ok", tool_call_id="c")]
    part = mp.count_tokens(without, "openai-responses", model="gpt-5").messages[1].parts[0]
    assert (part.tokens, part.method) == (0, "unknown")
    trimmed = mp.trim(with_usage, "openai-responses", max_tokens=10_000, model="gpt-5")
    assert trimmed == with_usage  # nothing unknown left: the default unknown="error" is met


_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">'
    b'<rect width="64" height="64" fill="red"/></svg>'
)
_SVG_B64 = __import__("base64").b64encode(_SVG).decode()

# An SVG as each provider's payload carries it: the part count_tokens must price or call unknown.
SVG_PAYLOADS = [
    ("gemini", {"contents": [{"role": "user", "parts": [
        {"text": "Describe this."},
        {"inlineData": {"mimeType": "image/svg+xml", "data": _SVG_B64}},
    ]}]}),
    ("openai", {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "Describe this."},
        {"type": "file", "file": {
            "filename": "a.svg", "file_data": f"data:image/svg+xml;base64,{_SVG_B64}"}},
    ]}]}),
    ("anthropic", {"messages": [{"role": "user", "content": [
        {"type": "text", "text": "Describe this."},
        {"type": "document", "source": {
            "type": "base64", "media_type": "image/svg+xml", "data": _SVG_B64}},
    ]}]}),
]  # fmt: skip


@pytest.mark.parametrize(("source", "payload"), SVG_PAYLOADS, ids=[s for s, _ in SVG_PAYLOADS])
@pytest.mark.parametrize(
    "error", [MemoryError(), RuntimeError("rasteriser crashed")], ids=["memory", "crash"]
)
def test_count_tokens_unpriced_svg_is_unknown_never_zero(
    monkeypatch: pytest.MonkeyPatch, source: str, payload: dict[str, object], error: Exception
) -> None:
    """An SVG from a provider payload whose conversion fails in a way nobody foresaw is
    unknown with the reason, on every provider, never 0 tokens counted as known."""
    namespace: dict[str, object] = {"error": error}
    exec(compile("def boom(*a, **k):\n    raise error\n", mp.__file__, "exec"), namespace)
    monkeypatch.setattr("mediaparts.providers._fitting._normalize._prepare", namespace["boom"])
    messages = mp.messages_from(payload, source)
    for provider in PROVIDERS:
        counted = mp.count_tokens(messages, provider)
        (media,) = [
            p for m in counted.messages for p in m.parts if p.kind not in {"text", "framing"}
        ]
        assert (media.tokens, media.method) == (0, "unknown"), provider
        assert ("ran out of memory" if isinstance(error, MemoryError) else "crashed") in media.how
        assert counted.total > 0 and counted.method == "unknown"
