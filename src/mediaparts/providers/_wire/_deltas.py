"""`Delta`: one piece of a streamed reply, as it arrives, in the same words for every wire."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from mediaparts._conversation._dialogue import Citation
from mediaparts._conversation._messages import StopReason, Usage

__all__ = ["SUMMARY", "Delta", "DeltaKind"]

# The `name` of a reasoning delta that grows the reasoning's summary, not its text.
SUMMARY = "summary"

DeltaKind = Literal[
    "text", "reasoning", "tool_call", "citation", "refusal", "provider", "usage", "stop"
]


class Delta(BaseModel):
    """One piece of a streamed reply: what one stream event added to the message.

    The deltas of a stream, in order, grow `StreamReader.message`: the `text` of the deltas
    of one `index` concatenate to that part's text (a `TextPart`, a `RefusalPart`, a
    `ReasoningPart`'s text or summary), and the `arguments` of a tool call's deltas to its
    arguments (the same JSON value; the same bytes where the API streams the JSON text it
    returns whole, as Chat Completions and Responses do). A reasoning part's deltas add up to
    its `text`, and those named `"summary"` to its summaries, joined (`"".join(part.summary)`).

    Attributes:
        kind: What grew: `"text"`, `"reasoning"` (thinking, or a reasoning summary),
            `"tool_call"`, `"citation"` (a citation or annotation was added to a text part),
            `"refusal"`, `"provider"` (a block the parts do not model, such as a server
            tool's, began or grew: `name` is its type), `"usage"` (the API reported token
            counts) or `"stop"` (the API said why it stopped).
        index: The position in `message.parts` of the part it grows; None for `"usage"` and
            `"stop"`, which grow the message itself.
        text: The fragment of text; for `"stop"`, the API's own stop reason.
        id: A tool call's id (on its first delta, where the API sends it then).
        name: A tool call's name (on its first delta), a provider block's type, or
            `"summary"` on a reasoning delta that grows the reasoning's summary.
        arguments: A fragment of a tool call's JSON arguments.
        citation: The citation a `"citation"` delta added.
        usage: The message's usage so far (`"usage"`).
        stop_reason: Why it stopped, in the common vocabulary (`"stop"`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: DeltaKind
    index: int | None = None
    text: str = ""
    id: str | None = None
    name: str | None = None
    arguments: str = ""
    citation: Citation | None = None
    usage: Usage | None = None
    stop_reason: StopReason | None = None
