"""API examples the type checker must accept (run: mypy --strict tests/typing).

Not collected by pytest (no test_ prefix); CI type-checks it with the sources.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import mediaparts as mp

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
violations: list[mp.Violation] = mp.check(payload, "openai")
roomy: mp.Provider = mp.providers.get("anthropic").with_rules(image_max_bytes=10 * 2**20)
policy = mp.FetchPolicy(timeout=5.0, max_bytes=2**20)
with mp.offline():
    pass
