"""Groq (its OpenAI-compatible Chat Completions API) as data: accepted media, limits, models.

Groq documents its limits per vision model, not for every model it serves; the rules below are
its vision models', and its text models take no images (`MODELS`).
"""

from __future__ import annotations

from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._model_rows import ModelRule
from mediaparts.providers._model_rules import ModelRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES

__all__ = ["MODELS", "RULES"]

_VISION = "console.groq.com/docs/vision (read 2026-12)"

# The vision page names no image formats; its examples send JPEG (`data:image/jpeg;base64,`)
# and JPEG URLs. Kept to JPEG and PNG, which `normalize` converts anything else to, so nothing
# sent depends on a format the page does not name (`with_rules(image_media_types=...)` widens
# them).
_IMAGE_TYPES = ("image/jpeg", "image/png")

# The models page and the vision page (read 2026-12): images go to the vision models only
# (`meta-llama/llama-4-scout-17b-16e-instruct`, `meta-llama/llama-4-maverick-17b-128e-instruct`
# on the vision page); these text models take none. A model no row names keeps the vision
# models' rules: a request that carries an image is meant for one.
_TEXT_ONLY = ModelRules(
    {"image_media_types": (), "image_url_types": ()},
    "console.groq.com/docs/models and /docs/vision: a text model, no image input (read 2026-12)",
)
MODELS = tuple(
    ModelRule(pattern, _TEXT_ONLY)
    for pattern in (
        "llama-3.1-*",
        "llama-3.3-*",
        "gpt-oss-*",
        "qwen3-32b",
        "kimi-k2*",
        "compound*",
        "allam-*",
    )
)

# Groq documents no audio, video or PDF token rate, nor an image token formula (read 2026-12).
COSTS: RatesTable = (
    ModelRule("*", MediaRates("Groq", not_accepted=frozenset({"audio", "video"}))),
)

RULES = Rules(
    provider="groq",
    # "Maximum allowed size for a request containing a base64 encoded image is 4MB. Requests
    # larger than this limit will return a 413 error" (per vision model): the request is
    # bounded (below), and so is each image, on its base64 text, within it. "Maximum allowed
    # size for a request containing an image URL as input is 20MB": a URL's image is Groq's to
    # fetch. "Maximum allowed resolution ... is 33 megapixels (33177600 total pixels) per
    # image": the rules hold no pixel-count field; 4 MB of base64 keeps a JPEG or PNG far
    # below it in practice, except a flat PNG. "You can process a maximum of 5 images."
    image=ImageRules(
        media_types=_IMAGE_TYPES,
        max_bytes=4_000_000,
        measure="base64",
        url_types=_IMAGE_TYPES,
        max_count=5,
        animated=False,
        detail_levels=("auto", "low", "high"),
        source=f"{_VISION}; groq-python 1.7 chat_completion_content_part_image_param.py (read "
        "2026-12)",
    ),
    # Groq's chat content parts are text, `image_url` and a JSON `document` (groq-python 1.7
    # chat_completion_content_part_param.py): no audio part (speech goes to its separate
    # transcription endpoint), no video, no binary file; text files go as text.
    audio=KindRules(source="groq-python 1.7 chat_completion_content_part_param.py (read 2026-12)"),
    video=KindRules(source="groq-python 1.7 chat_completion_content_part_param.py (read 2026-12)"),
    file=FileRules(
        text_types=TEXT_TYPES,
        source="groq-python 1.7 chat_completion_content_part_param.py: no file part (read 2026-12)",
    ),
    # The 4 MB request bound of a request holding base64 images (above); Groq documents no
    # bound for a request of text alone, which this also bounds (raise it with
    # `with_rules(max_request_bytes=...)` for long text-only prompts).
    max_request_bytes=4_000_000,
    source=_VISION,
    costs=COSTS,
    # Groq documents no tokenizer or characters-per-token figure for the models it serves
    # (console.groq.com/docs, read 2026-12): text is counted with the generic approximation.
    text_source="Groq documents no tokenizer for its models: the generic approximation (read "
    "2026-12)",
    costs_source="console.groq.com/docs/vision: no token formula for images (read 2026-12)",
    models=MODELS,
    models_source="console.groq.com/docs/models and /docs/vision (read 2026-12)",
    # Groq's Batch API takes OpenAI's input format (`custom_id`, `method`, `url`
    # `/v1/chat/completions`, `body`) uploaded with purpose `batch`
    # (console.groq.com/docs/batch, read 2026-12); it gives no line or size bound that could be
    # confirmed here.
    batch_source="console.groq.com/docs/batch (read 2026-12)",
)
