"""Reading Gemini responses: parts, usage, stop reasons, citations, SDK objects, hostile input."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts.providers import gemini
from tests.providers.gemini._payloads import RESPONSES, SIGNATURE, load

types = pytest.importorskip("google.genai.types")


def _response(*parts: dict[str, Any], **candidate: Any) -> dict[str, Any]:
    content = {"role": "model", "parts": list(parts)}
    return {"candidates": [{"content": content, "finishReason": "STOP", **candidate}]}


@pytest.mark.parametrize("path", RESPONSES, ids=lambda p: p.stem)
def test_read_response_corpus_validates_and_reads(path: Path) -> None:
    """Every corpus response is a valid GenerateContentResponse and reads as an Assistant."""
    raw = load(path)
    types.GenerateContentResponse.model_validate(raw)
    reply = mp.message_from_response(raw, "gemini")
    assert isinstance(reply, mp.Assistant)
    assert reply.stop_reason is not None


@pytest.mark.parametrize("path", RESPONSES, ids=lambda p: p.stem)
def test_read_response_sdk_object_reads_as_its_dict(path: Path) -> None:
    """The SDK's object, its REST JSON and its `to_json_dict()` read the same."""
    sdk = types.GenerateContentResponse.model_validate_json(path.read_text(encoding="utf-8"))
    from_dict = gemini.PROVIDER.read_response(load(path))
    assert gemini.PROVIDER.read_response(sdk) == from_dict
    assert gemini.PROVIDER.read_response(sdk.to_json_dict()) == from_dict


@pytest.mark.parametrize(
    ("usage", "expected"),
    [
        (
            {
                "promptTokenCount": 1250,
                "candidatesTokenCount": 18,
                "cachedContentTokenCount": 1024,
                "thoughtsTokenCount": 96,
            },
            mp.Usage(
                input_tokens=1250, output_tokens=114, cache_read_tokens=1024, reasoning_tokens=96
            ),
        ),
        (
            {"promptTokenCount": 12, "candidatesTokenCount": 15, "toolUsePromptTokenCount": 180},
            mp.Usage(input_tokens=192, output_tokens=15),
        ),
        ({"prompt_token_count": 3}, mp.Usage(input_tokens=3)),
        ({}, mp.Usage()),
    ],
)
def test_read_response_usage_counts_all_input_and_output(
    usage: dict[str, Any], expected: mp.Usage
) -> None:
    """Input counts the cached and tool-use prompt tokens; output counts the thoughts."""
    reply = gemini.PROVIDER.read_response({**_response({"text": "x"}), "usageMetadata": usage})
    assert reply.usage == expected


@pytest.mark.parametrize(
    ("finish", "parts", "expected"),
    [
        ("STOP", [{"text": "x"}], "end"),
        ("STOP", [{"functionCall": {"name": "f", "args": {}}}], "tool_call"),
        ("MAX_TOKENS", [{"text": "x"}], "max_tokens"),
        ("SAFETY", [], "content_filter"),
        ("RECITATION", [], "content_filter"),
        ("PROHIBITED_CONTENT", [], "content_filter"),
        ("MALFORMED_FUNCTION_CALL", [], "other"),
        ("A_REASON_FROM_THE_FUTURE", [], "other"),
    ],
)
def test_read_response_stop_reasons(finish: str, parts: list[Any], expected: str) -> None:
    """`finishReason` maps to our stop reason; the API's value is kept beside it."""
    reply = gemini.PROVIDER.read_response(_response(*parts, finishReason=finish))
    assert (reply.stop_reason, reply.stop_reason_raw) == (expected, finish)


def test_read_response_blocked_prompt_is_a_content_filter_stop() -> None:
    """A prompt blocked before any candidate stops with content_filter and its reason."""
    reply = gemini.PROVIDER.read_response({"promptFeedback": {"blockReason": "SAFETY"}})
    assert (reply.parts, reply.stop_reason, reply.stop_reason_raw) == (
        (),
        "content_filter",
        "SAFETY",
    )


def test_read_response_keeps_model_and_id() -> None:
    """`modelVersion` and `responseId` become the reply's model and id."""
    reply = gemini.PROVIDER.read_response(
        {**_response({"text": "x"}), "modelVersion": "gemini-3-pro", "responseId": "r1"}
    )
    assert (reply.model, reply.id) == ("gemini-3-pro", "r1")


def test_read_response_thoughts_and_signatures() -> None:
    """Thoughts are reasoning; a signature on a call stays on the call, as Gemini needs it."""
    raw = base64.b64decode(SIGNATURE)
    sdk = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(
                    role="model",
                    parts=[
                        types.Part(text="Think.", thought=True),
                        types.Part(
                            function_call=types.FunctionCall(name="f", args={"a": 1}),
                            thought_signature=raw,
                        ),
                    ],
                ),
                finish_reason=types.FinishReason.STOP,
            )
        ]
    )
    thought, call = gemini.PROVIDER.read_response(sdk).parts
    assert thought == mp.ReasoningPart(text="Think.", provider="gemini")
    assert isinstance(call, mp.ToolCall)
    assert call.native == {
        "gemini": {"extra": {"thoughtSignature": SIGNATURE}, "own_fields": ["thoughtSignature"]}
    }


def test_read_response_citations_land_on_the_text_they_cite() -> None:
    """A citation's byte span picks the text part and the cited text."""
    cite = {"startIndex": 7, "endIndex": 12, "uri": "https://a.example", "title": "A"}
    reply = gemini.PROVIDER.read_response(
        _response({"text": "Héllo "}, {"text": "world!"}, citationMetadata={"citations": [cite]})
    )
    first, second = reply.parts
    assert isinstance(first, mp.TextPart) and isinstance(second, mp.TextPart)
    assert first.citations == ()
    assert second.citations == (
        mp.Citation(
            provider="gemini", cited_text="world", title="A", url="https://a.example", data=cite
        ),
    )


def test_read_response_grounding_supports_become_citations() -> None:
    """Each grounding chunk a support names is a citation of the supported segment."""
    raw = load(next(p for p in RESPONSES if "grounding" in p.stem))
    (text,) = gemini.PROVIDER.read_response(raw).parts
    assert isinstance(text, mp.TextPart)
    assert [(c.title, c.cited_text is not None) for c in text.citations] == [
        ("uefa.com", True),
        ("aljazeera.com", True),
    ]


HOSTILE: list[tuple[Any, str]] = [
    ("text", "expected the SDK's response object or its dict"),
    ({"candidates": {}}, "response.candidates: expected an array"),
    ({"candidates": [5]}, "response.candidates[0]: expected an object"),
    ({"candidates": [{"content": {"parts": [{"text": 1}]}}]}, "content.parts[0].text"),
    ({"candidates": [{"finishReason": 3}]}, "finishReason"),
    ({"usageMetadata": {"promptTokenCount": -1}}, "response.usageMetadata.promptTokenCount"),
    ({"usageMetadata": {"promptTokenCount": "9"}}, "response.usageMetadata.promptTokenCount"),
    ({"candidates": [], "modelVersion": ["m"]}, "response.modelVersion"),
    ({}, "response: expected a GenerateContentResponse with 'candidates'"),
    ({"choices": [{"message": {}}]}, "got keys 'choices'"),
    ({"candidates": None, "modelVersion": "m"}, "'promptFeedback' or 'usageMetadata'"),
    (
        _response(
            {"text": "x"},
            groundingMetadata={"groundingSupports": [{"groundingChunkIndices": [4]}]},
        ),
        "groundingChunkIndices[0]",
    ),
    (
        _response({"text": "x"}, citationMetadata={"citations": [{"startIndex": "0"}]}),
        "citations[0].startIndex",
    ),
]


@pytest.mark.parametrize(("response", "named"), HOSTILE, ids=[h[1] for h in HOSTILE])
def test_read_response_hostile_input_names_the_field(response: Any, named: str) -> None:
    """A malformed response is InvalidMedia naming the field, never a bare Python error."""
    with pytest.raises(mp.InvalidMedia) as caught:
        mp.message_from_response(response, "gemini")
    assert named in str(caught.value)


_KEYS = st.sampled_from(["text", "inline_data", "inlineData", "data", "mime_type", "thought",
                         "a_b", "aB", "x\ud800", "é", "$bytes", "function_call", "args"])  # fmt: skip
_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True), st.text(max_size=6), st.binary(max_size=6),
    st.sampled_from(["a\ud800b", "\udcff", "é+/", "ab-_"]),  # lone surrogates, base64 alphabets
)  # fmt: skip
_JSON = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=12,
)


@pytest.mark.slow  # 400 examples (Hypothesis)
@settings(max_examples=400, deadline=None)
@given(body=st.dictionaries(_KEYS, _JSON, max_size=4))
def test_wire_dict_one_pass_matches_the_checked_passes(body: dict[str, Any]) -> None:
    """The one-pass copy gives what the checked copy and respelling give, error for error."""
    from mediaparts._conversation._json_data import data_copy
    from mediaparts.providers.wires.generate_content._response import _camel, wire_dict

    def outcome(read: Any) -> Any:
        try:
            return read()
        except mp.MediaError as exc:
            return type(exc), str(exc)

    checked = outcome(lambda: _camel(data_copy(body, what="response"), "response"))
    assert outcome(lambda: wire_dict(body, "response")) == checked
