"""The Responses API's facts: media rules and costs, stop reasons.

Its cache breakpoints are Chat Completions' (`openai._common.CACHE_BREAKPOINTS`, one table for
both).
"""

from __future__ import annotations

import dataclasses

from mediaparts.providers import openai
from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextTable
from mediaparts.providers._budgets._vision import ModelRule
from mediaparts.providers._rules import KindRules, Rules

__all__ = ["COSTS", "FILE_STORE", "PROVIDER", "RULES", "TEXT"]

# Chat Completions' tables, which the Responses API shares where its docs say so.
CHAT_RULES = openai.RULES
CHAT_TEXT = CHAT_RULES.text
_CHAT_FILES = openai.PROVIDER.files
assert _CHAT_FILES is not None
_CHAT_STORE = _CHAT_FILES.rules

# The vision table and sources are Chat Completions' (`openai.RULES.vision`): one page covers both.
# The Responses API has no audio input part either (openai-python 3.54, read 2026-08).
COSTS: RatesTable = (
    ModelRule("*", MediaRates("OpenAI Responses", not_accepted=frozenset({"audio", "video"}))),
)

# Text: Chat Completions' table (the same encodings; its framing assumed), read 2026-11, except
# reasoning. OpenAI's reasoning guide ("How reasoning works"): after a turn the model "discards
# the reasoning tokens from its context", so `reasoning` items of earlier turns cost nothing; the
# items of the current tool loop go back with `encrypted_content` whose tokens nobody can count
# here (unknown). From GPT-5.6, `reasoning.context` ("auto", "all_turns", "current_turn") may
# keep earlier turns' reasoning too, a setting of the call that a count cannot see: unknown.
_REASONING_DROPPED = (
    "OpenAI's reasoning guide: reasoning of earlier turns is discarded from the context; the "
    "current turn's encrypted reasoning has no known size"
)
_REASONING_KEPT = (
    "from GPT-5.6, reasoning.context may keep earlier turns' reasoning, and its encrypted "
    "content has no known size (OpenAI reasoning guide)"
)
TEXT: TextTable = (
    ModelRule(
        "gpt-5.[6-9]*",
        dataclasses.replace(
            CHAT_TEXT[0].rule, reasoning="unknown", reasoning_source=_REASONING_KEPT
        ),
    ),
    *(
        ModelRule(
            row.pattern,
            dataclasses.replace(
                row.rule, reasoning="earlier_turns_free", reasoning_source=_REASONING_DROPPED
            ),
        )
        for row in CHAT_TEXT
    ),
)

# The same limits as Chat Completions (the images-vision and file-inputs guides cover both APIs,
# read 2026-08, re-read 2026-12), except:
RULES: Rules = dataclasses.replace(
    CHAT_RULES,
    provider="openai-responses",
    costs=COSTS,
    text=TEXT,
    # Responses reads the files uploaded through OpenAI's Files API, as Chat Completions does
    # (`input_file.file_id`, `input_image.file_id`; openai-python 3.54, read 2026-11).
    file_store="openai",
    # No audio: `ResponseInputContentParam` is input_text | input_image | input_file, and
    # `function_call_output` takes the same three. `ResponseInputAudioParam` exists in the SDK
    # but only the evals/graders types use it (openai-python 3.54, read 2026-08).
    audio=KindRules(
        source="openai-python responses/response_input_message_content_list_param.py (read 2026-08)"
    ),
    # `input_file` takes Office documents besides PDF (`openai.RESPONSES_OFFICE_TYPES`: doc,
    # docx, rtf, odt, ppt, pptx, xls, xlsx), which Chat Completions does not, and `file_url`, so
    # OpenAI fetches document URLs itself ("External file URL (file_url): Supported file
    # types", file-inputs guide, read 2026-12; openai-python
    # responses/response_input_file_param.py, read 2026-12).
    file=dataclasses.replace(
        CHAT_RULES.file,
        media_types=(*CHAT_RULES.file.media_types, *openai.RESPONSES_OFFICE_TYPES),
        url_types=(*CHAT_RULES.file.media_types, *openai.RESPONSES_OFFICE_TYPES),
        source="developers.openai.com/api/docs/guides/file-inputs (read 2026-12); openai-python "
        "responses/response_input_file_param.py (read 2026-12)",
    ),
)


# The provider's name, as every module of this package writes it (in `native`, `provider=`).
PROVIDER = RULES.provider

# OpenAI's file store, as Chat Completions' (`openai.PROVIDER.files.rules`), but the Responses
# API also takes an image by `file_id` (`input_image`), besides `input_file` (openai-python
# response_input_image_param.py, response_input_file_param.py, read 2026-12).
FILE_STORE = dataclasses.replace(_CHAT_STORE, kinds=("image", "file"))
