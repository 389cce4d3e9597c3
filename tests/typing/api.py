"""API examples the type checker must accept (run: mypy --strict tests/typing).

Not collected by pytest (no test_ prefix); CI type-checks it with the sources.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from pathlib import Path

import ray.data

import mediaparts as mp
from mediaparts.distributed import normalize_dataset, render_dataset, write_batch_dataset

image = mp.ImagePart(data=b"\x89PNG...", media_type="image/png")
photo: mp.ImagePart = mp.ImagePart.from_path("photo.jpg", detail="high")
lazy: mp.ImagePart = mp.ImagePart.from_url("https://example.com/a.png")
any_part: mp.MediaPart = mp.part(Path("notes.pdf"))
shorthand = mp.part({"path": "a.jpg"})
width: int | None = photo.width
uri: str = photo.to_data_uri()
text = mp.TextPart("hello")

messages: list[mp.Message] = [
    mp.System("You are terse."),
    mp.User("Describe", files=[{"path": "a.jpg"}, photo]),
    mp.User(["Compare", photo, {"path": "b.png"}]),
    mp.Assistant("Done.", tool_calls=[mp.ToolCall(id="c1", name="zoom", arguments="{}")]),
    mp.Tool(["Cropped:", photo], tool_call_id="c1", name="zoom"),
]
merged: list[mp.Message] = mp.merge_runs(messages)
noted = mp.User("hi", metadata={"trace": "t1", "tags": ["a"]})
note: dict[str, object] = noted.metadata
said: str = messages[0].text
reply = mp.Assistant(parts=[mp.ReasoningPart(text="think"), "Done."])
thought: str = reply.reasoning
calls: tuple[mp.ToolCall, ...] = reply.tool_calls
shown: str = mp.show(messages, max_text=200)
one_shown: str = mp.show(photo)
no_images: list[mp.Message] = mp.filter_messages(messages, kinds=["image"], exclude=True)
users_only: list[mp.Message] = mp.filter_messages(
    messages, roles="user", where=lambda m: bool(m.content), unpaired="drop"
)
mp.configure(message_ids="uuid7", message_timestamps=True)
mp.configure(message_ids=None)
stamped_id: str | None = messages[0].id
stamped_at: datetime | None = messages[0].created_at
again: mp.Message = mp.message_from_dict(messages[1].to_dict())
uploaded: mp.Message = mp.message_from_dict(messages[1].to_dict(), base_dir=Path("uploads"))
part_again: mp.MediaPart = mp.ImagePart.from_dict(photo.to_dict(), base_dir="uploads")
with mp.untrusted(base_dir="uploads"):
    from_form: mp.MediaPart = mp.part("https://example.com/a.png")

normalized: mp.NormalizedPart = mp.normalize(photo, "anthropic", model="claude-sonnet-4-5")
steps: tuple[str, ...] = normalized.steps
payload: dict[str, object] = mp.render(messages, "openai", urls="inline")
tokens: int = mp.estimate_tokens(photo, "openai", model="gpt-4o", detail="low")
counted: mp.TokenCount = mp.count_tokens(messages, "anthropic", model="claude-sonnet-4-5")
first: mp.MessageTokens = counted.messages[0]
unknown: tuple[mp.PartTokens, ...] = counted.unknown
how: str = first.parts[0].how
ratio = mp.providers.TextRule(chars_per_token=3.0, approximation="measured: 3 a token")
texts: mp.Provider = mp.providers.get("gemini").with_rules(
    text=(mp.providers.ModelRule("gemini-*", ratio),), text_source="measured (2026-11)"
)
trimmed: list[mp.Message] = mp.trim(messages, "anthropic", max_tokens=100_000, shrink_images=True)


def my_count(conversation: list[mp.Message]) -> int:
    return sum(len(m.text) // 4 for m in conversation)


counted_mine: list[mp.Message] = mp.trim(
    messages, "openai", max_tokens=8_000, token_counter=my_count
)
settings = mp.Options(model="gpt-4o", urls="inline", on_loss="drop", foreign_reasoning="text")
same_settings: dict[str, object] = mp.render(messages, "openai", options=settings)
counted_too: int = mp.estimate_tokens(messages, "openai", options=settings)
one_part: mp.PartLike = {"path": "a.jpg"}
conversation: mp.Conversation = [mp.User("hi"), mp.Assistant("hello")]
violations: list[mp.Violation] = mp.check(payload, "openai")
roomy: mp.Provider = mp.providers.get("anthropic").with_rules(image_max_bytes=10 * 2**20)
sonnet = mp.Price(3, 15, cache_read="0.30", cache_write=Decimal("3.75"), source="price page")
prices: mp.Prices = {"claude-sonnet-*": sonnet}
used = mp.Usage(input_tokens=1200, cache_read_tokens=1000, output_tokens=80, reasoning_tokens=20)
spent: mp.Cost = mp.cost(used, "anthropic", model="claude-sonnet-4-5", prices=prices)
total: Decimal = spent.total
ahead: mp.Cost = mp.cost(messages, "openai", model="gpt-4o", output_tokens=500, prices=sonnet)
policy = mp.FetchPolicy(timeout=5.0, max_bytes=2**20)
with mp.offline():
    pass

# Batch files: lines, the writer, the whole run, and the results read back.
line: bytes = mp.batch_line("img-1", messages, "anthropic", model="m", params={"max_tokens": 9})
with mp.BatchWriter("anthropic", "out", max_requests=1000) as batch_writer:
    batch_writer.add("img-1", line)
batch_files: list[mp.BatchFile] = batch_writer.close()
written_files: list[mp.BatchFile] = mp.write_batch(
    [("img-1", messages)], "openai", "out", model="m", workers=2, progress=print
)
for batch_result in mp.read_batch_results(Path("results.jsonl"), "openai"):
    answer: mp.Assistant | None = batch_result.message
    failure: mp.BatchError | mp.MediaError | None = batch_result.error
    result_id: str | None = batch_result.custom_id
# Provider file uploads: the client is any SDK client (typed Any), the answer a reference.
sdk_client: object = object()
reference: mp.MediaPart = mp.upload(photo, "gemini", client=sdk_client, cache=None)
in_bucket: mp.MediaPart = mp.upload(
    Path("report.pdf"), "bedrock", client=sdk_client, location="s3://bucket/llm/"
)
kept: mp.UploadCache = mp.SqliteUploadCache("uploads.sqlite3", timeout=2.0)
in_memory: mp.UploadCache = mp.MemoryUploadCache()
entry: mp.UploadCacheEntry | None = kept.get(mp.UploadCacheKey("gemini", "acct", "0" * 64))
uploader = mp.Uploader(sdk_client, cache=in_memory, min_bytes=10 * 2**20)
by_reference: dict[str, object] = mp.render(messages, "gemini", urls="upload", uploader=uploader)
store_rules: mp.providers.FileStoreRules | None = (
    files.rules if (files := mp.providers.get("gemini").files) is not None else None
)


async def upload_later() -> mp.MediaPart:
    """`aupload` and `arender` with an uploader, as async code writes them."""
    await mp.arender(messages, "anthropic", urls="upload", uploader=uploader)
    return await mp.aupload(photo, "anthropic", client=sdk_client, cache=in_memory)


def prepare(rows: ray.data.Dataset) -> list[mp.BatchFile]:
    """The Ray path (the [ray] extra): rows in, datasets and batch files out."""
    fitted: ray.data.Dataset = normalize_dataset(rows, "anthropic", base_dir="photos")
    payloads = render_dataset(fitted, "openai", prompt="prompt", media="data", errors="keep")
    del payloads
    return write_batch_dataset(rows, "openai", "out", model="gpt-4o", max_requests=1000)
