"""check: rendered payloads validated offline, violations named with JSON paths."""

from __future__ import annotations

import base64
import copy
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp

PROVIDERS = mp.providers.names()
# The rules of a conversation's structure, which fragments of payloads break by design.
_STRUCTURE = ("request.", "message.", "conversation.", "tool.", "text.")


def _media_rules(violations: list[mp.Violation]) -> list[str]:
    """The rules of the violations, leaving out those of the conversation's structure."""
    return [v.rule for v in violations if not v.rule.startswith(_STRUCTURE)]


def _message(testdata: Path, provider: str = "openai") -> list[mp.Message]:
    """Two images and, for a provider that takes PDFs, a PDF."""
    files = [testdata / "photo.jpg", testdata / "alpha.png"]
    if "application/pdf" in mp.providers.get(provider).rules.file.media_types:
        files.append(testdata / "document.pdf")
    return [mp.System("Be brief."), mp.User("What is in these?", files=files)]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_check_rendered_payload_is_clean(testdata: Path, provider: str) -> None:
    """What render produces passes check for the same provider."""
    payload = mp.render(_message(testdata, provider), provider)
    assert mp.check(payload, provider) == []


def _anthropic_images(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        b
        for m in payload["messages"]
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "image"
    ]


def test_check_flags_wrong_declared_type(testdata: Path) -> None:
    """An image whose block claims image/tiff for Anthropic is flagged, with its path."""
    payload = mp.render(_message(testdata), "anthropic")
    tampered = copy.deepcopy(payload)
    _anthropic_images(tampered)[0]["source"]["media_type"] = "image/tiff"
    violations = mp.check(tampered, "anthropic")
    rules = {v.rule for v in violations}
    assert "image.media_type" in rules
    assert all(
        v.path.startswith("$.messages[") and v.path.endswith(".source.data") for v in violations
    )
    assert any("image/tiff" in v.message for v in violations)


def test_check_flags_real_tiff_bytes(testdata: Path) -> None:
    """TIFF bytes honestly labelled are still refused for Anthropic."""
    payload = mp.render(_message(testdata), "anthropic")
    tampered = copy.deepcopy(payload)
    image = _anthropic_images(tampered)[0]["source"]
    image["media_type"] = "image/tiff"
    image["data"] = base64.b64encode((testdata / "image.tiff").read_bytes()).decode()
    assert [v.rule for v in mp.check(tampered, "anthropic")] == ["image.media_type"]


def test_check_flags_oversized_image(testdata: Path) -> None:
    """An image over the provider's byte limit (as it measures bytes) is flagged."""
    payload = mp.render(_message(testdata), "anthropic")
    strict = mp.providers.get("anthropic").with_rules(image_max_bytes=1000)
    rules = [v.rule for v in mp.check(payload, strict)]
    assert rules.count("image.max_bytes") == 2


def test_check_counts_per_request(testdata: Path) -> None:
    """More images than allowed in one request is flagged once, at the first one over."""
    payload = mp.render(_message(testdata), "anthropic")
    strict = mp.providers.get("anthropic").with_rules(image_max_count=1)
    violations = [v for v in mp.check(payload, strict) if v.rule == "image.max_count"]
    assert len(violations) == 1


def test_check_counts_bedrock_per_message(testdata: Path) -> None:
    """Bedrock's image limit holds per message: two messages of 15 images each are fine."""
    images = [mp.part(testdata / "upright.jpg") for _ in range(15)]
    turns = [mp.User(["a", *images]), mp.Assistant("ok"), mp.User(["b", *images])]
    payload = mp.render(turns, "bedrock")
    assert mp.check(payload, "bedrock") == []
    crowded = mp.render(mp.User(["a", *images, *images]), "bedrock")
    assert [v.rule for v in mp.check(crowded, "bedrock")] == ["image.max_count"]


def test_check_flags_animation_for_stills_only(testdata: Path) -> None:
    """An animated GIF in an OpenAI payload is flagged: OpenAI takes still GIFs only."""
    gif = mp.part(testdata / "animated.gif").to_data_uri()
    payload = {
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": gif}}]}
        ]
    }
    assert [v.rule for v in mp.check(payload, "openai")] == ["image.animated"]


@pytest.mark.parametrize(
    ("payload", "rule"),
    [
        (None, "payload.shape"),
        ([1, 2], "message.shape"),  # a message list whose items are no messages
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": 123,
                                    "data": "iVBORw0KGgo=",
                                },
                            }
                        ],
                    }
                ]
            },
            "image.media_type",
        ),
        (
            {
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "image",
                                "source": {
                                    "type": "base64",
                                    "media_type": "image/png",
                                    "data": None,
                                },
                            }
                        ],
                    }
                ]
            },
            "payload.data",
        ),
    ],
)
def test_check_reports_malformed_payloads(payload: Any, rule: str) -> None:
    """Malformed payloads give violations, not exceptions or a clean bill."""
    assert rule in [v.rule for v in mp.check(payload, "anthropic")]


def _nested(depth: int, leaf: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"x": leaf}
    for _ in range(depth):
        node = {"x": [node]}
    return {"messages": [node]}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_check_deeply_nested_payload(provider: str) -> None:
    """A payload nested deeper than Python's recursion limit is reported, not a RecursionError."""
    violations = mp.check(_nested(5000, "text"), provider)
    assert _media_rules(violations) == ["payload.shape"]
    assert [v.path for v in violations if v.rule == "payload.shape"] == ["$"]


def test_check_finds_deeply_nested_media(testdata: Path) -> None:
    """Media under hundreds of levels of nesting is still found and checked."""
    tiff = base64.b64encode((testdata / "image.tiff").read_bytes()).decode()
    block = {"type": "image_url", "image_url": {"url": f"data:image/tiff;base64,{tiff}"}}
    violations = mp.check(_nested(300, block), "openai")
    assert _media_rules(violations) == ["image.media_type"]
    assert violations[0].path.endswith(".x.image_url.url")


def test_check_bedrock_text_documents(testdata: Path) -> None:
    """Text-source Bedrock documents are counted and their names checked too."""
    doc = {"document": {"format": "txt", "name": "a  b!!", "source": {"text": "hello"}}}
    payload = {"messages": [{"role": "user", "content": [{"text": "read"}, doc]}]}
    assert [v.rule for v in mp.check(payload, "bedrock")] == ["file.name"]
    many = {
        "messages": [
            {
                "role": "user",
                "content": [{"text": "read"}]
                + [
                    {"document": {"format": "txt", "name": f"d{i}", "source": {"text": "x"}}}
                    for i in range(6)
                ],
            }
        ]
    }
    assert [v.rule for v in mp.check(many, "bedrock")] == ["file.max_count"]


def test_check_flags_bad_bedrock_document_name(testdata: Path) -> None:
    """A Bedrock document name breaking its character rules is flagged."""
    payload = mp.render(_message(testdata), "bedrock")
    tampered = copy.deepcopy(payload)
    for block in tampered["messages"][0]["content"]:
        if "document" in block:
            block["document"]["name"] = "report.v2 (final)!!"
    assert "file.name" in {v.rule for v in mp.check(tampered, "bedrock")}


def test_check_flags_bad_base64_and_oversized_request(testdata: Path) -> None:
    """Broken base64 and a request over the size limit are both reported."""
    payload = mp.render(_message(testdata), "anthropic")
    tampered = copy.deepcopy(payload)
    _anthropic_images(tampered)[0]["source"]["data"] = "not base64!"
    small = mp.providers.get("anthropic").with_rules(max_request_bytes=10_000)
    rules = {v.rule for v in mp.check(tampered, small)}
    assert {"payload.base64", "request.max_bytes"} <= rules


def test_check_flags_url_where_not_fetched() -> None:
    """An image URL in a payload for a provider that fetches no image URLs is flagged."""
    payload = {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"image": {"format": "png", "source": {"s3Location": {"uri": "s3://b/k"}}}}
                ],
            }
        ]
    }
    assert mp.check(payload, "bedrock") == []  # S3 references are not inline bytes; not checked
    gemini = {
        "contents": [
            {"role": "user", "parts": [{"inlineData": {"mimeType": "image/png", "data": "@@"}}]}
        ]
    }
    assert [v.rule for v in mp.check(gemini, "gemini")] == ["payload.base64"]


_CLAUDE_REFERENCES = {
    "messages": [
        {"role": "user", "content": "Crop it."},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "crop", "input": {}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": [{"type": "image", "source": {"type": "file", "file_id": "f2"}}],
                },
                {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}},
                {"type": "document", "source": {"type": "file", "file_id": "file_011"}},
                {"type": "text", "text": "Compare them."},
            ],
        },
    ]
}


def _file_data(uri: str) -> dict[str, Any]:
    part = {"fileData": {"mimeType": "application/pdf", "fileUri": uri}}
    return {"contents": [{"role": "user", "parts": [{"text": "Summarise."}, part]}]}


_FILES_API = "https://generativelanguage.googleapis.com/v1beta/files/abc"

# (provider, payload, the rules it breaks): what each route reads by reference. Anthropic's
# direct API fetches URL sources and reads Files API ids; Claude on Vertex AI and Bedrock
# take "only base64-encoded sources"; Vertex AI reads Cloud Storage, not the Gemini API's
# Files API.
REFERENCES = [
    ("anthropic", _CLAUDE_REFERENCES, []),
    ("anthropic-vertex", _CLAUDE_REFERENCES, ["image.url", "image.file_id", "file.file_id"]),
    ("anthropic-bedrock", _CLAUDE_REFERENCES, ["image.url", "image.file_id", "file.file_id"]),
    ("vertex", _file_data("gs://bucket/report.pdf"), []),
    ("vertex", _file_data(_FILES_API), ["file.uri"]),
    ("vertex", _file_data("files/abc"), ["file.uri"]),
    ("vertex", _file_data("https://example.com/report.pdf"), []),
    ("gemini", _file_data(_FILES_API), []),
]


@pytest.mark.parametrize(
    ("provider", "payload", "rules"),
    REFERENCES,
    ids=[
        "anthropic",
        "claude-vertex",
        "claude-bedrock",
        "vertex-gs",
        "vertex-files-api",
        "vertex-files-id",
        "vertex-web",
        "gemini-files-api",
    ],
)
def test_check_references_each_route_reads(
    provider: str, payload: dict[str, Any], rules: list[str]
) -> None:
    """URL sources, file ids and file URIs are flagged where the route cannot read them, and
    only there."""
    assert [v.rule for v in mp.check(payload, provider)] == rules


def test_violation_str_names_path_and_rule() -> None:
    """A violation reads as 'path: message (rule)'."""
    v = mp.Violation(path="$.a[0]", rule="image.max_bytes", message="too big")
    assert str(v) == "$.a[0]: too big (image.max_bytes)"


def test_check_path_shortens_hostile_keys(testdata: Path) -> None:
    """A key of megabytes is shown cut short in a violation's path, not repeated whole."""
    tiff = base64.b64encode((testdata / "image.tiff").read_bytes()).decode()
    block = {"type": "image_url", "image_url": {"url": f"data:image/tiff;base64,{tiff}"}}
    payload = {"messages": [{"k" * 1_000_000: [block, block]}]}
    violations = [v for v in mp.check(payload, "openai") if v.rule == "image.media_type"]
    assert len(violations) == 2
    assert violations[1].path == "$.messages[0]." + "k" * 40 + "…[1].image_url.url"


def _image_block(provider: str, data: bytes) -> tuple[dict[str, Any], str]:
    """A payload holding one PNG-declared image block of `data`, and the path of its bytes
    (the block of the provider's wire; a bare-string `image_url` where its quirk says so)."""
    text = base64.b64encode(data).decode()
    served = mp.providers.get(provider)
    if served.quirks.get("image_url_string"):
        chunk = {"type": "image_url", "image_url": f"data:image/png;base64,{text}"}
        return {"messages": [{"role": "user", "content": [chunk]}]}, "content[0].image_url"
    wire = served.wire
    if wire == "anthropic":
        source = {"type": "base64", "media_type": "image/png", "data": text}
        block = {"type": "image", "source": source}
        return {"messages": [{"role": "user", "content": [block]}]}, "content[0].source.data"
    if wire == "openai":
        block = {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{text}"}}
        return {"messages": [{"role": "user", "content": [block]}]}, "content[0].image_url.url"
    if wire == "openai-responses":
        block = {"type": "input_image", "image_url": f"data:image/png;base64,{text}"}
        return {"input": [{"role": "user", "content": [block]}]}, "content[0].image_url"
    if wire == "gemini":
        part = {"inlineData": {"mimeType": "image/png", "data": text}}
        return {"contents": [{"role": "user", "parts": [part]}]}, "parts[0].inlineData.data"
    block = {"image": {"format": "png", "source": {"bytes": data}}}
    return {"messages": [{"role": "user", "content": [block]}]}, "content[0].image.source.bytes"


# Bytes an image block may hold that are no PNG, and the rule each breaks.
_NOT_IMAGES = [
    (b"", "image.data"),
    (b"hello", "image.data"),  # text
    (bytes(range(7, 256)) * 20, "image.data"),  # 5,000 bytes with no signature
    (b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n", "image.media_type"),  # a PDF
]


@pytest.mark.parametrize(("data", "rule"), _NOT_IMAGES, ids=["empty", "text", "random", "pdf"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_check_sniffs_every_inline_image(provider: str, data: bytes, rule: str) -> None:
    """An image block whose bytes are empty, text, garbage or another format is a violation
    at the path of its bytes, whatever the block declares."""
    payload, path = _image_block(provider, data)
    found = {(v.path, v.rule) for v in mp.check(payload, provider)}
    assert any(p.endswith(path) and r == rule for p, r in found), found


@pytest.mark.parametrize("provider", PROVIDERS)
def test_check_sniffed_png_is_clean(provider: str, testdata: Path) -> None:
    """The same block holding a real PNG gives no violation (no false alarm)."""
    payload, _ = _image_block(provider, (testdata / "alpha.png").read_bytes())
    assert mp.check(payload, provider) == []


def test_check_documents_bytes_per_request(testdata: Path) -> None:
    """Documents whose bytes together pass the request's limit are flagged at the one that
    passes it (OpenAI: 32 MB of PDFs in one request), once."""
    pdf = (testdata / "document.pdf").read_bytes()
    assert mp.providers.get("openai").rules.file.max_request_bytes == 32_000_000
    openai = mp.providers.get("openai").with_rules(file_max_request_bytes=2 * len(pdf) + 1)
    payload = mp.render(mp.User("Compare", files=[testdata / "document.pdf"] * 4), "openai")
    violations = mp.check(payload, openai)
    assert [(v.path, v.rule) for v in violations] == [
        ("$.messages[0].content[3].file.file_data", "file.max_request_bytes")
    ]
    assert mp.check(payload, "openai") == []


def _mistral_user(*chunks: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}, *chunks]}]}


def test_check_mistral_chunks(testdata: Path) -> None:
    """Mistral's own chunks are checked: a document_url of other bytes than its data URI
    says, bare-string audio that is no audio, a ninth image, and the same chunks well made
    are clean (a Voxtral model for the audio)."""
    pdf = base64.b64encode((testdata / "document.pdf").read_bytes()).decode()
    png = base64.b64encode((testdata / "alpha.png").read_bytes()).decode()
    wav = base64.b64encode((testdata / "tone.wav").read_bytes()).decode()
    good = _mistral_user(
        {"type": "document_url", "document_url": f"data:application/pdf;base64,{pdf}"},
        {"type": "document_url", "document_url": "https://media.example/document.pdf"},
        {"type": "input_audio", "input_audio": wav},
        {"type": "input_audio", "input_audio": "https://media.example/tone.wav"},
        {"type": "file", "file_id": "9a90b93c-0e7d-4dd7-8520-07d051404d11"},
    )
    assert mp.check(good, "mistral", model="voxtral-small-latest") == []
    bad = _mistral_user(
        {"type": "document_url", "document_url": f"data:application/pdf;base64,{png}"},
        {"type": "input_audio", "input_audio": base64.b64encode(b"hello").decode()},
    )
    paths = {(v.path, v.rule) for v in mp.check(bad, "mistral", model="voxtral-small-latest")}
    assert ("$.messages[0].content[1].document_url", "file.media_type") in paths, paths
    assert any(p == "$.messages[0].content[2].input_audio" for p, _ in paths), paths
    image = {"type": "image_url", "image_url": f"data:image/png;base64,{png}"}
    crowded = [v.rule for v in mp.check(_mistral_user(*[image] * 9), "mistral")]
    assert crowded == ["image.max_count"]
    named = {
        "messages": [
            {"role": "user", "content": "hi", "name": "alice"},
            {"role": "assistant", "content": None, "refusal": "No."},
        ]
    }
    assert [(v.path, v.rule) for v in mp.check(named, "mistral")] == [
        ("$.messages[0].name", "message.name"),
        ("$.messages[1].refusal", "message.refusal"),
    ]
    assert mp.check(named, "openai") == []
    audio = _mistral_user({"type": "input_audio", "input_audio": wav})
    refused = mp.check(audio, "mistral", model="mistral-small-latest")
    assert [v.rule for v in refused] == ["audio.media_type"], refused
