"""Property: any text-and-reference Responses payload reads and renders back to itself."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import mediaparts as mp

P = "openai-responses"

texts = st.text(max_size=12)
ids = st.text(alphabet="abcdef0123456789", min_size=1, max_size=8)
statuses = st.sampled_from(["in_progress", "completed", "incomplete"])
breakpoints = st.sampled_from(
    [{"mode": "explicit"}, {"mode": "explicit", "ttl": "30m"}, {"mode": "explicit", "ttl": "12h"}]
)


def _maybe(key: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Either no such key, or the key with a drawn value."""
    return st.one_of(st.just({}), values.map(lambda v: {key: v}))


def _with(
    base: st.SearchStrategy[dict[str, Any]], *extras: st.SearchStrategy[dict[str, Any]]
) -> Any:
    return st.tuples(base, *extras).map(lambda ds: {k: v for d in ds for k, v in d.items()})


input_text = _with(
    texts.map(lambda t: {"type": "input_text", "text": t}),
    _maybe("prompt_cache_breakpoint", breakpoints),
)
input_image = _with(
    ids.map(lambda i: {"type": "input_image", "file_id": f"file-{i}"}),
    _maybe("detail", st.sampled_from(["auto", "low", "high", "original"])),
    _maybe("prompt_cache_breakpoint", breakpoints),
)
input_file = _with(
    ids.map(lambda i: {"type": "input_file", "file_id": f"file-{i}"}),
    _maybe("filename", st.sampled_from(["a.pdf", "notes.docx"])),
    _maybe("detail", st.sampled_from(["auto", "low", "high"])),
)
blocks = st.lists(st.one_of(input_text, input_image, input_file), max_size=3)
text_blocks = st.lists(input_text, max_size=3)

easy_message = _with(
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["user", "system", "developer"]),
            "content": st.one_of(texts, text_blocks),
        }
    ),
    _maybe("type", st.just("message")),
)
user_media = st.fixed_dictionaries({"role": st.just("user"), "content": blocks})
# An easy assistant message's content is a string: the API rejects input_text from the
# assistant, so a list read there is written back as one string (see test_render).
easy_assistant = _with(
    st.fixed_dictionaries({"role": st.just("assistant"), "content": texts}),
    _maybe("phase", st.sampled_from(["commentary", "final_answer"])),
)
annotation = st.builds(
    lambda t: {
        "type": "url_citation",
        "start_index": 0,
        "end_index": 1,
        "url": "https://a.example",
        "title": t,
    },
    texts,
)
output_text = _with(
    st.builds(
        lambda t, a: {"type": "output_text", "text": t, "annotations": a},
        texts,
        st.lists(annotation, max_size=2),
    ),
    _maybe("logprobs", st.just([])),
)
refusal = texts.map(lambda t: {"type": "refusal", "refusal": t})
output_message = st.builds(
    lambda i, s, c: {
        "type": "message",
        "id": f"msg_{i}",
        "role": "assistant",
        "status": s,
        "content": c,
    },
    ids,
    statuses,
    st.lists(st.one_of(output_text, refusal), max_size=3),
)
function_call = _with(
    st.builds(
        lambda c, n: {
            "type": "function_call",
            "call_id": f"call_{c}",
            "name": n,
            "arguments": '{"a": 1}',
        },
        ids,
        st.sampled_from(["zoom", "lookup"]),
    ),
    _maybe("id", ids.map(lambda i: f"fc_{i}")),
    _maybe("status", statuses),
)
function_output = _with(
    st.builds(
        lambda c, o: {"type": "function_call_output", "call_id": f"call_{c}", "output": o},
        ids,
        st.one_of(texts, blocks),
    ),
    _maybe("status", statuses),
)
reasoning = _with(
    st.builds(
        lambda i, s: {
            "type": "reasoning",
            "id": f"rs_{i}",
            "summary": [{"type": "summary_text", "text": t} for t in s],
        },
        ids,
        st.lists(texts, max_size=2),
    ),
    _maybe(
        "content",
        st.lists(texts, max_size=2).map(
            lambda ts: [{"type": "reasoning_text", "text": t} for t in ts]
        ),
    ),
    _maybe("encrypted_content", st.one_of(st.none(), ids)),
    _maybe("status", statuses),
)
web_search = ids.map(
    lambda i: {
        "type": "web_search_call",
        "id": f"ws_{i}",
        "status": "completed",
        "action": {"type": "search"},
    }
)
items = st.lists(
    st.one_of(
        easy_message,
        user_media,
        easy_assistant,
        output_message,
        function_call,
        function_output,
        reasoning,
        web_search,
    ),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(items)
def test_read_then_render_is_identity(payload: list[dict[str, Any]]) -> None:
    """render(messages_from(p)) == {"input": p} for any such item list, also after to_dict."""
    messages = mp.messages_from(payload, P)
    assert mp.render(messages, P, on_loss="error") == {"input": payload}
    again = [mp.message_from_dict(json.loads(json.dumps(m.to_dict()))) for m in messages]
    assert mp.render(again, P, on_loss="error") == {"input": payload}
