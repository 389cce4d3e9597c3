"""Run in the peer environment: conversations to request payloads, and token counts, per peer.

Reads a JSON job on stdin:

    {"turns": [[role, text], ...],               the text conversation (system first)
     "photos": [[role, text, path or null], ...], the conversation with photos
     "dicts": [...],                              the text conversation as OpenAI message dicts
     "mixed": [...],                              OpenAI dicts with tool calls and image URLs
     "out": dir, "repeat": n, "peers": [names]}  ("peers" optional: all of them by default)

For each peer that imports, times each job (a conversation built once in the peer's own
message types, then turned into a request payload, or counted), writes each payload to
`<out>/<peer>-<job>.json` (so mediaparts can `check` it in its own environment), and prints
JSON: {peer: {"version", "how", "jobs": {job: {"seconds", "payload"} | {"seconds", "tokens"}
| {"error"}}}}. A job is named `<group>/<conversation>/<provider>`: group `messages` (from the
peer's own message types), `dicts` (from OpenAI message dicts) or `count`.

Each peer is driven through the code its own request path runs (read from its installed
source); the private functions are named in "how":

- litellm: its messages are OpenAI dicts. `completion()` runs `validate_and_fix_openai_messages`,
  copies the list, then the provider's transformation: `AnthropicConfig().transform_request`,
  `OpenAIGPTConfig().transform_request`, and for gemini `transform_request_body` (what
  `completion(model="gemini/...")` builds its body with). Counting: `litellm.token_counter`.
- langchain: `SystemMessage`/`HumanMessage`/`AIMessage` (from dicts: `convert_to_messages`),
  then `ChatAnthropic._get_request_payload` / `ChatOpenAI._get_request_payload` (the payload
  its `invoke` sends), with a dummy key and no network. Counting:
  `ChatOpenAI.get_num_tokens_from_messages` (tiktoken).
- pydantic-ai: `ModelRequest`/`ModelResponse` with `BinaryContent` photos, mapped by
  `AnthropicModel._map_message` and `OpenAIChatModel._map_messages` (private methods, run on
  one event loop); for Anthropic the photos' base64, which its SDK encodes at send time, is
  encoded here. It has no reader of OpenAI dicts and no offline count.
- tiktoken alone (the peers' tokenizer): `encode_ordinary` over the texts, the count's floor.

tiktoken downloads its encodings at first use; offline, `o200k_base` is read from the copy
litellm ships in its wheel (TIKTOKEN_CACHE_DIR), when litellm is installed.
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

# The harness beside this folder: only the standard library, so it imports in the peers' venv.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness import median_time

# litellm fetches its model price map from GitHub on import unless told to use its own copy.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

ANTHROPIC_MODEL = "claude-sonnet-4-5"
OPENAI_MODEL = "gpt-4o"
GEMINI_MODEL = "gemini-2.5-flash"

Jobs = dict[str, Callable[[], Any]]
Photo = tuple[str, bytes]  # (base64, raw bytes)


def _tiktoken_offline() -> None:
    """Point tiktoken at litellm's bundled encodings, when it has no cache of its own."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return
    bundled = Path(spec.submodule_search_locations[0]) / "litellm_core_utils" / "tokenizers"
    if bundled.is_dir():
        os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(bundled))


def _photos(job: dict[str, Any]) -> dict[str, Photo]:
    paths = {p for _, _, p in job["photos"] if p}
    raw = {p: Path(p).read_bytes() for p in paths}
    return {p: (base64.b64encode(data).decode(), data) for p, data in raw.items()}


def _photo_dicts(job: dict[str, Any], photos: dict[str, Photo]) -> list[dict[str, Any]]:
    """The photo conversation as OpenAI dicts, each photo a base64 data URL (as apps send it)."""
    out: list[dict[str, Any]] = []
    for role, text, path in job["photos"]:
        if path is None:
            out.append({"role": role, "content": text})
            continue
        url = f"data:image/jpeg;base64,{photos[path][0]}"
        blocks = [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": url}}]
        out.append({"role": role, "content": blocks})
    return out


def litellm(job: dict[str, Any], photos: dict[str, Photo]) -> tuple[str, str, Jobs]:
    import litellm as lib
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    from litellm.llms.openai.chat.gpt_transformation import OpenAIGPTConfig
    from litellm.llms.vertex_ai.gemini.transformation import transform_request_body
    from litellm.utils import validate_and_fix_openai_messages

    anthropic, openai = AnthropicConfig(), OpenAIGPTConfig()

    def body(provider: str, given: list[dict[str, Any]]) -> dict[str, Any]:
        messages = validate_and_fix_openai_messages(messages=list(given)).copy()
        if provider == "anthropic":
            return anthropic.transform_request(ANTHROPIC_MODEL, messages, {}, {}, {})
        if provider == "openai":
            return openai.transform_request(OPENAI_MODEL, messages, {}, {}, {})
        return dict(transform_request_body(messages, GEMINI_MODEL, {}, "gemini", {}, None))

    text = [{"role": r, "content": t} for r, t in job["turns"]]
    conversations = {"text": text, "photos": _photo_dicts(job, photos)}
    jobs: Jobs = {}
    for provider in ("openai", "anthropic", "gemini"):
        for name, given in conversations.items():
            jobs[f"messages/{name}/{provider}"] = lambda p=provider, g=given: body(p, g)
        jobs[f"dicts/text/{provider}"] = lambda p=provider: body(p, job["dicts"])
        jobs[f"dicts/mixed/{provider}"] = lambda p=provider: body(p, job["mixed"])
    jobs["count/text/openai"] = lambda: lib.token_counter(model=OPENAI_MODEL, messages=text)
    how = (
        "OpenAI dicts → validate_and_fix_openai_messages → AnthropicConfig/OpenAIGPTConfig"
        ".transform_request, gemini transform_request_body; token_counter"
    )
    return version("litellm"), how, jobs


def langchain(job: dict[str, Any], photos: dict[str, Photo]) -> tuple[str, str, Jobs]:
    from langchain_anthropic import ChatAnthropic
    from langchain_core.messages import (
        AIMessage,
        BaseMessage,
        HumanMessage,
        SystemMessage,
        convert_to_messages,
    )
    from langchain_openai import ChatOpenAI

    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    text: list[BaseMessage] = [kinds[r](t) for r, t in job["turns"]]
    with_photos: list[BaseMessage] = []
    for role, said, path in job["photos"]:
        if path is None:
            with_photos.append(kinds[role](said))
            continue
        # LangChain's standard (provider-neutral) image block, base64 inline.
        image = {"type": "image", "base64": photos[path][0], "mime_type": "image/jpeg"}
        with_photos.append(HumanMessage([{"type": "text", "text": said}, image]))
    models = {
        "anthropic": ChatAnthropic(model=ANTHROPIC_MODEL, api_key="unused"),
        "openai": ChatOpenAI(model=OPENAI_MODEL, api_key="unused"),
    }
    jobs: Jobs = {}
    for provider, model in models.items():
        payload = model._get_request_payload
        jobs[f"messages/text/{provider}"] = lambda f=payload: f(text)
        jobs[f"messages/photos/{provider}"] = lambda f=payload: f(with_photos)
        for name in ("text", "mixed"):
            given = job["dicts" if name == "text" else "mixed"]
            jobs[f"dicts/{name}/{provider}"] = lambda f=payload, g=given: f(convert_to_messages(g))
    counter = models["openai"]
    jobs["count/text/openai"] = lambda: counter.get_num_tokens_from_messages(text)
    how = (
        "BaseMessage (convert_to_messages from dicts) → ChatAnthropic/ChatOpenAI"
        "._get_request_payload; ChatOpenAI.get_num_tokens_from_messages"
    )
    return version("langchain-core"), how, jobs


def pydantic_ai(job: dict[str, Any], photos: dict[str, Photo]) -> tuple[str, str, Jobs]:
    from anthropic import AsyncAnthropic
    from pydantic_ai.messages import (
        BinaryContent,
        ModelMessage,
        ModelRequest,
        ModelResponse,
        SystemPromptPart,
        TextPart,
        UserPromptPart,
    )
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.anthropic import AnthropicProvider
    from pydantic_ai.providers.openai import OpenAIProvider

    def history(turns: list[tuple[str, Any]]) -> list[ModelMessage]:
        """pydantic-ai's history: requests (system and user parts) and responses, in turn."""
        out: list[ModelMessage] = []
        pending: list[Any] = []
        for role, content in turns:
            if role == "system":
                pending.append(SystemPromptPart(content))
            elif role == "user":
                out.append(ModelRequest(parts=[*pending, UserPromptPart(content)]))
                pending = []
            else:
                out.append(ModelResponse(parts=[TextPart(content)]))
        return out

    text = history([(r, t) for r, t in job["turns"]])
    with_photos = history(
        [
            (r, [t, BinaryContent(photos[p][1], media_type="image/jpeg")] if p else t)
            for r, t, p in job["photos"]
        ]
    )
    # The SDK's own client: the anthropic SDK now runs on httpx2, and pydantic-ai 2.31 would
    # hand it an httpx client, which it refuses; a client given whole is used as it is.
    client = AsyncAnthropic(api_key="unused")
    anthropic = AnthropicModel(ANTHROPIC_MODEL, provider=AnthropicProvider(anthropic_client=client))
    openai = OpenAIChatModel(OPENAI_MODEL, provider=OpenAIProvider(api_key="unused"))
    parameters = ModelRequestParameters()
    loop = asyncio.new_event_loop()

    def to_anthropic(messages: list[ModelMessage]) -> dict[str, Any]:
        system, mapped = loop.run_until_complete(anthropic._map_message(messages, parameters, {}))
        # pydantic-ai leaves each image as a BytesIO, which anthropic's SDK reads and
        # base64-encodes as it prepares the body: that encoding is part of this request's work.
        for message in mapped:
            for block in message["content"] if isinstance(message["content"], list) else ():
                source = block.get("source", {})
                if hasattr(source.get("data"), "getvalue"):
                    source["data"] = base64.b64encode(source["data"].getvalue()).decode()
        return {"model": ANTHROPIC_MODEL, "max_tokens": 1024, "system": system, "messages": mapped}

    def to_openai(messages: list[ModelMessage]) -> dict[str, Any]:
        mapped = loop.run_until_complete(openai._map_messages(messages, parameters))
        return {"model": OPENAI_MODEL, "messages": mapped}

    jobs: Jobs = {}
    for provider, render in (("anthropic", to_anthropic), ("openai", to_openai)):
        jobs[f"messages/text/{provider}"] = lambda f=render: f(text)
        jobs[f"messages/photos/{provider}"] = lambda f=render: f(with_photos)
    how = "ModelRequest/ModelResponse → AnthropicModel._map_message / OpenAIChatModel._map_messages"
    return version("pydantic-ai-slim"), how, jobs


def tiktoken(job: dict[str, Any], photos: dict[str, Photo]) -> tuple[str, str, Jobs]:
    import tiktoken as lib

    encoding = lib.get_encoding("o200k_base")
    texts = [t for _, t in job["turns"]]

    def count() -> int:
        return sum(len(encoding.encode_ordinary(t)) for t in texts)

    return (
        version("tiktoken"),
        "o200k_base encode_ordinary over the texts alone",
        {"count/text/openai": count},
    )


PEERS = {
    "litellm": litellm,
    "langchain": langchain,
    "pydantic-ai": pydantic_ai,
    "tiktoken": tiktoken,
}


def _run(jobs: Jobs, name: str, out: Path, repeat: int) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for key, fn in jobs.items():
        try:
            value = fn()
        except Exception as exc:  # a peer's own failure is a finding, reported in the row
            results[key] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            continue
        entry: dict[str, Any] = {"seconds": median_time(fn, repeat=repeat)}
        if isinstance(value, int):
            entry["tokens"] = value
        else:
            path = out / f"{name}-{key.replace('/', '-')}.json"
            path.write_text(json.dumps(value, default=str))
            entry["payload"] = str(path)
        results[key] = entry
    return results


def main() -> None:
    job = json.load(sys.stdin)
    _tiktoken_offline()
    photos = _photos(job)
    out = Path(job["out"])
    only = set(job.get("peers") or PEERS)
    results: dict[str, Any] = {}
    for name, load in PEERS.items():
        if name not in only:
            continue
        try:
            ver, how, jobs = load(job, photos)
        except ImportError as exc:
            results[name] = {"error": f"not installed ({exc.name or exc})"}
            continue
        except Exception as exc:  # a peer that cannot start is a finding, not a crash
            results[name] = {"error": f"{type(exc).__name__}: {exc}"[:300]}
            continue
        results[name] = {"version": ver, "how": how, "jobs": _run(jobs, name, out, job["repeat"])}
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
