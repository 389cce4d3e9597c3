"""OpenAI Chat Completions as data: accepted media, limits, vision and cost tables, sources."""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import TextRule, TextTable
from mediaparts.providers._budgets._vision import (
    ModelRule,
    OpenAIPatches,
    OpenAITiles,
    PatchBudget,
    Undocumented,
    VisionTable,
)
from mediaparts.providers._files import FileStoreRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = [
    "BREAKPOINT_MODELS",
    "COSTS",
    "COSTS_SOURCE",
    "FILE_STORE",
    "PROVIDER",
    "RESPONSES_OFFICE_TYPES",
    "RULES",
    "TEXT",
    "TEXT_SOURCE",
    "VISION",
    "VISION_SOURCE",
]

_IMAGE_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")

# Binary documents OpenAI's Responses API reads as `input_file`, besides PDF: "Rich documents .doc,
# .docx, .rtf, .odt; Presentations .ppt, .pptx; Spreadsheets … .xls, .xlsx" (file-inputs
# guide, "Accepted file types", read 2026-12). Only PDFs on vision models get page images;
# OpenAI reads the others as text ("the API extracts text only"), a spreadsheet's "first
# 1,000 rows per sheet". Chat Completions takes none of them ("accepts only PDF files as file
# content parts", the same page): this list is the Responses API's, kept here with the other
# facts of OpenAI's shared pages. The former `openai.OFFICE_TYPES` (deprecated) is this list.
RESPONSES_OFFICE_TYPES: tuple[str, ...] = (
    "application/msword",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/rtf",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.ms-powerpoint",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "application/vnd.ms-excel",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
)


def _uniform(budget: PatchBudget, multiplier: float) -> OpenAIPatches:
    return OpenAIPatches({"low": budget, "high": budget}, multiplier, auto="high")


_GPT_5_5_HIGH = PatchBudget(2048, 2500)
_GPT_5_5_ORIGINAL = PatchBudget(6000, 10_000)
_EVERY_LEVEL_6144 = PatchBudget(2048, 6144)
_OLD_1536 = PatchBudget(65_535, 1536)  # no pixel box on the older page, only the budget
_GPT_5_TILES = OpenAITiles(base=70, tile=140)
_GPT_4O_TILES = OpenAITiles(base=85, tile=170)
_O_SERIES_TILES = OpenAITiles(base=75, tile=150)

# OpenAI images-vision guide ("Model sizing behavior", "Calculating costs": patch budgets,
# multipliers, tile bases), read 2026-08 (gpt-5.5 `low` from the same
# page's sizing table). Rows after gpt-4.1-mini that the current page drops from its sizing
# table (gpt-5-mini/nano, gpt-4.1-nano, o4-mini: multipliers only) keep the older page's
# 1,536-patch budget. computer-use-preview is from the mid-2025 page. The default row (for
# model=None and unknown names) is gpt-4o's: its fit (2048 px box, 768 px short side) is taken
# by every current model, where the first row's (gpt-5.6, `original`) would send a phone photo
# whole, a request of many megabytes, to a user of an older model who named none.
VISION: VisionTable = (
    ModelRule(
        "gpt-5.6*",
        OpenAIPatches(
            {"low": PatchBudget(512), "high": _GPT_5_5_HIGH, "original": PatchBudget(65_535)},
            1.2,
            auto="original",
        ),
    ),
    ModelRule(
        "gpt-5.5*",
        OpenAIPatches(
            {"low": PatchBudget(512), "high": _GPT_5_5_HIGH, "original": _GPT_5_5_ORIGINAL},
            1.2,
            auto="original",
        ),
    ),
    # gpt-5.4, -mini, -nano: `low` has the larger 6,144 budget, so it can cost more than `high`.
    ModelRule(
        "gpt-5.4*",
        OpenAIPatches(
            {"low": _EVERY_LEVEL_6144, "high": _GPT_5_5_HIGH, "original": _GPT_5_5_ORIGINAL},
            1.2,
            auto="high",
        ),
    ),
    ModelRule("gpt-5.2*", _uniform(_EVERY_LEVEL_6144, 1.2)),
    ModelRule("gpt-4.1-mini*", _uniform(_EVERY_LEVEL_6144, 1.62)),
    ModelRule("gpt-5.1*", _GPT_5_TILES),
    ModelRule("gpt-5-mini*", _uniform(_OLD_1536, 1.2)),
    ModelRule("gpt-5-nano*", _uniform(_OLD_1536, 1.5)),
    ModelRule("gpt-4.1-nano*", _uniform(_OLD_1536, 2.46)),
    ModelRule("o4-mini*", _uniform(_OLD_1536, 1.72)),
    ModelRule("gpt-5", _GPT_5_TILES),
    ModelRule("gpt-5-*", _GPT_5_TILES),
    ModelRule("gpt-4o-mini*", OpenAITiles(base=2833, tile=5667)),
    ModelRule("gpt-4o*", _GPT_4O_TILES, default=True),
    ModelRule("chatgpt-4o*", _GPT_4O_TILES),
    ModelRule("gpt-4.1*", _GPT_4O_TILES),
    ModelRule("gpt-4.5*", _GPT_4O_TILES),
    ModelRule("o1*", _O_SERIES_TILES),
    ModelRule("o3*", _O_SERIES_TILES),
    ModelRule("computer-use-preview*", OpenAITiles(base=65, tile=129)),
    # Input fidelity "high" adds 4,160 (square) or 6,240 tokens on top; not modelled here.
    ModelRule("gpt-image-1", OpenAITiles(base=65, tile=129, short_side=512)),
    # The audio models of Chat Completions (gpt-audio, gpt-audio-mini; models page, read
    # 2026-12) take text and audio in: known models, with no image rule to apply.
    ModelRule("gpt-audio*", Undocumented("OpenAI", "images for the gpt-audio models")),
)

VISION_SOURCE = (
    "developers.openai.com/api/docs/guides/images-vision, model sizing behavior and calculating "
    "costs; computer-use-preview from the mid-2025 page (read 2026-08)"
)

# Token rates, read 2026-08: OpenAI documents no audio, video or PDF token formula (PDF pages
# cost their text plus an image each, sizes undocumented).
COSTS: RatesTable = (ModelRule("*", MediaRates("OpenAI", not_accepted=frozenset({"video"}))),)
COSTS_SOURCE = (
    "developers.openai.com/api/docs/guides/images-vision and file-inputs: no audio, video or "
    "PDF token formula documented (read 2026-08)"
)


# Text, read 2026-11. Encodings: tiktoken 0.14's model map (model.py: o1, o3, o4-mini, gpt-5,
# gpt-4.5, gpt-4.1, gpt-4o, chatgpt-4o -> o200k_base; gpt-4, gpt-3.5-turbo -> cl100k_base).
# Without the tokenizer: "1 token ~= 4 chars in English" (help.openai.com "What are tokens and
# how to count them?"). Framing: the OpenAI cookbook "How to count tokens with tiktoken"
# (`num_tokens_from_messages`): 3 tokens per message plus its role's and name's own tokens, 1
# more per name, 3 priming the reply; written for gpt-3.5, gpt-4 and gpt-4o on Chat Completions
# ("may update over time"), so an approximation for newer models and for the Responses API.
# Reasoning: Chat Completions takes none back (no reasoning field in a request). First row
# (model=None) = the newest models' encoding.
_FRAMING = (
    "3 tokens a message, its role and name, 1 more a name, 3 priming the reply (OpenAI cookbook "
    "'How to count tokens with tiktoken', for gpt-3.5/4/4o chat; assumed for newer models)"
)
_APPROXIMATION = "about 4 characters a token (help.openai.com 'What are tokens')"


def _text(encoding: str) -> TextRule:
    return TextRule(
        encoding=encoding,
        approximation=_APPROXIMATION,
        per_message=3,
        per_name=1,
        per_request=3,
        framing=_FRAMING,
        reasoning="not_sent",
        reasoning_source="Chat Completions takes no reasoning in a request",
    )


_O200K = _text("o200k_base")
_CL100K = _text("cl100k_base")

TEXT: TextTable = (
    ModelRule("gpt-5*", _O200K),
    ModelRule("gpt-4.5*", _O200K),
    ModelRule("gpt-4.1*", _O200K),
    ModelRule("gpt-4o*", _O200K),
    ModelRule("chatgpt-4o*", _O200K),
    ModelRule("o1", _O200K),
    ModelRule("o1-*", _O200K),
    ModelRule("o3", _O200K),
    ModelRule("o3-*", _O200K),
    ModelRule("o4-mini*", _O200K),
    ModelRule("gpt-4", _CL100K),
    ModelRule("gpt-4-*", _CL100K),
    ModelRule("gpt-3.5*", _CL100K),
    ModelRule("gpt-35-turbo*", _CL100K),
)
TEXT_SOURCE = (
    "tiktoken 0.14 model.py (encodings); OpenAI cookbook 'How to count tokens with tiktoken' "
    "(framing); help.openai.com 'What are tokens and how to count them?' (read 2026-11)"
)


RULES = Rules(
    vision=VISION,
    text=TEXT,
    text_source=TEXT_SOURCE,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="openai",
    # Its provider id in genai-prices' data, for mp.cost; Responses shares it and its prices
    # (genai_prices/data.py 0.2.3, read 2026-11).
    prices_id="openai",
    # One Batch API input file: "up to 50,000 requests, and can be up to 200 MB in size"
    # (platform.openai.com/docs/api-reference/batch/create, read 2026-12-02); MB read as 10^6
    # bytes, the smaller reading. Responses batches (`/v1/responses`) share both.
    batch_max_requests=50_000,
    batch_max_bytes=200_000_000,
    batch_source="platform.openai.com/docs/api-reference/batch/create (read 2026-12-02)",
    # developers.openai.com/api/docs/guides/images-vision (read 2026-08): PNG, JPEG, WEBP and
    # non-animated GIF; "Up to 1,500 images per request"; no per-image byte limit on the current
    # page (older pages said 20 MB, then 50 MB in total). URLs are fetched by OpenAI. `original`
    # is in the SDK's chat `ImageURL.detail` Literal as of openai-python 3.54 (2026-08).
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        url_types=_IMAGE_TYPES,
        max_count=1500,
        animated=False,
        detail_levels=("auto", "low", "high", "original"),
        source="developers.openai.com/api/docs/guides/images-vision; openai-python "
        "chat_completion_content_part_image_param.py (read 2026-08)",
    ),
    # `input_audio` takes base64 data with format "wav" | "mp3" only; it has no URL field
    # (openai-python chat_completion_content_part_input_audio_param.py, read 2026-08).
    audio=KindRules(
        media_types=("audio/wav", "audio/mpeg"),
        source="openai-python chat_completion_content_part_input_audio_param.py (read 2026-08)",
    ),
    # Chat Completions has no video input (no content part type for it, SDK read 2026-08).
    video=KindRules(source="openai-python chat_completion_content_part_param.py (read 2026-08)"),
    # "Chat Completions accepts only PDF files as file content parts", by `file_data` or
    # `file_id`; `file_url` is "Not supported" there (file-inputs guide, read 2026-12). Other
    # documents are the Responses API's (`input_file`); here "read the file in your application
    # and send its contents as a text content part" (same page): `normalize` sends a docx,
    # xlsx, pptx or RTF as its Markdown or text, and refuses what it cannot read (doc, xls,
    # ppt, odt). Text formats go as text parts. PDFs: "up to 100 pages and 32MB of total
    # content in a single request … across multiple file inputs" (pdf-files guide, read
    # 2026-08; the current file-inputs page gives no figure, read 2026-12): the pages and the
    # bytes per request, and the bytes as a per-file bound too.
    file=FileRules(
        media_types=("application/pdf",),
        max_bytes=32_000_000,
        max_request_pages=100,
        max_request_bytes=32_000_000,
        text_types=TEXT_TYPES,
        source="developers.openai.com/api/docs/guides/file-inputs (read 2026-12) and pdf-files "
        "(read 2026-08); openai-python chat_completion_content_part_param.py (read 2026-12)",
    ),
    # "Up to 512 MB total payload per request" (images-vision guide, read 2026-08).
    max_request_bytes=512_000_000,
    source="developers.openai.com/api/docs/guides/images-vision (read 2026-08)",
)

# The provider's name, as every module of this package writes it (in `native`, `provider=`).
PROVIDER = RULES.provider

# "Supported for `gpt-5.6` and later models" (openai-python 3.54 `PromptCacheOptions`, read
# 2026-11): the `breakpoint_models` quirk of both OpenAI wires. The older models cache prompts by
# themselves, so a breakpoint for them is left out; with no model given, it is sent.
BREAKPOINT_MODELS: tuple[str, ...] = (
    "gpt-5.[6-9]*",
    "gpt-5.[1-9][0-9]*",
    "gpt-[6-9]*",
    "gpt-[1-9][0-9]*",
)

# OpenAI's file store, shared by Chat Completions and Responses (file_provider "openai"):
# "Individual files can be up to 512 MB"; files are kept until deleted unless `expires_after`
# is set; purpose `vision` for images, `user_data` for other input files (API reference,
# Files: create, platform.openai.com/docs/api-reference/files/create, read 2026-12). Chat
# Completions takes a file id only in a `file` part (openai-python
# chat_completion_content_part_param.py, read 2026-12): images and audio stay inline.
FILE_STORE = FileStoreRules(
    store="openai",
    max_bytes=512 * 2**20,
    kinds=("file",),
    purposes={"image": "vision", "file": "user_data"},
    source="platform.openai.com/docs/api-reference/files/create; openai-python "
    "chat_completion_content_part_param.py (read 2026-12)",
)
