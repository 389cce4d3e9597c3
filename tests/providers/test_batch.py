"""Batch lines and the writer: the line of each provider, the split at each per-file limit."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.providers import openai
from mediaparts.providers._batching import _lines as batch_module
from tests._builders import TESTDATA

# What each provider needs besides the conversation, for a line to be made.
NEEDS: dict[str, dict[str, Any]] = {
    "openai": {"model": "gpt-4o"},
    "openai-responses": {"model": "gpt-4o"},
    "anthropic": {"model": "claude-sonnet-4-5", "params": {"max_tokens": 256}},
    "gemini": {},
    "bedrock": {},
    "groq": {"model": "meta-llama/llama-4-scout-17b-16e-instruct"},
    # The global batch deployment's name; one named after its model needs no mapping.
    "azure-openai": {"model": "gpt-4o"},
    "azure-openai-responses": {"model": "gpt-4o"},
    "anthropic-vertex": {"params": {"max_tokens": 256}},
    "anthropic-bedrock": {"params": {"max_tokens": 256}},
    "mistral": {},
}
# The providers with a batch format (OpenRouter has no batch API).
BATCHED = [p for p in mp.providers.names() if mp.providers.get(p).batch_request is not None]

# The documented per-file limits (requests, bytes), as the tables' comments cite them.
DOCUMENTED = {
    "openai": (50_000, 200_000_000),
    "openai-responses": (50_000, 200_000_000),
    "anthropic": (100_000, 255_900_000),
    "gemini": (None, 2_000_000_000),
    "bedrock": (50_000, 1_000_000_000),
    "groq": (None, None),  # none documented
    # "Max requests per file | 100,000", "Max input file size | 200 MB" (Azure's global batch)
    "azure-openai": (100_000, 200_000_000),
    "azure-openai-responses": (100_000, 200_000_000),
    "anthropic-vertex": (None, None),  # Vertex AI's Claude batch page gives no file limit
    "anthropic-bedrock": (50_000, 1_000_000_000),  # Bedrock's batch quotas
    "mistral": (100_000, 512_000_000),
}

# The top-level keys of each provider's line, and where the id goes.
SHAPES = {
    "openai": ({"custom_id", "method", "url", "body"}, "custom_id"),
    "openai-responses": ({"custom_id", "method", "url", "body"}, "custom_id"),
    "anthropic": ({"custom_id", "params"}, "custom_id"),
    "gemini": ({"key", "request"}, "key"),
    "bedrock": ({"recordId", "modelInput"}, "recordId"),
    "groq": ({"custom_id", "method", "url", "body"}, "custom_id"),
    "azure-openai": ({"custom_id", "method", "url", "body"}, "custom_id"),
    "azure-openai-responses": ({"custom_id", "method", "url", "body"}, "custom_id"),
    "anthropic-vertex": ({"custom_id", "request"}, "custom_id"),
    "anthropic-bedrock": ({"recordId", "modelInput"}, "recordId"),
    "mistral": ({"custom_id", "body"}, "custom_id"),
}


def conversation(text: str = "What is in this image?") -> list[mp.Message]:
    """A small image conversation, as a batch of image prompts has."""
    return [mp.System("Answer briefly."), mp.User([text, mp.part(TESTDATA / "alpha.png")])]


def line(provider: str, custom_id: str = "req-1", text: str = "hello") -> bytes:
    return mp.batch_line(custom_id, text, provider, **NEEDS[provider])


@pytest.mark.parametrize("provider", BATCHED)
def test_batch_line_is_one_deterministic_json_line(provider: str) -> None:
    """A line is one compact JSON object ending in a newline, the same bytes every time."""
    first = mp.batch_line("req-1", conversation(), provider, **NEEDS[provider])
    again = mp.batch_line("req-1", conversation(), provider, **NEEDS[provider])
    assert first == again
    assert first.endswith(b"\n") and first.count(b"\n") == 1
    keys, id_key = SHAPES[provider]
    record = json.loads(first)
    assert set(record) == keys
    assert record[id_key] == "req-1"


@pytest.mark.parametrize("provider", BATCHED)
def test_batch_line_wraps_what_render_returns(provider: str) -> None:
    """The request in the line is `mp.render`'s payload (as JSON), plus model and params."""
    payload = mp.render(conversation(), provider, model=NEEDS[provider].get("model"))
    record = json.loads(mp.batch_line("a", conversation(), provider, **NEEDS[provider]))
    inner = next(v for k, v in record.items() if isinstance(v, dict))
    for key in payload:
        assert key in inner
    assert inner.get("model") == NEEDS[provider].get("model")
    for key, value in NEEDS[provider].get("params", {}).items():
        assert inner[key] == value


@pytest.mark.parametrize(
    ("provider", "body", "version"),
    [
        ("anthropic-vertex", "request", "vertex-2023-10-16"),  # Vertex AI's Claude batch page
        ("anthropic-bedrock", "modelInput", "bedrock-2023-05-31"),  # Bedrock's batch example
    ],
)
def test_batch_line_of_a_claude_route_carries_its_version(
    provider: str, body: str, version: str
) -> None:
    """A Claude batch line on Vertex AI or Bedrock carries the route's `anthropic_version`
    (no client adds it there) and no model (the job names it)."""
    record = json.loads(line(provider))
    assert record[body]["anthropic_version"] == version
    assert record[body]["max_tokens"] == 256 and "model" not in record[body]


@pytest.mark.parametrize("provider", ["anthropic-vertex", "anthropic-bedrock"])
@pytest.mark.parametrize(
    ("params", "match"),
    [({}, "max_tokens"), ({"max_tokens": 9, "model": "claude-sonnet-4-5"}, "names no model")],
    ids=["no-max-tokens", "model"],
)
def test_batch_line_of_a_claude_route_refuses(
    provider: str, params: dict[str, Any], match: str
) -> None:
    """A Claude route's batch line needs max_tokens and takes no model in its params."""
    with pytest.raises(mp.InvalidConfig, match=match):
        mp.batch_line("a", "hi", provider, params=params)


def test_batch_line_vertex_has_no_batch_format() -> None:
    """Vertex AI's Gemini batch lines carry no id to read results back by: none is written."""
    with pytest.raises(mp.InvalidConfig, match="no batch format"):
        mp.batch_line("a", "hi", "vertex")


@pytest.mark.parametrize(
    ("provider", "url"),
    [("openai", "/v1/chat/completions"), ("openai-responses", "/v1/responses")],
)
def test_batch_line_openai_names_its_endpoint(provider: str, url: str) -> None:
    """OpenAI lines are POSTs to the endpoint of the API the payload is rendered for."""
    record = json.loads(line(provider))
    assert (record["method"], record["url"]) == ("POST", url)
    assert record["body"]["model"] == "gpt-4o"


def test_batch_line_bedrock_sends_blobs_as_base64() -> None:
    """Bedrock's Converse JSON carries image bytes as base64 text, as boto3 sends them."""
    record = json.loads(mp.batch_line("r", conversation(), "bedrock"))
    image = record["modelInput"]["messages"][0]["content"][1]["image"]
    assert image["source"]["bytes"].startswith("iVBOR")  # a PNG's signature in base64


def test_batch_line_params_go_into_the_request() -> None:
    """`params` adds request fields (Gemini's generationConfig, Bedrock's inferenceConfig)."""
    gemini = json.loads(
        mp.batch_line("g", "hi", "gemini", params={"generationConfig": {"maxOutputTokens": 9}})
    )
    assert gemini["request"]["generationConfig"] == {"maxOutputTokens": 9}
    bedrock = json.loads(mp.batch_line("b", "hi", "bedrock", params={"inferenceConfig": {}}))
    assert bedrock["modelInput"]["inferenceConfig"] == {}


def test_batch_line_model_may_come_from_params() -> None:
    """A model given in `params` stands when `model=` is not given."""
    record = json.loads(mp.batch_line("a", "hi", "openai", params={"model": "gpt-x"}))
    assert record["body"]["model"] == "gpt-x"


@pytest.mark.parametrize(
    ("provider", "kwargs"),
    [
        ("openai", {}),
        ("openai-responses", {}),
        ("anthropic", {"max_tokens": 5}),
    ],
)
def test_batch_line_refuses_two_different_models(provider: str, kwargs: dict[str, Any]) -> None:
    """model= and params['model'] may agree, but two different models are refused."""
    model = "claude-x" if provider == "anthropic" else "gpt-4o"
    same = mp.batch_line("a", "hi", provider, model=model, params={**kwargs, "model": model})
    assert model in same.decode()
    with pytest.raises(mp.InvalidConfig, match="differ; give the model once"):
        mp.batch_line("a", "hi", provider, model=model, params={**kwargs, "model": "other"})


def test_batch_line_does_not_change_the_caller_params() -> None:
    """The caller's params dict is read, never changed."""
    params = {"max_tokens": 5}
    mp.batch_line("a", "hi", "anthropic", model="claude-x", params=params)
    assert params == {"max_tokens": 5}


@pytest.mark.parametrize(
    ("provider", "kwargs", "error", "words"),
    [
        ("openai", {}, mp.InvalidConfig, "model"),
        ("openai-responses", {}, mp.InvalidConfig, "model"),
        ("anthropic", {"params": {"max_tokens": 5}}, mp.InvalidConfig, "model"),
        ("anthropic", {"model": "claude-x"}, mp.InvalidConfig, "max_tokens"),
        ("gemini", {"params": {"contents": []}}, mp.InvalidConfig, "'contents'"),
        ("bedrock", {"params": ["x"]}, mp.InvalidConfig, "params must be a dict"),
        ("bedrock", {"params": {"x": object()}}, mp.InvalidConfig, "must be JSON"),
        ("bedrock", {"params": {"x": float("nan")}}, mp.InvalidConfig, "must be JSON"),
        ("bedrock", {"on_loss": "maybe"}, mp.InvalidConfig, "on_loss"),
    ],
)
def test_batch_line_refuses_what_the_request_cannot_be(
    provider: str, kwargs: dict[str, Any], error: type[Exception], words: str
) -> None:
    """A missing required field or a wrong param is our error, naming what to give."""
    with pytest.raises(error, match=words):
        mp.batch_line("req-1", "hello", provider, **kwargs)


@pytest.mark.parametrize("custom_id", ["", None, 7, b"id"])
def test_batch_line_refuses_an_id_that_is_not_a_string(custom_id: Any) -> None:
    """The id is a non-empty string."""
    with pytest.raises(mp.InvalidMedia, match="id is a non-empty string"):
        mp.batch_line(custom_id, "hello", "gemini")


# Text no UTF-8 encoder takes, where each string of a batch request comes from.
SURROGATES: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"custom_id": "req-\ud800"}, mp.InvalidMedia, r"id 'req-\\ud800' holds a lone surrogate"),
    ({"custom_id": "\udcff"}, mp.InvalidMedia, r"id '\\udcff' holds a lone surrogate"),
    ({"model": "gpt-\ud800"}, mp.InvalidConfig, r"model 'gpt-\\ud800' holds a lone"),
    ({"params": {"k\ud800": 1}}, mp.InvalidConfig, r"params key 'k\\ud800' holds a lone"),
    ({"params": {"k": ["v\udfff"]}}, mp.InvalidConfig, r"near .*v\\udfff.*a params value"),
]


@pytest.mark.parametrize(("change", "error", "words"), SURROGATES)
def test_batch_line_refuses_a_lone_surrogate(
    change: dict[str, Any], error: type[Exception], words: str
) -> None:
    """A string no UTF-8 line can carry is our error naming it, not UnicodeEncodeError."""
    kwargs: dict[str, Any] = {"custom_id": "req-1", "model": "gpt-4o", **change}
    with pytest.raises(error, match=words) as caught:
        mp.batch_line(kwargs.pop("custom_id"), "hello", "openai", **kwargs)
    assert not isinstance(caught.value, UnicodeError)


def test_batch_line_cleans_a_lone_surrogate_in_the_text() -> None:
    """Message text is cleaned (U+FFFD), as every part's text is; the line encodes."""
    record = json.loads(mp.batch_line("req-1", "h\ud800i", "gemini"))
    assert "h\ufffdi" in json.dumps(record, ensure_ascii=False)


def test_batch_writer_refuses_a_lone_surrogate_id(tmp_path: Path) -> None:
    """The writer refuses an id that cannot be encoded, naming it, and writes nothing."""
    writer = mp.BatchWriter("gemini", tmp_path)
    with pytest.raises(mp.InvalidMedia, match=r"'a\\ud800' holds a lone surrogate"):
        writer.add("a\ud800", b"{}\n")
    assert writer.close() == []


@pytest.mark.parametrize(("folder", "prefix"), [("d\ud800", "batch"), ("d", "p\ud800")])
def test_batch_writer_refuses_a_name_the_os_cannot_take(
    tmp_path: Path, folder: str, prefix: str
) -> None:
    """A folder or prefix that cannot be encoded as a file name is refused when made."""
    with pytest.raises(mp.InvalidConfig, match="cannot be encoded as a file name"):
        mp.BatchWriter("gemini", tmp_path / folder, prefix=prefix)


def test_write_batch_refuses_a_lone_surrogate_id(tmp_path: Path) -> None:
    """write_batch refuses the id with our error, the files so far closed."""
    with pytest.raises(mp.InvalidMedia, match=r"'b\\ud800' holds a lone surrogate"):
        mp.write_batch([("a", "hi"), ("b\ud800", "hi")], "gemini", tmp_path, workers=1)


@pytest.mark.parametrize("custom_id", ["has space", "x" * 65, "dot.id", "é"])
def test_batch_line_anthropic_refuses_ids_outside_its_pattern(custom_id: str) -> None:
    """Anthropic's custom_id is 1-64 of [a-zA-Z0-9_-]; another is refused before sending."""
    with pytest.raises(mp.ProviderLimitError, match="1-64 letters"):
        mp.batch_line(custom_id, "hello", "anthropic", **NEEDS["anthropic"])


def test_batch_line_anthropic_takes_its_longest_id() -> None:
    """A 64-character id of the allowed characters is taken."""
    record = json.loads(mp.batch_line("a-_9" * 16, "hello", "anthropic", **NEEDS["anthropic"]))
    assert record["custom_id"] == "a-_9" * 16


def test_batch_line_refuses_a_provider_without_batch_format() -> None:
    """A registered provider without batch members is refused, naming what it lacks."""
    mp.providers.register("nobatch", wire="openai", rules=openai.RULES)
    try:
        with pytest.raises(mp.InvalidConfig, match="no batch format"):
            mp.batch_line("a", "hi", "nobatch")
        with pytest.raises(mp.InvalidConfig, match="no batch format"):
            mp.BatchWriter("nobatch", "unused")
    finally:
        mp.providers.unregister("nobatch")


def test_batch_line_provider_without_batch_api() -> None:
    """A provider with no batch API (OpenRouter) refuses batch lines, naming itself."""
    with pytest.raises(mp.InvalidConfig, match=r"openrouter.* has no batch format"):
        mp.batch_line("a", "hi", "openrouter")


def test_batch_line_unknown_provider() -> None:
    """An unknown provider name is UnknownProvider."""
    with pytest.raises(mp.UnknownProvider):
        mp.batch_line("a", "hi", "nope")


# -- the writer ---------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", BATCHED)
def test_batch_writer_default_limits_are_the_documented_ones(provider: str) -> None:
    """Without overrides, a writer splits at the limits the provider documents."""
    writer = mp.BatchWriter(provider, "unused")
    assert (writer.max_requests, writer.max_bytes) == DOCUMENTED[provider]
    rules = mp.providers.get(provider).rules
    assert rules.batch_source and re.search(r"\(read 2026-12(-\d\d)?\)", rules.batch_source)


def _lines(count: int, size: int | None = None) -> list[tuple[str, bytes]]:
    """`count` (id, line) pairs of Gemini lines, each exactly `size` bytes when given."""
    pairs = []
    for i in range(count):
        text = mp.batch_line(f"r{i:04d}", "hi", "gemini")
        if size is not None:
            pad = size - len(text)
            text = mp.batch_line(f"r{i:04d}", "h" * (2 + pad), "gemini")
            assert len(text) == size
        pairs.append((f"r{i:04d}", text))
    return pairs


def _write(tmp_path: Path, pairs: list[tuple[str, bytes]], **limits: Any) -> list[mp.BatchFile]:
    with mp.BatchWriter("gemini", tmp_path, **limits) as writer:
        for custom_id, text in pairs:
            writer.add(custom_id, text)
    return writer.close()


@pytest.mark.parametrize(("count", "files"), [(3, [3]), (4, [3, 1]), (6, [3, 3]), (7, [3, 3, 1])])
def test_batch_writer_splits_exactly_at_max_requests(
    tmp_path: Path, count: int, files: list[int]
) -> None:
    """A file holds exactly max_requests lines; the next line starts a new file."""
    written = _write(tmp_path, _lines(count), max_requests=3)
    assert [f.requests for f in written] == files
    for f in written:
        assert f.path.read_bytes().count(b"\n") == f.requests
        assert f.path.stat().st_size == f.bytes


@pytest.mark.parametrize(("max_bytes", "files"), [(200, [2, 1]), (199, [1, 1, 1]), (300, [3])])
def test_batch_writer_splits_exactly_at_max_bytes(
    tmp_path: Path, max_bytes: int, files: list[int]
) -> None:
    """Lines whose bytes reach max_bytes exactly fit; one byte more starts a new file."""
    written = _write(tmp_path, _lines(3, size=100), max_bytes=max_bytes)
    assert [f.requests for f in written] == files
    assert all(f.bytes <= max_bytes for f in written)


def test_batch_writer_keeps_lines_in_order_across_files(tmp_path: Path) -> None:
    """Joined in order, the files are the lines in the order they were added."""
    pairs = _lines(10)
    written = _write(tmp_path, pairs, max_requests=4)
    assert b"".join(f.path.read_bytes() for f in written) == b"".join(t for _, t in pairs)
    assert [f.path.name for f in written] == [
        "batch-00001.jsonl",
        "batch-00002.jsonl",
        "batch-00003.jsonl",
    ]


def test_batch_writer_writes_no_file_for_no_lines(tmp_path: Path) -> None:
    """A writer given nothing writes nothing and returns no files."""
    assert _write(tmp_path / "out", []) == []
    assert not (tmp_path / "out").exists()


def test_batch_writer_refuses_a_line_that_can_never_fit(tmp_path: Path) -> None:
    """A line alone over max_bytes is ProviderLimitError naming its id and the limit."""
    with (
        mp.BatchWriter("gemini", tmp_path, max_bytes=50) as writer,
        pytest.raises(mp.ProviderLimitError, match=r"'big' is 1\d\d bytes, over the 50"),
    ):
        writer.add("big", mp.batch_line("big", "x" * 100, "gemini"))


def test_batch_writer_refuses_a_duplicate_id_across_files(tmp_path: Path) -> None:
    """An id given twice is refused, in the same file or a later one."""
    with mp.BatchWriter("gemini", tmp_path, max_requests=1) as writer:
        writer.add("a", line("gemini", "a"))
        writer.add("b", line("gemini", "b"))
        with pytest.raises(mp.ProviderLimitError, match="'a' was given twice"):
            writer.add("a", line("gemini", "a"))


@pytest.mark.parametrize("bad", [b"{}", b"{}\n{}\n", "text\n", b"", bytearray(b"{}\n")], ids=str)
def test_batch_writer_refuses_what_is_not_one_line(tmp_path: Path, bad: Any) -> None:
    """A line is bytes ending in its one newline."""
    with mp.BatchWriter("gemini", tmp_path) as writer, pytest.raises(mp.InvalidMedia):
        writer.add("a", bad)


def test_batch_writer_refuses_adding_after_close(tmp_path: Path) -> None:
    """A closed writer refuses more lines; closing again returns the same files."""
    writer = mp.BatchWriter("gemini", tmp_path)
    writer.add("a", line("gemini", "a"))
    files = writer.close()
    assert writer.close() == files == writer.files
    with pytest.raises(mp.InvalidConfig, match="closed"):
        writer.add("b", line("gemini", "b"))


@pytest.mark.parametrize(
    ("limits", "words"),
    [
        ({"max_requests": 0}, "max_requests must be a positive"),
        ({"max_requests": True}, "max_requests must be a positive"),
        ({"max_bytes": 2.5}, "max_bytes must be a positive"),
        ({"max_requests": 50_001}, "over openai's documented 50000"),
        ({"max_bytes": 200_000_001}, "with_rules"),
        ({"prefix": "a/b"}, "plain file name"),
        ({"prefix": ""}, "plain file name"),
    ],
)
def test_batch_writer_refuses_wrong_limits(limits: dict[str, Any], words: str) -> None:
    """Limits are positive whole numbers no larger than the documented ones."""
    with pytest.raises(mp.InvalidConfig, match=words):
        mp.BatchWriter("openai", "unused", **limits)


def test_batch_writer_raised_quota_through_with_rules(tmp_path: Path) -> None:
    """A raised quota is the provider's rules changed, and then larger limits are taken."""
    raised = mp.providers.get("bedrock").with_rules(batch_max_requests=60_000)
    writer = mp.BatchWriter(raised, tmp_path, max_requests=55_000)
    assert writer.max_requests == 55_000
    assert mp.BatchWriter(raised, tmp_path).max_requests == 60_000


def test_batch_writer_never_overwrites_a_file(tmp_path: Path) -> None:
    """An existing batch file is never overwritten: InvalidConfig says to choose another."""
    (tmp_path / "batch-00001.jsonl").write_bytes(b"mine\n")
    with (
        mp.BatchWriter("gemini", tmp_path) as writer,
        pytest.raises(mp.InvalidConfig, match="exists"),
    ):
        writer.add("a", line("gemini", "a"))
    assert (tmp_path / "batch-00001.jsonl").read_bytes() == b"mine\n"


def test_batch_writer_unwritable_folder(tmp_path: Path) -> None:
    """A folder that cannot be made is InvalidConfig, not an OSError."""
    (tmp_path / "file").write_bytes(b"")
    with (
        mp.BatchWriter("gemini", tmp_path / "file" / "sub") as writer,
        pytest.raises(mp.InvalidConfig, match="cannot create"),
    ):
        writer.add("a", line("gemini", "a"))


def test_batch_writer_remembers_many_ids(tmp_path: Path) -> None:
    """Thousands of ids are told apart (the table grows), and each repeat is still refused."""
    text = line("gemini", "x")
    with mp.BatchWriter("gemini", tmp_path) as writer:
        for i in range(5000):
            writer.add(f"id-{i}", text)
        for i in (0, 1234, 4999):
            with pytest.raises(mp.ProviderLimitError, match="twice"):
                writer.add(f"id-{i}", text)
    (written,) = writer.close()
    assert written.requests == 5000


@pytest.mark.parametrize("provider", [p for p in BATCHED if DOCUMENTED[p][0] is not None])
def test_batch_writer_splits_at_the_documented_request_limit(tmp_path: Path, provider: str) -> None:
    """With the default limits, a file holds exactly the documented number of requests."""
    limit = DOCUMENTED[provider][0]
    assert limit is not None
    text = b'{"x":1}\n'  # the writer counts lines; it does not read them
    with mp.BatchWriter(provider, tmp_path) as writer:
        for i in range(limit + 1):
            writer.add(f"r{i}", text)
    assert [f.requests for f in writer.close()] == [limit, 1]


@pytest.mark.parametrize(
    ("first", "second"),
    [("a", "b"), ("é-1", "é-2"), ('q"1', 'q"2'), ("x/1", "x/2"), ("POST", "POST2")],
)
def test_batch_writer_keeps_two_ids_that_share_a_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str, second: str
) -> None:
    """Two different ids whose 64-bit digests collide are both written; a real repeat is not."""
    monkeypatch.setattr(batch_module, "_digest", lambda custom_id: 12345)
    with mp.BatchWriter("openai", tmp_path, max_requests=1) as writer:
        writer.add(first, line("openai", first))
        writer.add(second, line("openai", second))
        with pytest.raises(mp.ProviderLimitError, match="was given twice"):
            writer.add(second, line("openai", second))
        with pytest.raises(mp.ProviderLimitError, match="was given twice"):
            writer.add(first, line("openai", first))
    assert [f.requests for f in writer.files] == [1, 1]


def test_batch_writer_tells_a_repeat_from_a_collision_whatever_the_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact check reads the ids kept aside, not the lines, which need not name them."""
    monkeypatch.setattr(batch_module, "_digest", lambda custom_id: 7)
    text = line("gemini", "x")
    with mp.BatchWriter("gemini", tmp_path) as writer:
        for custom_id in ("a", "b", "a\nb", "c"):
            writer.add(custom_id, text)
        for custom_id in ("b", "a\nb"):
            with pytest.raises(mp.ProviderLimitError, match="was given twice"):
                writer.add(custom_id, text)
    assert [f.requests for f in writer.files] == [4]


def test_batch_line_bedrock_refuses_tools(tmp_path: Path) -> None:
    """A Converse batch record may not carry toolConfig (the job fails it with a 400)."""
    tools = {"toolConfig": {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {}}}}]}}
    with pytest.raises(mp.InvalidConfig, match="may not set toolConfig"):
        mp.batch_line("a", "hi", "bedrock", params=tools)
    with pytest.raises(mp.InvalidConfig, match="toolConfig"):
        mp.write_batch([("a", "hi")], "bedrock", tmp_path, params=tools, workers=1)
    assert list(tmp_path.iterdir()) == []
