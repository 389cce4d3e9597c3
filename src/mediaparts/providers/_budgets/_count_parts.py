"""How each part of a conversation is counted on one provider and model (see `count_tokens`).

Text goes through the provider's public tokenizer when it has one and `bpe-openai` is installed
(exact), else through its documented approximation (approximate). Media goes through the
documented formulas (exact), or is unknown with the reason. What `render` would leave out for
this provider (another provider's reasoning or blocks, another store's files, reasoning the API
takes none of) is counted as what it is: 0 tokens, exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from typing_extensions import assert_never

from mediaparts._boundary import translated
from mediaparts._conversation._messages import Message, Tool
from mediaparts._conversation._parts import (
    MediaPart,
    Part,
    ProviderPart,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from mediaparts._errors import MediaError, NoDocumentedRule, excerpt
from mediaparts.converting import default_transforms
from mediaparts.providers._budgets import _tokenizer
from mediaparts.providers._budgets._estimate import media_part_tokens, resolved, sent_as_text
from mediaparts.providers._budgets._rates import approximate_pdf_tokens, converted_audio_tokens
from mediaparts.providers._budgets._text import TextRule
from mediaparts.providers._budgets._tokens import Method, PartTokens, part_tokens
from mediaparts.providers._fitting._convert import converts, estimating
from mediaparts.providers._fitting._normalize import decode_text, normalize
from mediaparts.providers._fitting._remember import fitting_inputs
from mediaparts.providers._registry import Provider
from mediaparts.providers._wire._rendering import TEXT_TYPES, error_text, left_out

__all__ = ["Counter"]


@dataclass
class Counter:
    """Counts parts for one provider and model; one per `count_tokens` call.

    Attributes:
        provider: The provider counted for.
        model: The model, or None for each table's default.
        detail: An image detail level for every image, or None for each image's own.
        strict: Raise a media part's reason instead of counting it unknown (`estimate_tokens`
            of one part).
    """

    provider: Provider
    model: str | None
    detail: str | None
    strict: bool = False
    rule: TextRule = field(init=False)
    _unknown_model: str = field(init=False, default="")
    _measure: Callable[[str], tuple[int, bool]] | None = field(init=False, default=None)
    _how: str = field(init=False, default="")
    _media: dict[int, PartTokens] = field(init=False, default_factory=dict)
    _envelopes: dict[str, int] = field(init=False, default_factory=dict)
    _framings: dict[tuple[str, str | None], PartTokens] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        rules = self.provider.rules
        try:
            self.rule = rules.text_for(self.model, strict=True)
        except NoDocumentedRule:
            # Text is never unknown: the table's default row, labelled approximate.
            self.rule = rules.text_for(None)
            self._unknown_model = (
                f"model {excerpt(self.model)} not in {self.provider.name}'s text table; "
            )

    def _settle(self) -> Callable[[str], tuple[int, bool]]:
        """Settle, at the first text, how text is counted (loading the rule's encoding, if it
        has one) and what the count's `how` says; return the counting function, which gives
        the tokens and whether they are the tokenizer's exact count."""
        rule = self.rule
        encoder = None if rule.encoding is None else _tokenizer.encoder(rule.encoding)
        measure: Callable[[str], tuple[int, bool]]
        if encoder is None:
            how = rule.approximation
            if rule.encoding is not None:
                how = f"{how}; {_tokenizer.missing(rule.encoding)}"
            approximate = rule.approximate

            def measure(text: str) -> tuple[int, bool]:
                return approximate(text), False

        else:
            how = _tokenizer.described(rule.encoding or "")
            measure = _tokenizer.counter(encoder)
        self._how = self._unknown_model + how
        self._measure = measure
        return measure

    # -- text -------------------------------------------------------------------------------

    def text(self, kind: str, text: str, index: int | None, *, exact: bool = True) -> PartTokens:
        """Count text by the tokenizer (exact unless told otherwise) or the approximation."""
        # `tokens_of`'s two lines, not a call to it: this runs for every text part counted, and
        # the call was 5-10 % of counting 100 messages (benchmarks/bench_count.py).
        tokens, whole = (self._measure or self._settle())(text)
        method: Method = "exact" if whole and exact and not self._unknown_model else "approximate"
        return part_tokens(kind, tokens, method, self._how, index)

    def tokens_of(self, text: str, *, exact: bool = True) -> tuple[int, Method, str]:
        """Return the tokens of `text`, how certain they are, and how they were counted."""
        tokens, whole = (self._measure or self._settle())(text)
        method: Method = "exact" if whole and exact and not self._unknown_model else "approximate"
        return tokens, method, self._how

    # -- parts ------------------------------------------------------------------------------

    def part(self, part: Part, index: int, *, earlier_turn: bool) -> PartTokens:
        """Count one part of a message; `earlier_turn`: its message precedes the last user turn."""
        match part:
            case TextPart():
                return self.text("text", part.text, index)
            case RefusalPart():
                return self.text("refusal", part.text, index)
            case ToolCall():
                # The name and arguments are what the model wrote; how the API frames a call in
                # the prompt is not documented, so the count is approximate even by tokenizer.
                return self.text("tool_call", part.name + part.arguments, index, exact=False)
            case ReasoningPart():
                return self._reasoning(part, index, earlier_turn=earlier_turn)
            case ProviderPart():
                if part.provider != self.provider.name:
                    return self._not_sent("provider", index, f"only {part.provider} reads it")
                if _holds_bytes(part.data):
                    # Raw bytes (a Bedrock audio block): their base64 says nothing of tokens.
                    why = "a provider block holding raw bytes: no rule counts them"
                    return PartTokens("provider", 0, "unknown", why, index)
                text = json.dumps(part.data, separators=(",", ":"), ensure_ascii=False)
                return self.text("provider", text, index, exact=False)
            case MediaPart():
                # The same part object in several messages is counted once.
                known = self._media.get(id(part))
                if known is None:
                    known = self._media[id(part)] = self._remembered(part, index)
                return known if known.index == index else _at(known, index)
            case _:
                assert_never(part)

    def tool_error(self, message: Message) -> PartTokens | None:
        """Count a tool result's error, which every renderer sends as a line of text."""
        line = error_text(message) if isinstance(message, Tool) else None
        if line is None:
            return None
        tokens, method, how = self.tokens_of(line)
        return PartTokens("error", tokens, method, f"the tool's error line: {how}")

    def framing(self, message: Message) -> PartTokens | None:
        """Return the tokens a provider adds around a message, where it documents them."""
        rule = self.rule
        if not rule.per_message:
            return None
        # Messages of one role and name are framed alike: counted once, the count shared.
        second: str | None
        if isinstance(message, Tool):
            tool, second = True, message.tool_call_id or ""
        else:
            tool, second = False, message.name
        key = (message.role, second)
        known = self._framings.get(key)
        if known is None:
            tokens = rule.per_message + self._envelope(message.role)
            if tool:
                tokens += self._envelope(second or "")
            elif second:
                tokens += rule.per_name + self._envelope(second)
            known = self._framings[key] = PartTokens("framing", tokens, "approximate", rule.framing)
        return known

    def _envelope(self, text: str) -> int:
        """The tokens of a role, name or call id: few distinct ones, so each is counted once."""
        known = self._envelopes.get(text)
        if known is None:
            known = self._envelopes[text] = self.tokens_of(text)[0]
        return known

    def request_framing(self) -> tuple[PartTokens, ...]:
        """Return the tokens a provider adds once per request, where it documents them."""
        if not self.rule.per_request:
            return ()
        return (PartTokens("framing", self.rule.per_request, "approximate", self.rule.framing),)

    def _reasoning(self, part: ReasoningPart, index: int, *, earlier_turn: bool) -> PartTokens:
        rule = self.rule
        # What render leaves out costs nothing: reasoning is replayed only to the provider that
        # wrote it, and only in the shape its API takes back (its `replays` says).
        if part.provider != self.provider.name:
            whose = f"only {part.provider} reads it" if part.provider else "nobody signed it"
            return self._not_sent("reasoning", index, whose)
        why = self.provider.replays(part) if self.provider.replays else None
        if why is not None:
            return self._not_sent("reasoning", index, why)
        match rule.reasoning:
            case "not_sent":
                return self._not_sent("reasoning", index, rule.reasoning_source)
            case "earlier_turns_free" if earlier_turn:
                return PartTokens("reasoning", 0, "exact", rule.reasoning_source, index)
            case "unknown":
                return PartTokens("reasoning", 0, "unknown", rule.reasoning_source, index)
            case "counted" | "earlier_turns_free":
                if part.data is not None and not part.text:
                    why = "redacted or encrypted reasoning: its size in tokens is not known"
                    return PartTokens("reasoning", 0, "unknown", why, index)
                text = part.text or "\n".join(part.summary)
                return self.text("reasoning", text, index, exact=False)
            case _:  # pragma: no cover - TextRule refuses other values
                raise AssertionError(rule.reasoning)

    def _not_sent(self, kind: str, index: int, why: str) -> PartTokens:
        return PartTokens(kind, 0, "exact", f"not sent to {self.provider.name}: {why}", index)

    def _remembered(self, part: MediaPart, index: int) -> PartTokens:
        """`_media_part`, or what it counted for this part and these settings before (a part is
        frozen: see `_fitting._remember`); what could not be counted is tried again."""
        use = "count, strict" if self.strict else "count"
        policy = default_transforms()
        inputs = fitting_inputs(self.provider, self.model, self.detail, policy, use)
        known: PartTokens | None = None if inputs is None else part._recall(*inputs)
        if known is None:
            known = self._media_part(part, index)
            if inputs is not None and known.method != "unknown":
                part._keep(*inputs, known)
        return known

    def _media_part(self, part: MediaPart, index: int) -> PartTokens:
        provider = self.provider
        why = left_out(part, provider.name, provider.rules)
        if why is not None:
            return self._not_sent(part.kind, index, why)
        try:
            media = resolved(part, provider, self.model)
            media_type = media.media_type or ""
            if converts(media_type, provider, default_transforms()):
                if media_type.startswith("audio/") and provider.rules.audio.media_types:
                    # From the headers: decoding only to count would cost what converting does.
                    tokens, how = converted_audio_tokens(
                        provider, media_type, media.data, self.model
                    )
                    return PartTokens(part.kind, tokens, "exact", how, index)
                return self._converted(media, index)
            text = sent_as_text(media, provider)
            if text is not None:
                tokens, _, how = self.tokens_of(text)
                # The request wraps the text (a file tag, a document block): not counted.
                return PartTokens(part.kind, tokens, "approximate", f"text file: {how}", index)
            try:
                tokens, how = media_part_tokens(media, provider, self.model, self.detail)
            except NoDocumentedRule:
                # No exact rule: a documented approximation, where the provider has one.
                approximate = approximate_pdf_tokens(
                    provider, media.media_type or "", media.data, self.model
                )
                if approximate is not None:
                    tokens, how = approximate
                    return PartTokens(part.kind, tokens, "approximate", how, index)
                if (media.media_type or "") not in TEXT_TYPES:
                    raise
                # A text document (Bedrock's csv, html, md, txt): the model reads its text.
                tokens, _, how = self.tokens_of(decode_text(media.data, media.media_type or ""))
                how = f"a text document, counted as its text: {how}"
                return PartTokens(part.kind, tokens, "approximate", how, index)
        except MediaError as exc:
            if self.strict:
                raise
            return PartTokens(part.kind, 0, "unknown", str(exc), index)
        except Exception as exc:
            # A reader or decoder that failed in a way nobody foresaw: this part is unknown,
            # saying why, and the rest is counted. One part alone: the entry point maps it.
            if self.strict:
                raise
            why = str(translated(exc, f"counting this {part.kind} part"))
            return PartTokens(part.kind, 0, "unknown", why, index)
        return PartTokens(part.kind, tokens, "exact", how, index)

    def _converted(self, media: MediaPart, index: int) -> PartTokens:
        """Count what `normalize` sends in place of media the provider does not take as it is
        (frames and their times, page images, a transcoded track, a document's text); a
        video's frames are read from its headers, not decoded (the same sizes and labels)."""
        with estimating():
            made = normalize(media, self.provider, model=self.model, detail=self.detail)
        total, hows, missing = 0, [], ""
        method: Method = "exact"
        for piece in made.sent:
            if isinstance(piece, TextPart) or piece.text is not None:
                tokens, how_exact, how = self.tokens_of(piece.text or "")
                total += tokens
                method = "approximate" if how_exact != "exact" else method
                hows.append(how)
            elif piece.tokens is None:
                why = f"sent as {piece.media_type}, which has no documented token rule here"
                if self.strict:  # one part alone: 0 would be a wrong answer, given silently
                    raise NoDocumentedRule(
                        f"{self.provider.name}: {why}",
                        provider=self.provider.name,
                        media_type=piece.media_type,
                        model=self.model,
                    )
                missing = missing or why
            else:
                total += piece.tokens
        said = "; ".join(made.steps)
        how = f"as sent ({said})" + (f"; text: {hows[0]}" if hows else "")
        if missing:  # what is known, as a floor: a budget must not take the part as free
            if not total:
                return PartTokens(media.kind, 0, "unknown", missing, index)
            return PartTokens(
                media.kind, total, "approximate", f"at least: {how}; {missing}", index
            )
        return PartTokens(media.kind, total, method, how, index)


def _holds_bytes(data: object) -> bool:
    """Tell whether a provider block's data holds raw bytes anywhere (it is bounded in depth)."""
    if isinstance(data, bytes):
        return True
    if isinstance(data, dict):
        return any(_holds_bytes(value) for value in data.values())
    if isinstance(data, list | tuple):
        return any(_holds_bytes(value) for value in data)
    return False


def _at(count: PartTokens, index: int) -> PartTokens:
    return PartTokens(count.kind, count.tokens, count.method, count.how, index)
