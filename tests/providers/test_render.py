"""Rendering: each provider's payload against golden JSON, its SDK's own types and its client."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

import mediaparts as mp
from mediaparts.providers import (
    FileRules,
    Rules,
    anthropic,
    bedrock,
    gemini,
    mistral,
    openai,
    openai_responses,
)
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._wire._rendering import Prepare
from tests._builders import KNOWN_MODELS, TESTDATA
from tests._golden import check_golden
from tests.providers._prepare import StandIn
from tests.providers._sdk import (
    SDK_MODULES,
    converse_shape,
    enum_errors,
    strict,
    validate_request,
    xai_messages,
)
from tests.providers._send_clients import (
    CHAT_REPLY,
    MESSAGE_REPLY,
    MISTRAL_REPLY,
    RESPONSES_REPLY,
)

if TYPE_CHECKING:
    import httpx
    import httpx2
    from pytest_httpx import HTTPXMock

MODULES = {
    "openai": openai,
    "openai-responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
    "bedrock": bedrock,
    "mistral": mistral,
}


# -- the seam: the lead's `normalize` replaces this one function ---------------------------------


def make_prepare(rules: Rules) -> Prepare:
    """Return a `prepare` that builds NormalizedParts straight from parts, as `rules` allow.

    It stands in for `mp.normalize` (no resizing, no fetching): a URL passes through when the
    rules list its type in `url_types` (like `urls="pass"`), text types become text, accepted
    types are sent as they are, and anything else raises `UnsupportedMediaType`.
    """

    def fit(part: mp.MediaPart) -> NormalizedPart:
        kind = rules.for_kind(part.kind)
        media_type = part.media_type or "application/octet-stream"
        fields: dict[str, Any] = {"kind": part.kind, "media_type": media_type, "part": part}
        fields["filename"] = part.filename
        if isinstance(part, mp.ImagePart):
            fields["detail"] = part.detail
        if part.is_url:
            if media_type not in kind.url_types:
                raise mp.UnsupportedMediaType(
                    f"{rules.provider} does not fetch {media_type} URLs", provider=rules.provider
                )
            return NormalizedPart(url=part.url, **fields)
        if isinstance(kind, FileRules) and media_type in kind.text_types:
            return NormalizedPart(text=part.data.decode("utf-8"), **fields)
        if not kind.accepts(media_type):
            raise mp.UnsupportedMediaType(
                f"{rules.provider} does not take {media_type}", provider=rules.provider
            )
        if isinstance(part, mp.ImagePart):
            fields.update(width=part.width, height=part.height)
        return NormalizedPart(data=part.data, **fields)

    return StandIn(rules, fit)


def render(provider: str, messages: list[mp.Message], **overrides: Any) -> dict[str, Any]:
    """Render through the real pipeline (mp.render: normalize, then the provider's renderer).

    `urls="pass"` keeps the tests offline: URLs pass through where the provider fetches them.
    An override `model=` renders for that model (its per-model rules, `Provider.for_model`).
    """
    model = overrides.get("model")
    rules = {k: v for k, v in overrides.items() if k != "model"}
    chosen = mp.providers.get(provider).with_rules(**rules)
    return mp.render(messages, chosen, urls="pass", model=model)


# -- the conversations --------------------------------------------------------------------------


def _file(name: str, cls: type[mp.MediaPart] = mp.FilePart, **fields: Any) -> Any:
    return cls.from_path(TESTDATA / name, **fields)


def _image(**fields: Any) -> mp.ImagePart:
    image: mp.ImagePart = _file("alpha.png", mp.ImagePart, **fields)
    return image


def _zoom(call_id: str = "call_1") -> mp.ToolCall:
    return mp.ToolCall(id=call_id, name="zoom", arguments='{"x": 128, "y": 96}')


CONVERSATIONS: dict[str, Callable[[], list[mp.Message]]] = {
    "system_text": lambda: [mp.System("You are terse."), mp.User("Hello")],
    "image": lambda: [mp.User(["What is in this picture?", _image(detail="high")])],
    "image_url": lambda: [
        mp.User(["Describe it.", mp.ImagePart.from_url("https://example.com/cat.png")])
    ],
    "image_s3": lambda: [
        mp.User(["Describe it.", mp.ImagePart.from_url("s3://my-bucket/images/cat.png")])
    ],
    # JPEG, WebP and GIF beside the PNG above, each already fitting (so its bytes are sent as
    # they are): the type names and format enums of every image type get validated too.
    "image_types": lambda: [
        mp.User(
            [
                "Compare them.",
                _file("upright.jpg", mp.ImagePart),
                _file("lossy.webp", mp.ImagePart),
                _file("still.gif", mp.ImagePart),
            ]
        )
    ],
    "pdf": lambda: [mp.User(["Summarise this.", _file("document.pdf")])],
    "pdf_url": lambda: [
        mp.User(["Summarise this.", mp.FilePart.from_url("https://example.com/report.pdf")])
    ],
    "text_file": lambda: [mp.User(["What is the total?", _file("data.csv")])],
    "json_file": lambda: [mp.User(["Which keys?", _file("data.json")])],
    "audio": lambda: [mp.User(["Transcribe this.", _file("tone.wav", mp.AudioPart)])],
    "video": lambda: [mp.User(["What happens?", _file("clip.mp4", mp.VideoPart)])],
    "documents": lambda: [
        mp.User(
            files=[
                _file("document.pdf", filename="Q3 report: FINAL!.pdf"),
                _file("document.pdf", filename="Q3 report: FINAL!.pdf"),
                _file("document.pdf", filename="???.pdf"),
            ]
        )
    ],
    "tool_image": lambda: [
        mp.System("You can zoom into images."),
        mp.User("Zoom into the circle.", files=[_image()]),
        mp.Assistant("Zooming in.", tool_calls=[_zoom()]),
        mp.Tool(["Cropped:", _image()], tool_call_id="call_1", name="zoom"),
        mp.User("What colour is it?"),
    ],
    "parallel_tools": lambda: [
        mp.User("Zoom in and look the colour up."),
        mp.Assistant(
            tool_calls=[
                _zoom("call_1"),
                mp.ToolCall(id="call_2", name="lookup", arguments={"colour": "yellow"}),
            ]
        ),
        mp.Tool([_image()], tool_call_id="call_1"),
        mp.Tool("Yellow is #FFFF00.", tool_call_id="call_2"),
    ],
    "tool_error": lambda: [
        mp.User("Zoom in."),
        mp.Assistant(tool_calls=[_zoom()]),
        mp.Tool(
            tool_call_id="call_1", name="zoom", error="x out of range", error_type="ValueError"
        ),
        mp.User("Try the middle."),
    ],
    "consecutive_users": lambda: [
        mp.User("First question."),
        mp.User(["Second, with a picture.", _image()]),
        mp.Assistant("One answer."),
        mp.Assistant("Another answer."),
        mp.User("Thanks."),
    ],
}

_COMMON = [
    "system_text",
    "image",
    "pdf",
    "text_file",
    "tool_image",
    "parallel_tools",
    "tool_error",
    "consecutive_users",
]
_URL_IMAGES = {"image_url_types": ("image/png",)}
# (provider, conversation, rule overrides) rendered to golden files.


def _takes(provider: str, conversation: str) -> bool:
    """Whether the provider takes what the conversation holds (a PDF is refused by those that
    take none, the §4 refusal the tests of normalize cover)."""
    files = mp.providers.get(provider).rules.file.media_types
    return conversation != "pdf" or "application/pdf" in files


CASES: list[tuple[str, str, dict[str, Any]]] = [
    *[(p, c, {}) for p in mp.providers.names() for c in _COMMON if _takes(p, c)],
    # Gemini takes no GIF (it would be converted): the others get all four image types (and
    # convert those they take none of).
    *[(p, "image_types", {}) for p in mp.providers.names() if p != "gemini"],
    ("openai", "image_url", {}),
    ("openai", "audio", {}),
    ("openai-responses", "image_url", {}),
    ("openai-responses", "pdf_url", {}),
    # The first-party API fetches image and PDF URL sources: they pass through as `url`.
    ("anthropic", "image_url", {}),
    ("anthropic", "pdf_url", {}),
    ("gemini", "image_url", {}),
    ("gemini", "pdf_url", {}),
    ("gemini", "audio", {}),
    ("gemini", "video", {}),
    ("bedrock", "image_s3", _URL_IMAGES),
    ("bedrock", "json_file", {}),
    ("bedrock", "audio", {}),
    ("bedrock", "video", {}),
    ("bedrock", "documents", {}),
    ("azure-openai", "image_url", {}),
    ("azure-openai", "audio", {}),  # a gpt-4o audio deployment's input_audio
    ("azure-openai-responses", "image_url", {}),
    ("openrouter", "image_url", {}),
    ("openrouter", "pdf_url", {}),  # file_data carries the URL (the file_urls quirk)
    ("openrouter", "audio", {}),
    ("vertex", "audio", {}),
    ("vertex", "video", {}),
    ("mistral", "image_url", {}),
    ("mistral", "pdf_url", {}),
    ("mistral", "audio", {"model": "voxtral-small-latest"}),  # only Voxtral models take audio
    ("mistral", "documents", {}),
    ("xai", "image_url", {}),  # xAI fetches JPEG and PNG URLs; DeepSeek any of its types
    ("xai-responses", "image_url", {}),
    ("xai-responses", "pdf_url", {}),  # its documents go by URL (input_file.file_url)
    ("deepseek", "image_url", {}),
]
IDS = [f"{p}-{c}" for p, c, _ in CASES]


@pytest.fixture(params=CASES, ids=IDS)
def case(request: pytest.FixtureRequest) -> tuple[str, str, dict[str, Any]]:
    """One (provider, conversation, rendered payload) from CASES."""
    provider, name, overrides = request.param
    return provider, name, render(provider, CONVERSATIONS[name](), **overrides)


def test_render_matches_golden(case: tuple[str, str, dict[str, Any]]) -> None:
    """The rendered payload, media summarised, equals tests/golden/<provider>/<case>.json."""
    provider, name, payload = case
    check_golden(f"{provider}/{name}", payload)


# -- the SDKs' own request types ----------------------------------------------------------------


def test_render_validates_with_sdk_types(case: tuple[str, str, dict[str, Any]]) -> None:
    """The payload is accepted, key for key, by the provider SDK's own request types."""
    provider, _, payload = case
    pytest.importorskip(SDK_MODULES[provider])
    validate_request(provider, payload)


_XAI = [(p, c, o) for p, c, o in CASES if p == "xai"]


@pytest.mark.parametrize(("provider", "name", "overrides"), _XAI, ids=[c for _, c, _ in _XAI])
def test_render_xai_payload_builds_xai_sdk_messages(
    provider: str, name: str, overrides: dict[str, Any]
) -> None:
    """xAI's payload (sent with the OpenAI SDK on api.x.ai) also builds xai-sdk's own gRPC
    messages, part for part: its content is what xAI's own SDK can say."""
    pytest.importorskip("xai_sdk")
    payload = render(provider, CONVERSATIONS[name](), **overrides)
    built = xai_messages(payload)
    assert len(built) == len(payload["messages"])
    for made, message in zip(built, payload["messages"], strict=True):
        content = message.get("content")
        expected = 1 if isinstance(content, str) else len(content or [])
        assert len(made.content) == expected
        assert len(made.tool_calls) == len(message.get("tool_calls", []))


def _blobs(value: Any) -> Iterator[bytes]:
    if isinstance(value, bytes):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _blobs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _blobs(item)


@pytest.mark.parametrize("provider", sorted(SDK_MODULES))
def test_render_empty_text_file_validates_with_sdk_types(provider: str) -> None:
    """A stored empty text file renders to a payload the SDK accepts (Converse's document
    bytes must hold one byte at least, so Bedrock gets it as text), and reads back as itself."""
    pytest.importorskip(SDK_MODULES[provider])
    empty = mp.FilePart(data=b"", media_type="text/plain", filename="notes.txt")
    payload = mp.render([mp.User(["see", empty])], provider)
    validate_request(provider, payload)
    assert b"" not in list(_blobs(payload))  # botocore leaves Converse's "min": 1 to the server
    read = mp.messages_from(payload, provider)
    assert mp.render(read, provider) == payload


def test_bedrock_enum_check_catches_a_wrong_format() -> None:
    """The enum walk refuses a format botocore does not list ("jpg" for "jpeg")."""
    pytest.importorskip("botocore")
    bad = {
        "messages": [
            {"role": "user", "content": [{"image": {"format": "jpg", "source": {"bytes": b"x"}}}]}
        ]
    }
    assert list(enum_errors(bad, converse_shape())) == [
        "$.messages[0].content[0].image.format: 'jpg' is not one of ['png', 'jpeg', 'gif', 'webp']"
    ]


def test_strict_check_catches_unknown_keys() -> None:
    """The TypedDict check refuses a misspelt key that plain pydantic validation would drop."""
    pytest.importorskip("openai")
    from openai.types.chat import ChatCompletionMessageParam

    bad = [{"role": "user", "content": [{"type": "text", "text": "hi", "txet": "typo"}]}]
    with pytest.raises(AssertionError):
        strict(list[ChatCompletionMessageParam], bad)


# -- the real clients, over a mock transport ----------------------------------------------------

# The replies the mock transports give, one per wire (the docs' send clients give the same).
_REPLIES: dict[str, dict[str, Any]] = {
    "openai": CHAT_REPLY,
    "openai-responses": RESPONSES_REPLY,
    "anthropic": MESSAGE_REPLY,
}


# The Messages API's providers and the client of each (the first-party API, Claude on Vertex
# AI, Claude on Bedrock), with a model id as the route spells it.
_CLAUDE_ROUTES = ("anthropic", "anthropic-vertex", "anthropic-bedrock")
_REPLIES["anthropic-vertex"] = _REPLIES["anthropic-bedrock"] = _REPLIES["anthropic"]


def _claude(provider: str, http: httpx2.Client) -> tuple[Any, str]:
    """The anthropic SDK's client for one of `_CLAUDE_ROUTES`, and a model id of the route."""
    import anthropic as anthropic_sdk

    if provider == "anthropic-vertex":
        vertex = anthropic_sdk.AnthropicVertex(
            region="us-east5", project_id="p", access_token="t", http_client=http, max_retries=0
        )
        return vertex, "claude-sonnet-4-5@20250929"
    if provider == "anthropic-bedrock":
        # A bearer key rather than AWS keys: the client signs those with boto3, not installed.
        bedrock_client = anthropic_sdk.AnthropicBedrock(
            aws_region="us-east-1", api_key="k", http_client=http, max_retries=0
        )
        return bedrock_client, "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    # A made-up model name: the SDK warns (an error here) for deprecated ones.
    return anthropic_sdk.Anthropic(
        api_key="x", http_client=http, max_retries=0
    ), "claude-test-model"


def _send(provider: str, payload: dict[str, Any], http: httpx2.Client | httpx.Client) -> str:
    """Send the payload with the provider's real client and return the reply's text."""
    if provider in _CLAUDE_ROUTES:
        import httpx2

        assert isinstance(http, httpx2.Client)  # anthropic 2.x takes only httpx2 clients
        claude, model = _claude(provider, http)
        message = claude.messages.create(model=model, max_tokens=64, **payload)
        block = message.content[0]
        assert block.type == "text"
        return str(block.text)  # Any: **payload leaves create()'s overloads undecided
    import openai as openai_sdk

    # openai checks at runtime for an httpx or an httpx2 client; its hints name httpx2 only.
    client = openai_sdk.OpenAI(
        api_key="x",
        base_url=BASE_URLS.get(provider),
        http_client=http,  # type: ignore[arg-type]
        max_retries=0,
    )
    if mp.providers.get(provider).wire == "openai":
        completion = client.chat.completions.create(model="gpt-4o", **payload)
        return completion.choices[0].message.content or ""
    return str(client.responses.create(model="gpt-4o", **payload).output_text)


# The built-in providers sent with the openai SDK on another base URL: the one their docs give
# (docs.x.ai, api-docs.deepseek.com, ollama's openai-compatibility page; read 2026-12).
BASE_URLS = {
    "xai": "https://api.x.ai/v1",
    "xai-responses": "https://api.x.ai/v1",
    "deepseek": "https://api.deepseek.com",
    "ollama": "http://localhost:11434/v1/",
}
_REPLIES.update({p: _REPLIES[mp.providers.get(p).wire] for p in BASE_URLS})
_SENT = [(p, c, o) for p, c, o in CASES if p in _REPLIES]


def _send_groq(payload: dict[str, Any], http: httpx.Client) -> str:
    """Send with groq's client (on httpx) and return the reply's text."""
    import groq

    client = groq.Groq(api_key="x", http_client=http, max_retries=0)
    completion = client.chat.completions.create(model=KNOWN_MODELS["groq"], **payload)
    return completion.choices[0].message.content or ""


def _send_mistral(payload: dict[str, Any], http: httpx.Client) -> str:
    """Send with mistralai's client (on httpx) and return the reply's text: the docs' one
    line, `Mistral(api_key=...).chat.complete(model=..., **payload)`."""
    from mistralai.client import Mistral

    # mistralai's `HttpClient` is a Protocol its hints spell narrower than httpx.Client.
    client = Mistral(api_key="x", client=http)  # type: ignore[arg-type]
    answer = client.chat.complete(model=KNOWN_MODELS["mistral"], **payload)
    message = answer.choices[0].message
    assert message is not None
    return str(message.content)


# Providers sent with an SDK of their own, on httpx: how, and the reply the mock gives.
_OWN_CLIENTS: dict[str, tuple[Callable[[dict[str, Any], httpx.Client], str], dict[str, Any]]] = {
    "groq": (_send_groq, _REPLIES["openai"]),
    "mistral": (_send_mistral, MISTRAL_REPLY),
}
_OWN_SENT = [(p, c, o) for p, c, o in CASES if p in _OWN_CLIENTS]


@pytest.mark.parametrize(
    ("provider", "name", "overrides"), _OWN_SENT, ids=[f"{p}-{c}" for p, c, _ in _OWN_SENT]
)
def test_render_goes_through_the_providers_own_sdk_client(
    provider: str, name: str, overrides: dict[str, Any]
) -> None:
    """A provider's own SDK client sends the payload unchanged (besides the model) to its
    endpoint, and parses the reply."""
    pytest.importorskip(SDK_MODULES[provider])
    import httpx

    payload = render(provider, CONVERSATIONS[name](), **overrides)
    bodies: list[dict[str, Any]] = []
    send, reply = _OWN_CLIENTS[provider]

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=reply)

    with httpx.Client(transport=httpx.MockTransport(handler)) as http:
        assert send(payload, http) == "ok"
    (body,) = bodies
    sent = {k: v for k, v in body.items() if k not in ("model", "stream")}  # mistralai: stream
    assert _without_sdk_defaults(sent) == json.loads(json.dumps(payload))


@pytest.mark.parametrize(
    ("provider", "name", "overrides"), _SENT, ids=[f"{p}-{c}" for p, c, _ in _SENT]
)
def test_render_goes_through_sdk_client(
    provider: str, name: str, overrides: dict[str, Any]
) -> None:
    """The SDK client sends the payload unchanged (besides model settings) and parses a reply."""
    pytest.importorskip(SDK_MODULES[provider])
    pytest.importorskip("httpx2")
    import httpx2

    payload = render(provider, CONVERSATIONS[name](), **overrides)
    bodies: list[dict[str, Any]] = []
    urls: list[str] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        bodies.append(json.loads(request.content))
        urls.append(str(request.url))
        return httpx2.Response(200, json=_REPLIES[provider])

    # The SDKs now ride on httpx2 (anthropic 2.x takes only httpx2 clients; openai takes both).
    with httpx2.Client(transport=httpx2.MockTransport(handler)) as http:
        assert _send(provider, payload, http) == "ok"
    (body,) = bodies
    # Vertex AI's and Bedrock's clients name the model in the URL and add `anthropic_version`.
    settings = {"model", "max_tokens", "anthropic_version"}
    assert {k: v for k, v in body.items() if k not in settings} == json.loads(json.dumps(payload))
    assert urls[0].endswith(_ENDPOINTS.get(provider, urls[0]))
    assert urls[0].startswith(BASE_URLS.get(provider, "https://"))


# Where the cloud routes' clients send a Messages request (Vertex AI's rawPredict, Bedrock's
# InvokeModel).
_ENDPOINTS = {
    "anthropic-vertex": "/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict",
    "anthropic-bedrock": "/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke",
}


def _without_sdk_defaults(body: dict[str, Any]) -> dict[str, Any]:
    """The body without the defaults mistralai's models write on their own: an assistant
    message's `"prefix": false` and a tool call's `"index": 0` (mistralai 3.7
    `AssistantMessage.prefix`, `ToolCall.index`)."""
    messages = []
    for message in body.get("messages", []):
        message = dict(message)
        if message.get("role") == "assistant" and message.get("prefix") is False:
            del message["prefix"]
        if message.get("tool_calls"):
            calls = [
                {k: v for k, v in c.items() if (k, v) != ("index", 0)}
                for c in message["tool_calls"]
            ]
            message["tool_calls"] = calls
        messages.append(message)
    return {**body, "messages": messages} if "messages" in body else body


_GEMINI_REPLY = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}
    ]
}
_GEMINI_SENT = [(p, c, o) for p, c, o in CASES if mp.providers.get(p).wire == "gemini"]


def _genai(provider: str, http: httpx.Client) -> Any:
    """google-genai's client for the Gemini API, or for Vertex AI (`vertex`) with a token."""
    from google import genai
    from google.genai import types

    options = types.HttpOptions(httpx_client=http)
    if provider == "vertex":
        from google.oauth2.credentials import Credentials

        return genai.Client(
            vertexai=True,
            project="p",
            location="us-central1",
            credentials=Credentials(token="t"),  # type: ignore[no-untyped-call]  # google-auth
            http_options=options,
        )
    return genai.Client(api_key="x", http_options=options)


@pytest.mark.parametrize(
    ("provider", "name", "overrides"), _GEMINI_SENT, ids=[f"{p}-{c}" for p, c, _ in _GEMINI_SENT]
)
def test_render_goes_through_google_genai_with_sdk_kwargs(
    provider: str, name: str, overrides: dict[str, Any]
) -> None:
    """google-genai's generate_content, given `mp.sdk_kwargs(payload)`, sends the conversation
    `render` wrote: the same contents and system instruction, part for part."""
    pytest.importorskip("google.genai")
    import httpx
    from google.genai import types

    payload = render(provider, CONVERSATIONS[name](), **overrides)
    before = json.dumps(payload, sort_keys=True)
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        host = "aiplatform.googleapis.com" if provider == "vertex" else "generativelanguage"
        assert host in str(request.url)
        return httpx.Response(200, json=_GEMINI_REPLY)

    with httpx.Client(transport=httpx.MockTransport(handler)) as http:
        client = _genai(provider, http)
        reply = client.models.generate_content(
            model="gemini-2.5-flash", **mp.sdk_kwargs(payload, provider)
        )
    assert reply.text == "ok"
    assert json.dumps(payload, sort_keys=True) == before  # the payload is left as it was
    (body,) = bodies

    def contents(value: Any) -> list[types.Content]:
        return [types.Content.model_validate_json(json.dumps(c)) for c in value]

    assert contents(body["contents"]) == contents(payload["contents"])
    system = payload.get("systemInstruction")
    sent = body.get("systemInstruction")
    assert (sent and types.Content.model_validate_json(json.dumps(sent))) == (
        system and types.Content.model_validate_json(json.dumps(system))
    )


@pytest.mark.parametrize(
    "provider",
    [
        "openai",
        "openai-responses",
        "anthropic",
        "bedrock",
        "anthropic-vertex",
        "anthropic-bedrock",
        "mistral",
    ],
)
def test_sdk_kwargs_is_the_payload_where_the_sdk_takes_the_body(provider: str) -> None:
    """For SDKs whose call takes the body as it is, the arguments are a copy of the payload."""
    payload = render(provider, CONVERSATIONS["system_text"]())
    kwargs = mp.sdk_kwargs(payload, provider)
    assert kwargs == payload
    assert kwargs is not payload


@pytest.mark.parametrize(
    ("payload", "error", "match"),
    [
        ({"contents": [], "temperature": 1}, mp.InvalidConfig, "temperature"),
        (
            {"contents": [], "systemInstruction": {}, "system_instruction": {}},
            mp.InvalidConfig,
            "twice",
        ),
        ({"contents": [], "generationConfig": []}, mp.InvalidMedia, "generationConfig"),
        ({"contents": 5}, mp.InvalidMedia, "contents"),
        (["contents"], mp.InvalidMedia, "payload"),
    ],
    ids=["unknown-key", "twice", "config-not-an-object", "contents-not-a-list", "not-a-dict"],
)
def test_sdk_kwargs_refuses_what_the_sdk_call_cannot_take(
    payload: Any, error: type[Exception], match: str
) -> None:
    """A body key with no place in the call, a field set twice or a malformed body is named."""
    with pytest.raises(error, match=match):
        mp.sdk_kwargs(payload, "gemini")


_OPENAI_SENT = [(p, c, o) for p, c, o in _SENT if p.startswith("openai")]


@pytest.mark.parametrize(
    ("provider", "name", "overrides"), _OPENAI_SENT, ids=[f"{p}-{c}" for p, c, _ in _OPENAI_SENT]
)
def test_render_goes_through_openai_over_pytest_httpx(
    httpx_mock: HTTPXMock, provider: str, name: str, overrides: dict[str, Any]
) -> None:
    """The openai client on an httpx client mocked by pytest-httpx sends the payload unchanged."""
    # openai also takes an httpx (1.x) client, which pytest-httpx mocks; anthropic 2.x takes
    # only httpx2 clients, which it does not, so Anthropic is sent over httpx2's MockTransport.
    pytest.importorskip("openai")
    import httpx

    payload = render(provider, CONVERSATIONS[name](), **overrides)
    httpx_mock.add_response(json=_REPLIES[provider])
    with httpx.Client() as http:
        assert _send(provider, payload, http) == "ok"
    request = httpx_mock.get_request()
    assert request is not None
    body = json.loads(request.content)
    assert {k: v for k, v in body.items() if k != "model"} == json.loads(json.dumps(payload))


# -- refusals and details -----------------------------------------------------------------------


def _accept(part: mp.MediaPart) -> NormalizedPart:
    if part.is_url:
        return NormalizedPart(kind=part.kind, media_type=part.media_type or "", url=part.url)
    return NormalizedPart(kind=part.kind, media_type=part.media_type or "", data=part.data)


def _passthrough(provider: str) -> StandIn:
    """A prepare that accepts anything, so that the renderer's own refusals show."""
    return StandIn(MODULES[provider].RULES, _accept)


@pytest.mark.parametrize(
    ("provider", "part"),
    [
        ("openai", lambda: _file("clip.mp4", mp.VideoPart)),
        ("openai", lambda: mp.AudioPart.from_url("https://example.com/a.wav")),
        ("openai", lambda: _file("tone.flac", mp.AudioPart)),
        ("openai", lambda: mp.FilePart.from_url("https://example.com/a.pdf")),
        ("openai-responses", lambda: _file("tone.wav", mp.AudioPart)),
        ("anthropic", lambda: _file("tone.wav", mp.AudioPart)),
        ("anthropic", lambda: _file("document.docx")),
        ("bedrock", lambda: mp.ImagePart.from_url("https://example.com/cat.png")),
        ("bedrock", lambda: _file("photo.heic", mp.ImagePart)),
    ],
    ids=[
        "openai-video",
        "openai-audio-url",
        "openai-flac",
        "openai-file-url",
        "responses-audio",
        "anthropic-audio",
        "anthropic-docx",
        "bedrock-http-url",
        "bedrock-heic",
    ],
)
def test_render_refuses_media_without_a_shape(provider: str, part: Callable[[], Any]) -> None:
    """Media the request shape cannot carry raises UnsupportedMediaType naming the provider."""
    with pytest.raises(mp.UnsupportedMediaType, match=provider) as info:
        MODULES[provider].PROVIDER.renderer([mp.User(["Look.", part()])], _passthrough(provider))
    assert info.value.provider == provider


@pytest.mark.parametrize(
    "provider", [p for p in mp.providers.names() if mp.providers.get(p).wire != "gemini"]
)
def test_render_reports_media_from_the_assistant_as_lost(provider: str) -> None:
    """Only generateContent takes media in the model's turn; the other wires leave it out
    through on_loss."""
    messages: list[mp.Message] = [mp.User("Draw."), mp.Assistant(["Here.", _image()])]
    with pytest.warns(mp.ConversionWarning, match="ImagePart in message 1 .*model's turn"):
        payload = mp.render(messages, provider)
    assert "Here." in json.dumps(payload)
    assert "image" not in json.dumps(payload)
    with pytest.raises(mp.ConversionError, match="not in the model's turn"):
        mp.render(messages, provider, on_loss="error")


def test_bedrock_refuses_audio_in_a_tool_result() -> None:
    """Converse tool results hold text, JSON, images, documents and video, not audio."""
    messages: list[mp.Message] = [
        mp.Assistant(tool_calls=[_zoom()]),
        mp.Tool([_file("tone.wav", mp.AudioPart)], tool_call_id="call_1"),
    ]
    with pytest.raises(mp.UnsupportedMediaType, match="tool result"):
        bedrock.PROVIDER.renderer(messages, _passthrough("bedrock"))


@pytest.mark.parametrize("provider", ["anthropic", "gemini", "bedrock"])
def test_render_refuses_non_object_arguments(provider: str) -> None:
    """APIs that take parsed tool arguments need a JSON object; a list raises InvalidMedia."""
    messages: list[mp.Message] = [
        mp.Assistant(tool_calls=[mp.ToolCall(id="c1", name="f", arguments="[1, 2]")])
    ]
    with pytest.raises(mp.InvalidMedia, match="JSON object"):
        MODULES[provider].PROVIDER.renderer(messages, _passthrough(provider))


def test_gemini_needs_the_tool_name() -> None:
    """A tool result with no name and no matching call cannot be a functionResponse."""
    with pytest.raises(mp.InvalidMedia, match="name"):
        gemini.PROVIDER.renderer([mp.Tool("42", tool_call_id="c9")], _passthrough("gemini"))


def test_gemini_finds_the_tool_name_from_the_call() -> None:
    """A nameless tool result takes the name of the call it answers."""
    payload = gemini.PROVIDER.renderer(
        [mp.Assistant(tool_calls=[_zoom()]), mp.Tool("done", tool_call_id="call_1")],
        _passthrough("gemini"),
    )
    response = payload["contents"][1]["parts"][0]["functionResponse"]
    assert response == {"id": "call_1", "name": "zoom", "response": {"output": "done"}}


@pytest.mark.parametrize(
    ("filenames", "names"),
    [
        (["Q3 report: FINAL!.pdf"], ["Q3 report FINAL"]),
        (["Résumé \u2013 2024.pdf"], ["Resume 2024"]),
        (["a\t\tb.pdf", "a b.pdf", "a b.pdf"], ["a b", "a b (2)", "a b (3)"]),
        (["???.pdf", None], ["Document 1", "Document 2"]),
        (["x" * 250 + ".pdf", "x" * 250 + ".pdf"], ["x" * 200, "x" * 196 + " (2)"]),
        (["dir/sub/[draft] (v2).pdf"], ["[draft] (v2)"]),
    ],
)
def test_bedrock_document_names(filenames: list[str | None], names: list[str]) -> None:
    """Document names keep only what Bedrock allows, fall back to `Document N` and are unique."""
    pdf = (TESTDATA / "document.pdf").read_bytes()
    parts = [mp.FilePart.from_bytes(pdf, filename=f) for f in filenames]
    payload = bedrock.PROVIDER.renderer(
        [mp.User(["Read these.", *parts])], make_prepare(bedrock.RULES)
    )
    blocks = payload["messages"][0]["content"]
    assert [b["document"]["name"] for b in blocks if "document" in b] == names


def test_openai_tool_media_follows_the_tool_run() -> None:
    """Tool messages stay together after the call; their media comes in one user message after."""
    payload = render("openai", CONVERSATIONS["parallel_tools"]())
    roles = [m["role"] for m in payload["messages"]]
    assert roles == ["user", "assistant", "tool", "tool", "user"]
    assert payload["messages"][-1]["content"][1]["type"] == "image_url"


def test_render_leaves_messages_unchanged() -> None:
    """Rendering (with merging) builds new data; the input messages compare equal afterwards."""
    messages = CONVERSATIONS["consecutive_users"]()
    before = [m.to_dict() for m in messages]
    for provider in MODULES:
        render(provider, messages)
    assert [m.to_dict() for m in messages] == before


# -- Azure OpenAI and OpenRouter: the openai SDK's clients for them, on a mock transport -----

_AZURE_SENT = [
    ("azure-openai", "system_text"),
    ("azure-openai", "image"),
    ("azure-openai", "audio"),
    ("azure-openai", "tool_image"),
    ("azure-openai-responses", "image"),
    ("azure-openai-responses", "pdf"),
    ("azure-openai-responses", "parallel_tools"),
]


@pytest.mark.parametrize(
    ("provider", "name"), _AZURE_SENT, ids=[f"{p}-{c}" for p, c in _AZURE_SENT]
)
def test_render_goes_through_azure_openai_to_the_deployment(provider: str, name: str) -> None:
    """openai.AzureOpenAI sends the payload unchanged to the deployment named as the model:
    Chat Completions in the URL's path, Responses in the body's `model`."""
    pytest.importorskip("openai")
    import httpx
    import openai as openai_sdk

    deployed = mp.providers.get(provider).with_deployments({"my-prod": "gpt-4o"})
    payload = mp.render(CONVERSATIONS[name](), deployed, model="my-prod", urls="pass")
    validate_request(deployed.wire, payload)
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json=_REPLIES[deployed.wire])

    # openai checks at runtime for an httpx or an httpx2 client; its hints name httpx2 only.
    client = openai_sdk.AzureOpenAI(  # type: ignore[call-overload]
        azure_endpoint="https://res.openai.azure.com",
        api_key="azure-key",
        api_version="2024-10-21",
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
        max_retries=0,
    )
    if deployed.wire == "openai":
        reply = client.chat.completions.create(model="my-prod", **payload)
        assert reply.choices[0].message.content == "ok"
    else:
        assert client.responses.create(model="my-prod", **payload).output_text == "ok"
    (request,) = sent
    body = json.loads(request.content)
    assert {k: v for k, v in body.items() if k != "model"} == json.loads(json.dumps(payload))
    if deployed.wire == "openai":
        assert request.url.path == "/openai/deployments/my-prod/chat/completions"
    else:
        assert request.url.path == "/openai/responses" and body["model"] == "my-prod"


_OPENROUTER_SENT = ["system_text", "image", "image_url", "pdf", "pdf_url", "audio", "tool_image"]


@pytest.mark.parametrize("name", _OPENROUTER_SENT)
def test_render_goes_through_openai_to_openrouter(name: str) -> None:
    """The openai client on OpenRouter's base URL (its documented setup) sends the payload
    unchanged; the payload passes the SDK's own request types, a PDF by URL included."""
    pytest.importorskip("openai")
    import httpx
    import openai as openai_sdk

    payload = render("openrouter", CONVERSATIONS[name]())
    validate_request("openai", payload)
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json=_REPLIES["openai"])

    client = openai_sdk.OpenAI(
        base_url="https://openrouter.ai/api/v1",
        api_key="sk-or-test",
        # openai checks at runtime for an httpx or an httpx2 client; its hints name httpx2.
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),  # type: ignore[arg-type]
        max_retries=0,
    )
    reply = client.chat.completions.create(model="openai/gpt-4o", **payload)
    assert reply.choices[0].message.content == "ok"
    (request,) = sent
    assert str(request.url) == "https://openrouter.ai/api/v1/chat/completions"
    body = json.loads(request.content)
    assert body.pop("model") == "openai/gpt-4o"
    assert body == json.loads(json.dumps(payload))


# -- what each route reads by reference ---------------------------------------------------------

_STORED = [
    (
        "anthropic-vertex",
        lambda: mp.FilePart(
            file_id="file_011", file_provider="anthropic-vertex", media_type="application/pdf"
        ),
        "Files API",
    ),
    (
        "anthropic-bedrock",
        lambda: mp.ImagePart(
            file_id="file_012", file_provider="anthropic-bedrock", media_type="image/png"
        ),
        "Files API",
    ),
    (
        "vertex",
        lambda: mp.FilePart(file_id="files/abc", file_provider="vertex", media_type="text/plain"),
        "gs://",
    ),
]


@pytest.mark.parametrize(
    ("provider", "part", "match"), _STORED, ids=["claude-vertex", "claude-bedrock", "vertex"]
)
def test_render_refuses_a_file_its_route_cannot_read(
    provider: str, part: Callable[[], Any], match: str
) -> None:
    """A file given by id that the route's API cannot read (a Files API id on Claude's cloud
    routes, a Gemini Files API id on Vertex AI) raises UnsupportedMediaType naming it."""
    with pytest.raises(mp.UnsupportedMediaType, match=match) as info:
        mp.render([mp.User(["Read it.", part()])], provider)
    assert info.value.provider == provider


def test_render_vertex_sends_a_cloud_storage_object_by_reference() -> None:
    """A Cloud Storage object given by reference is a `fileData` with its type, and reads back
    as the same reference."""
    stored = mp.FilePart(
        file_id="gs://bucket/q3.pdf", file_provider="vertex", media_type="application/pdf"
    )
    payload = mp.render([mp.User(["Summarise.", stored])], "vertex")
    part = {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://bucket/q3.pdf"}}
    assert payload["contents"][0]["parts"][1] == part
    assert mp.check(payload, "vertex") == []
    (read,) = mp.messages_from(payload, "vertex")
    assert read.parts[1] == stored


@pytest.mark.parametrize("provider", ["anthropic-vertex", "anthropic-bedrock"])
def test_render_claude_routes_inline_what_the_first_party_api_fetches(
    provider: str, media_urls: Any
) -> None:
    """An image URL that Anthropic's API would fetch is loaded and sent base64 on Claude's
    cloud routes, which take "only base64-encoded sources"."""
    media_urls.add("https://example.com/cat.png", TESTDATA / "alpha.png")
    messages = [mp.User(["Describe it.", mp.ImagePart.from_url("https://example.com/cat.png")])]
    assert mp.render(messages, "anthropic")["messages"][0]["content"][1]["source"]["type"] == "url"
    block = mp.render(messages, provider)["messages"][0]["content"][1]
    assert block["source"]["type"] == "base64" and block["source"]["media_type"] == "image/png"
