"""Run in the peer environment: turn a photo into Anthropic and OpenAI content blocks, per peer.

Reads a JSON job on stdin, {"photo": path, "out": dir, "repeat": n}. For each peer that
imports, times "bytes in, content block out" for both providers, writes the request payload
each one produces to `<out>/<peer>-<provider>.json` (so mediaparts can `check` it in its own
environment) and prints JSON: {peer: {"version", "anthropic", "openai", "how"}}.

Each peer is driven through the code its own request path runs (read from its installed
source); where that is a private function it is named in "how":

- pydantic-ai: `BinaryContent(data, media_type=...)` (the caller must give the type), mapped by
  `AnthropicModel._map_file_to_content_block` (whose BytesIO anthropic's SDK base64-encodes at
  send time: encoded here) and `OpenAIChatModel._map_binary_content_item`.
- instructor: `Image.autodetect(bytes)`, then `.to_anthropic()` / `.to_openai(Mode.TOOLS)`.
- llama-index: `ChatMessage(blocks=[TextBlock, ImageBlock(image=bytes)])`, mapped by
  `llama_index.llms.anthropic.utils.messages_to_anthropic_messages` and
  `llama_index.llms.openai.utils.to_openai_message_dicts`.
- llm: `Attachment(content=bytes)`, mapped by `llm_anthropic.source_for_attachment` and
  `llm.default_plugins.openai_models._attachment`.
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

# The harness beside this folder: only the standard library, so it imports in the peers' venv.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import median_time

TEXT = "Describe this photo."
Build = Callable[[bytes], dict[str, Any]]


def _user(blocks: list[Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"type": "text", "text": TEXT}, *blocks]}]}


def pydantic_ai() -> tuple[str, Build, Build, str]:
    from pydantic_ai.messages import BinaryContent
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    openai_model = OpenAIChatModel("gpt-4o", provider=OpenAIProvider(api_key="unused"))

    def anthropic(data: bytes) -> dict[str, Any]:
        item = BinaryContent(data=data, media_type="image/jpeg")
        block = asyncio.run(AnthropicModel._map_file_to_content_block(item, "user prompts"))
        # The block holds a BytesIO, which anthropic's SDK reads and base64-encodes as it
        # prepares the body: that encoding is part of the work, and makes the payload sendable.
        source = block.get("source", {})
        if hasattr(source.get("data"), "getvalue"):
            source["data"] = base64.b64encode(source["data"].getvalue()).decode()
        return {"max_tokens": 1024, **_user([block])}

    def openai(data: bytes) -> dict[str, Any]:
        item = BinaryContent(data=data, media_type="image/jpeg")
        block = asyncio.run(openai_model._map_binary_content_item(item))
        return _user([block])

    how = "BinaryContent → AnthropicModel/OpenAIChatModel mapping (private methods)"
    return version("pydantic-ai-slim"), anthropic, openai, how


def instructor() -> tuple[str, Build, Build, str]:
    from instructor import Image, Mode

    def anthropic(data: bytes) -> dict[str, Any]:
        return {"max_tokens": 1024, **_user([Image.autodetect(data).to_anthropic()])}

    def openai(data: bytes) -> dict[str, Any]:
        return _user([Image.autodetect(data).to_openai(Mode.TOOLS)])

    return version("instructor"), anthropic, openai, "Image.autodetect → to_anthropic/to_openai"


def llama_index() -> tuple[str, Build, Build, str]:
    from llama_index.core.llms import ChatMessage, ImageBlock, TextBlock
    from llama_index.llms.anthropic.utils import messages_to_anthropic_messages
    from llama_index.llms.openai.utils import to_openai_message_dicts

    def message(data: bytes) -> list[Any]:
        return [ChatMessage(role="user", blocks=[TextBlock(text=TEXT), ImageBlock(image=data)])]

    def anthropic(data: bytes) -> dict[str, Any]:
        messages, _system = messages_to_anthropic_messages(message(data))
        return {"max_tokens": 1024, "messages": list(messages)}

    def openai(data: bytes) -> dict[str, Any]:
        return {"messages": to_openai_message_dicts(message(data))}

    how = "ImageBlock → messages_to_anthropic_messages / to_openai_message_dicts"
    return version("llama-index-core"), anthropic, openai, how


def llm() -> tuple[str, Build, Build, str]:
    from llm import Attachment
    from llm.default_plugins.openai_models import _attachment
    from llm_anthropic import source_for_attachment

    def anthropic(data: bytes) -> dict[str, Any]:
        source = source_for_attachment(Attachment(content=data))
        return {"max_tokens": 1024, **_user([{"type": "image", "source": source}])}

    def openai(data: bytes) -> dict[str, Any]:
        return _user([_attachment(Attachment(content=data))])

    how = "Attachment → llm_anthropic.source_for_attachment / openai_models._attachment"
    return version("llm"), anthropic, openai, how


PEERS = {
    "pydantic-ai": pydantic_ai,
    "instructor": instructor,
    "llama-index": llama_index,
    "llm": llm,
}


def main() -> None:
    job = json.load(sys.stdin)
    data = Path(job["photo"]).read_bytes()
    out = Path(job["out"])
    results: dict[str, Any] = {}
    for name, load in PEERS.items():
        try:
            ver, anthropic, openai, how = load()
        except ImportError as exc:
            results[name] = {"error": f"not installed ({exc.name or exc})"}
            continue
        entry: dict[str, Any] = {"version": ver, "how": how}
        for provider, build in (("anthropic", anthropic), ("openai", openai)):
            try:
                payload = build(data)
            except Exception as exc:
                entry[provider] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
                continue
            path = out / f"{name}-{provider}.json"
            path.write_text(json.dumps(payload, default=str))
            entry[provider] = {
                "seconds": median_time(lambda b=build: b(data), repeat=job["repeat"]),
                "payload": str(path),
            }
        results[name] = entry
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
