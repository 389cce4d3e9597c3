"""Every request's paths, side by side with litellm, langchain and pydantic-ai.

Three jobs an application runs on each request, on the same conversations in every library:

- render from messages: a conversation held in the library's own message types → the provider's
  request payload. 1,000 text messages (`bench_count.text_conversation`), and 20 messages with two
  12 MP phone photos stored sideways (EXIF Orientation=6), rendered again and again as a chat
  does (mediaparts remembers what it fitted: the row times the later renders, the note the first);
- render from dicts: OpenAI Chat Completions message dicts in → a provider's payload out
  (ours: `mp.render(mp.messages_from(dicts, "openai"), provider)`): the 1,000 text messages, and
  100 messages with tool calls and image URLs;
- count: `mp.count_tokens(messages, "openai", model="gpt-4o")` against each peer's count.

The peers run in the peer environment (`peers/request_payloads.py`, which says which of their
functions it drives); each payload they build is checked here with `mp.check(payload, provider)`.
Each row's note gives the floor: the target dicts built by hand (as `bench_render` does), or the
tokenizer alone over the texts. The rows are for reference: the peers do less (they send photos as
they were given, unchecked) or more (pydantic-ai encodes its photos' base64 on every request).
"""

from __future__ import annotations

import base64
import functools
import io
import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import inputs
from bench_count import text_conversation
from bench_render import _FLOORS
from harness import PeerUnavailable, Row, median_time, run_peer
from PIL import Image

import mediaparts as mp
from mediaparts.testing import MediaFactory

PROVIDERS = ("openai", "anthropic", "gemini")
PEERS = ("litellm", "langchain", "pydantic-ai", "tiktoken")
PHOTO_AT = (3, 13)  # the user messages of the 20 that carry a photo
NO_TARGET = "no target (for reference)"
Jobs = dict[str, Callable[[], Any]]


@dataclass(frozen=True)
class Sizes:
    """How big the conversations are (smaller in the smoke test)."""

    messages: int = 1000
    photo: tuple[int, int] = (4032, 3024)  # a 12 MP phone photo, as stored (sideways)

    def label(self, key: str) -> str:
        """A row's name for a job `<group>/<conversation>/<provider>`."""
        group, provider = key.rsplit("/", 1)
        text = f"{self.messages:,} text messages"
        photos = "20 messages with two {}x{} EXIF-rotated photos".format(*self.photo)
        return {
            "messages/text": f"render {provider}, {text} in each library's own types",
            "messages/photos": f"render {provider} again, {photos}",
            "dicts/text": f"OpenAI dicts → {provider} payload, {text}",
            "dicts/mixed": f"OpenAI dicts → {provider} payload, 100 messages with tool calls and "
            "image URLs",
            "count/text": f"count_tokens, {text}, {provider} (gpt-4o)",
        }[group]


def mixed_dicts(blocks: int = 25) -> list[dict[str, Any]]:
    """OpenAI message dicts: a system message, then `blocks` runs of a user turn (every other
    one with an image URL), a tool call, its result and the assistant's answer."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are a careful analyst."}]
    for i in range(blocks):
        ask = f"How did region {i} do last quarter? Compare it with the chart."
        content: Any = ask
        if i % 2 == 0:
            url = f"https://example.com/charts/region-{i}.png"
            content = [
                {"type": "text", "text": ask},
                {"type": "image_url", "image_url": {"url": url}},
            ]
        call = {
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": "revenue", "arguments": json.dumps({"region": i, "q": 3})},
        }
        out += [
            {"role": "user", "content": content},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"call_{i}", "content": f"revenue {i * 7 + 3} M"},
            {"role": "assistant", "content": f"Region {i} grew by {i % 5 + 1} %."},
        ]
    return out


def photo_conversation(photos: list[bytes]) -> list[mp.Message]:
    """20 messages of text; the users at PHOTO_AT carry one photo each, as fresh parts."""
    messages = text_conversation(20)
    for at, data in zip(PHOTO_AT, photos, strict=True):
        text = "".join(p.text for p in messages[at].parts if isinstance(p, mp.TextPart))
        messages[at] = mp.User(text, files=[mp.ImagePart.from_bytes(data)])
    return messages


def _turns(messages: list[mp.Message]) -> list[tuple[str, str]]:
    return [
        (m.role, "".join(p.text for p in m.parts if isinstance(p, mp.TextPart))) for m in messages
    ]


def _images(payload: Any) -> list[str]:
    """Every inline base64 image in a payload of any of the three wires."""
    found: list[str] = []
    if isinstance(payload, dict):
        source = payload.get("source")
        if payload.get("type") == "image" and isinstance(source, dict) and "data" in source:
            found.append(str(source["data"]))
        url = payload.get("image_url", {}).get("url") if payload.get("type") == "image_url" else ""
        if isinstance(url, str) and url.startswith("data:"):
            found.append(url.split(",", 1)[1])
        for key in ("inlineData", "inline_data"):
            if isinstance(payload.get(key), dict):
                found.append(str(payload[key]["data"]))
        for value in payload.values():
            found += _images(value) if isinstance(value, dict | list) else []
    elif isinstance(payload, list):
        for value in payload:
            found += _images(value)
    return found


def _sent(payload: Any) -> str:
    """What a payload's images are: pixel size, and "sideways" when the EXIF rotation is left to
    the provider."""
    shown = []
    for encoded in _images(payload):
        try:
            with Image.open(io.BytesIO(base64.b64decode(encoded, validate=True))) as image:
                turned = image.getexif().get(0x0112, 1) != 1
                shown.append(
                    f"{image.width}x{image.height}{' sideways' if turned else ''} "
                    f"({len(encoded) / 1e3:,.0f} KB base64)"
                )
        except (ValueError, OSError) as exc:
            shown.append(f"an unreadable image ({exc})")
    return "sends " + ", ".join(shown) if shown else "no inline image"


def verdict(payload: dict[str, Any], provider: str) -> str:
    """`mp.check` of a payload, in a few words."""
    violations = mp.check(payload, provider)
    if not violations:
        return "accepted by check()"
    named = "; ".join(f"{v.rule} at {v.path}" for v in violations[:2])
    more = f" (+{len(violations) - 2} more)" if len(violations) > 2 else ""
    return f"**rejected** by check(): {named}{more}"


def _floors(turns: list[tuple[str, str]], dicts: list[dict[str, Any]]) -> dict[str, float]:
    """The least any library can do for each job: the target dicts by hand, or the tokenizer."""
    from mediaparts.providers._budgets import _tokenizer

    floors = {}
    for p in PROVIDERS:
        floors[f"messages/text/{p}"] = median_time(functools.partial(_FLOORS[p], turns))
        floors[f"dicts/text/{p}"] = median_time(
            lambda p=p: _FLOORS[p]([(d["role"], d["content"]) for d in dicts])
        )
    encoder = _tokenizer.encoder("o200k_base")
    if encoder is not None:
        texts = [t for _, t in turns]
        floors["count/text/openai"] = median_time(
            lambda: [encoder.encode_ordinary(t) for t in texts]
        )
    return floors


def _floor_note(key: str, floors: dict[str, float]) -> str:
    """The floor of a job, for its rows' note ("" when it has none)."""
    if key not in floors:
        return ""
    what = "bpe-openai encode alone" if key.startswith("count") else "the dicts by hand"
    return f"floor ({what}): {floors[key] * 1e3:.2f} ms"


def _tokens_note(theirs: int, ours: Any) -> str:
    """A peer's count against ours: the whole count, or (the bare tokenizer) the texts' part."""
    texts = sum(p.tokens for m in ours.messages for p in m.parts if p.kind == "text")
    if theirs == ours.total:
        return f"counts {theirs:,} tokens, as ours does"
    if theirs == texts:
        return (
            f"counts {theirs:,} tokens, our texts' part (ours adds {ours.total - texts:,} framing)"
        )
    return f"counts {theirs:,} tokens, ours {ours.total:,}"


def _peer_note(key: str, peer: str, result: dict[str, Any], ours: Any) -> str:
    """What a peer's result is: its count, or its payload's photos and `mp.check`'s verdict."""
    if "tokens" in result:
        return f"{peer} {_tokens_note(result['tokens'], ours)}"
    payload = json.loads(Path(result["payload"]).read_text())
    sent = f"{_sent(payload)}; " if key.startswith("messages/photos") else ""
    return f"{peer} {sent}{verdict(payload, key.rsplit('/', 1)[1])}"


def _ours(
    text: list[mp.Message], photos: list[mp.Message], dicts: list[Any], mixed: list[Any]
) -> Jobs:
    """Our call for each job, in the order of the rows."""
    jobs: Jobs = {}
    for p in PROVIDERS:
        jobs[f"messages/text/{p}"] = functools.partial(mp.render, text, p)
    for p in PROVIDERS:
        jobs[f"messages/photos/{p}"] = functools.partial(mp.render, photos, p)
    for name, given in (("text", dicts), ("mixed", mixed)):
        for p in PROVIDERS:
            jobs[f"dicts/{name}/{p}"] = lambda g=given, p=p: mp.render(
                mp.messages_from(g, "openai"), p
            )
    jobs["count/text/openai"] = lambda: mp.count_tokens(text, "openai", model="gpt-4o")
    return jobs


def _first_render(photos: list[bytes], provider: str) -> float:
    """Seconds of a render of freshly made photo parts."""
    fresh = photo_conversation(photos)
    start = time.perf_counter()
    mp.render(fresh, provider)
    return time.perf_counter() - start


def run(sizes: Sizes | None = None, repeat: int = 7) -> tuple[list[Row], str]:
    """Time each job for us and for each peer; return the rows and the photo table."""
    sizes = sizes or Sizes()
    text = text_conversation(sizes.messages)
    turns = _turns(text)
    dicts = mp.render(text, "openai")["messages"]
    mixed = mixed_dicts()
    paths = [inputs.phone_jpeg(i, sizes.photo) for i in range(len(PHOTO_AT))]
    raw = [path.read_bytes() for path in paths]
    # One sample each, taken before anything else renders these photos: whatever mediaparts
    # remembers (by part or by content), this render finds nothing fitted yet. A small other
    # photo goes first, so that the lazy imports of the imaging path are not in the sample.
    warm = MediaFactory().image(64, 48, format="jpeg", orientation=6)
    for p in PROVIDERS:
        mp.render([mp.User("warm-up", files=[warm])], p)
    firsts = {p: _first_render(raw, p) for p in PROVIDERS}
    photos = photo_conversation(raw)
    # The photo renders, like the others, run `repeat` times after a warm-up render.
    ours = {
        key: (median_time(fn, repeat=repeat), fn)
        for key, fn in _ours(text, photos, dicts, mixed).items()
    }
    floors = _floors(turns, dicts)
    at = dict(zip(PHOTO_AT, paths, strict=True))
    job = {
        "turns": turns,
        "photos": [
            (role, said, str(at[i]) if i in at else None)
            for i, (role, said) in enumerate(_turns(photos))
        ],
        "dicts": dicts,
        "mixed": mixed,
        "repeat": repeat,
    }
    with tempfile.TemporaryDirectory() as out:
        try:
            peers = run_peer("request_payloads.py", {**job, "out": out})
        except PeerUnavailable as exc:
            peers = {name: {"error": str(exc)} for name in PEERS}
        return _rows(sizes, ours, firsts, floors, peers)


def _rows(
    sizes: Sizes,
    ours: dict[str, tuple[float, Callable[[], Any]]],
    firsts: dict[str, float],
    floors: dict[str, float],
    peers: dict[str, Any],
) -> tuple[list[Row], str]:
    """The rows (ours against each peer, or alone with why), and the table of photos sent."""
    rows: list[Row] = []
    lines = [
        "Photos: two {}x{} JPEGs (q=90) stored sideways with EXIF Orientation=6, in a "
        "20-message conversation rendered again and again. “sends” is what each payload "
        "carries (“sideways”: the rotation is left to the provider); “rejected” is "
        "`mp.check(payload, provider)`.\n".format(*sizes.photo),
        "| library | provider | render again | what it sends |",
        "|---|---|---|---|",
    ]
    for key, (seconds, call) in ours.items():
        provider = key.rsplit("/", 1)[1]
        mine = call()
        photos = key.startswith("messages/photos")
        if photos:
            lines.append(
                f"| mediaparts {mp.__version__} | {provider} | {seconds * 1e3:.1f} ms "
                f"(first {firsts[provider] * 1e3:.0f} ms) | {_sent(mine)}; "
                f"{verdict(mine, provider)} |"
            )
        doing = {peer: e for peer, e in peers.items() if key in e.get("jobs", {})}
        for peer, entry in doing.items():
            result = entry["jobs"][key]
            notes = [_floor_note(key, floors)]
            if photos:
                notes.append(f"our first render {firsts[provider] * 1e3:.0f} ms")
            rows.append(_peer_row(sizes.label(key), key, peer, entry, (seconds, mine), notes))
            if photos and "payload" in result:
                what = _peer_note(key, peer, result, mine).removeprefix(f"{peer} ")
                lines.append(
                    f"| {peer} {entry['version']} | {provider} | "
                    f"{result['seconds'] * 1e3:.1f} ms | {what} |"
                )
        if not doing:
            # The last line of each failure: the cause, without its traceback.
            why = "; ".join(
                sorted({str(e.get("error", "no result")).splitlines()[-1] for e in peers.values()})
            )
            note = "; ".join(n for n in (f"peers: {why}", _floor_note(key, floors)) if n)
            rows.append(Row(sizes.label(key), seconds, 0.0, "", note=note))
    driven = [f"- {peer} {e['version']}: {e['how']}" for peer, e in peers.items() if "how" in e]
    if driven:
        lines += ["", "What each peer runs (`benchmarks/peers/request_payloads.py`):", *driven]
    return rows, "\n".join(lines) + "\n"


def _peer_row(
    label: str,
    key: str,
    peer: str,
    entry: dict[str, Any],
    ours: tuple[float, Any],
    notes: list[str],
) -> Row:
    """One row: our time and result against one peer's, with the peer's payload checked."""
    seconds, mine = ours
    result = entry["jobs"][key]
    label = f"{label}, vs {peer}"
    if "error" in result:
        return Row(label, seconds, 0.0, "", note=f"{peer}: {result['error'][:160]}")
    baseline = f"{peer} {entry['version']}"
    if peer == "tiktoken":
        baseline += " encode alone (o200k_base)"
    return Row(
        label,
        seconds,
        result["seconds"],
        baseline,
        target=NO_TARGET,
        note="; ".join(n for n in (_peer_note(key, peer, result, mine), *notes) if n),
    )
