"""The same job with mediaparts and with its peers: a camera photo to an Anthropic/OpenAI block.

The photo is a 24 MP, 5 MB camera JPEG stored sideways with EXIF Orientation=6, as phones
write them. mediaparts runs `mp.render([mp.User(text, files=[part])], provider)`; each peer
runs in the peer environment (`peers/content_blocks.py`) and writes the payload it built,
which is then checked here with `mp.check(payload, provider)` and opened to see what it sends:
its pixel size, whether it was resized, whether the EXIF rotation was applied or left to the
provider. A peer that only base64-encodes is faster because it does less: the table says so.
"""

from __future__ import annotations

import base64
import io
import json
import tempfile
from pathlib import Path
from typing import Any

import inputs
from harness import PeerUnavailable, Row, cache_dir, median_time, run_peer
from PIL import Image

import mediaparts as mp

TEXT = "Describe this photo."
PROVIDERS = ("anthropic", "openai")


def _image_b64(payload: dict[str, Any]) -> str | None:
    """The base64 of the first image in a rendered Anthropic or OpenAI payload."""
    for message in payload.get("messages", []):
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "image" and block.get("source", {}).get("type") == "base64":
                return str(block["source"]["data"])
            if block.get("type") == "image_url":
                url = block["image_url"]["url"]
                return str(url.split(",", 1)[1]) if url.startswith("data:") else None
    return None


def describe(payload: dict[str, Any], provider: str) -> str:
    """What the payload sends, and what `mp.check` says the provider would refuse."""
    encoded = _image_b64(payload)
    if encoded is None:
        return "no inline image found in the payload"
    try:  # a peer release may send something else (a truncated or re-wrapped string)
        data = base64.b64decode(encoded, validate=True)
        with Image.open(io.BytesIO(data)) as image:
            orientation = image.getexif().get(0x0112, 1)
            size = f"{image.width}x{image.height}"
    except (ValueError, OSError) as exc:
        return f"sends an image block whose data is not a readable base64 image ({exc})"
    rotation = "EXIF rotation left to the provider" if orientation != 1 else "upright"
    violations = mp.check(payload, provider)
    verdict = (
        "**rejected**: " + "; ".join(f"{v.rule} ({v.message})" for v in violations)
        if violations
        else "accepted by check()"
    )
    return f"sends {size}, {len(encoded) / 1e6:.2f} MB base64, {rotation}; {verdict}"


def _ours(data: bytes, provider: str) -> tuple[float, dict[str, Any]]:
    def job() -> dict[str, Any]:
        return mp.render([mp.User(TEXT, files=[mp.ImagePart.from_bytes(data)])], provider)

    return median_time(job, repeat=5), job()


def run(repeat: int = 5) -> tuple[list[Row], str]:
    data = inputs.camera_jpeg()
    photo = cache_dir() / "camera-6000x4000-q95-orient6.jpg"
    ours = {p: _ours(data, p) for p in PROVIDERS}
    rows = []
    lines = [
        f"The photo: 6000x4000 camera JPEG, {len(data) / 1e6:.1f} MB, EXIF Orientation=6. "
        "“sends” is what the payload carries; “rejected” is `mp.check(payload, provider)`.\n",
        "| library | provider | time | what it sends |",
        "|---|---|---|---|",
    ]
    for provider, (seconds, payload) in ours.items():
        lines.append(
            f"| mediaparts {mp.__version__} | {provider} | {seconds * 1e3:.1f} ms "
            f"| {describe(payload, provider)} |"
        )
    with tempfile.TemporaryDirectory() as out:
        try:
            peers = run_peer(
                "content_blocks.py", {"photo": str(photo), "out": out, "repeat": repeat}
            )
        except PeerUnavailable as exc:
            peers = {
                name: {"error": str(exc)}
                for name in ("pydantic-ai", "instructor", "llama-index", "llm")
            }
        for name, entry in peers.items():
            for provider in PROVIDERS:
                label = f"photo → {provider} content block, vs {name}"
                result = entry.get(provider) if "error" not in entry else entry
                if result is None or "error" in result:
                    why = result["error"] if result else "no result"
                    rows.append(Row(label, ours[provider][0], 0.0, "", note=f"{name}: {why}"))
                    lines.append(f"| {name} | {provider} | — | {why} |")
                    continue
                what = describe(json.loads(Path(result["payload"]).read_text()), provider)
                rows.append(
                    Row(
                        label,
                        ours[provider][0],
                        result["seconds"],
                        f"{name} {entry['version']}",
                        target="no target (the peers do less)",
                        note=f"{name} {what}",
                    )
                )
                lines.append(
                    f"| {name} {entry['version']} | {provider} | "
                    f"{result['seconds'] * 1e3:.1f} ms | {what} ({entry['how']}) |"
                )
    return rows, "\n".join(lines) + "\n"
