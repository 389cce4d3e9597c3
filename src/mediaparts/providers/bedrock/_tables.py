"""Bedrock facts: VISION, COSTS and RULES, with sources (its format names are its wire's).

Shapes and limits come from botocore's `bedrock-runtime` service model (botocore 1.44,
`botocore/data/bedrock-runtime/2023-09-30/service-2.json`, read 2026-08; botocore 1.44.18,
re-read 2026-12): `image`,
`document`, `video` and `audio` blocks with raw `bytes` (botocore base64-encodes them) or an
`s3Location`; `toolUse` and `toolResult` blocks; `system` as a list of text blocks.
"""

from __future__ import annotations

import dataclasses

from mediaparts.providers import anthropic
from mediaparts.providers._budgets._media_rates import MediaRates, RatesTable
from mediaparts.providers._budgets._text import GENERIC_TEXT, TextTable
from mediaparts.providers._budgets._vision import ModelRule, Undocumented, VisionTable
from mediaparts.providers._files import FileStoreRules
from mediaparts.providers._rules import FileRules, ImageRules, KindRules, Rules
from mediaparts.providers._wire._rendering import TEXT_TYPES
from mediaparts.providers.wires.converse import formats

__all__ = [
    "BATCH_REFUSED",
    "COSTS",
    "COSTS_SOURCE",
    "FILE_STORE",
    "PROVIDER",
    "RULES",
    "TEXT",
    "TEXT_SOURCE",
    "VISION",
    "VISION_SOURCE",
]

# Bedrock Converse (botocore bedrock-runtime service model, read 2026-08): Claude model ids
# (`anthropic.claude-...`, `us.anthropic.claude-...`, ARNs) follow Anthropic's rules; no other
# model family documents an image rule, so those get `Undocumented`.
VISION: VisionTable = (
    *(ModelRule(f"*{row.pattern}", row.rule) for row in anthropic.RULES.vision),
    ModelRule("*", Undocumented("Bedrock", "image tokens of non-Claude models")),
)
VISION_SOURCE = (
    "Anthropic's rules for Claude model ids; botocore bedrock-runtime service-2.json documents "
    "none for other models (read 2026-08)"
)

# Token rates, read 2026-08: Bedrock documents no audio, video or PDF token formula. For
# Claude ids, the Bedrock user guide's Claude page (read 2026-11) says a 3-page PDF uses
# "approximately 1,000 tokens" in Converse's text-only document chat (what `render` sends: no
# citations), "approximately 7,000" with citations: about 334 a page, approximate.
COSTS: RatesTable = (
    ModelRule(
        "*claude*",
        MediaRates(
            "Bedrock",
            pdf_per_page_approx=334,
            pdf_approximation="about 334 tokens a page (Bedrock's Claude guide: a 3-page PDF "
            "uses 'approximately 1,000 tokens' in text-only Converse document chat)",
        ),
    ),
    ModelRule("*", MediaRates("Bedrock")),
)
COSTS_SOURCE = (
    "botocore bedrock-runtime service-2.json: no token formula (read 2026-08); Bedrock's "
    "Claude guide for PDFs in Converse (read 2026-11)"
)

# Text, read 2026-11: Claude model ids follow Anthropic's rules (its approximations; thinking
# of earlier turns as Anthropic's table says per model); other model families publish no rule
# through Bedrock, so they get the generic 4 characters a token. The tokenizer depends on the
# model; Bedrock's CountTokens operation is an API call, not an offline rule.
TEXT: TextTable = (
    *(ModelRule(f"*{row.pattern}", row.rule) for row in anthropic.RULES.text),
    ModelRule(
        "*",
        dataclasses.replace(
            GENERIC_TEXT,
            approximation="about 4 characters a token (Bedrock documents no rule for this "
            "model family: the rule of thumb OpenAI and Google publish)",
        ),
    ),
)
TEXT_SOURCE = (
    "Anthropic's rules for Claude model ids; none documented for other models (read 2026-11)"
)

# Request fields a batch inference record of the Converse invocation type may not carry, and
# why: "Batch inference doesn't support tool calling (function calling) for jobs that use the
# Converse invocation type. Records that include toolConfig fail with a 400 error"
# (docs.aws.amazon.com/bedrock/latest/userguide/batch-inference.html, read 2026-12-02).
BATCH_REFUSED: dict[str, str] = {
    "toolConfig": "Converse batch jobs fail records that carry tools (400); use tools in "
    "real-time Converse calls, or an InvokeModel-type job with the model's native body",
}

RULES = Rules(
    vision=VISION,
    text=TEXT,
    text_source=TEXT_SOURCE,
    costs=COSTS,
    vision_source=VISION_SOURCE,
    costs_source=COSTS_SOURCE,
    provider="bedrock",
    # Its provider id in genai-prices' data, for mp.cost: `aws`, where Bedrock's own model ids
    # (`anthropic.claude-...`, `us.anthropic.claude-...`, `amazon.nova-...`) are priced
    # (genai_prices/data.py 0.2.3, read 2026-11).
    prices_id="aws",
    # Batch inference quotas, defaults per model and account, raised on request: "Records per
    # input file per batch inference job" 50,000 and "Batch inference input file size" 1 GB
    # (10^9 bytes, the smaller reading); a job also needs a minimum number of records (100 for
    # most models), which a file split cannot give (docs.aws.amazon.com/bedrock/latest/
    # userguide/quotas.html, batch-inference-data.html, read 2026-12-02). A raised quota is
    # `with_rules(batch_max_requests=..., batch_max_bytes=...)`.
    batch_max_requests=50_000,
    batch_max_bytes=1_000_000_000,
    batch_source="docs.aws.amazon.com/bedrock/latest/userguide/quotas.html (read 2026-12-02)",
    # Message.content (read 2026-08; unchanged in botocore 1.44.18, read 2026-12): "up to 20
    # images. Each image's size, height, and width must be no more than 3.75 MB, 8000 px, and
    # 8000 px" (raw bytes; 3.75 MB is Anthropic's 5 MB of base64 × 3/4; an inference, as the
    # docs do not say). The 20 is per message. The user guide's "API restrictions" page (read
    # 2026-12) says Bedrock itself "doesn't impose restrictions on image count and size", the
    # model does; the API reference's figures are kept, as they hold for Claude. Only `s3://`
    # URIs can be given instead of bytes, so no http(s) URL passes through.
    image=ImageRules(
        media_types=tuple(formats("image")),
        max_bytes=3_932_160,
        max_count=20,
        count_scope="message",
        max_width=8000,
        max_height=8000,
        animated=False,
        source="botocore bedrock-runtime service-2.json Message, ImageFormat (read 2026-12)",
    ),
    # AudioFormat (read 2026-12); no size limit is documented.
    audio=KindRules(
        media_types=tuple(formats("audio")),
        source="botocore bedrock-runtime service-2.json AudioFormat (read 2026-12)",
    ),
    # VideoSource: "base64-encoded string as long as the encoded file is less than 25MB"
    # (read 2026-08, unchanged 2026-12); up to 1 GB from S3.
    video=KindRules(
        media_types=tuple(formats("video")),
        max_bytes=25 * 2**20,
        measure="base64",
        source="botocore bedrock-runtime service-2.json VideoSource, VideoFormat (read 2026-12)",
    ),
    # Message.content: "up to five documents. Each document's size must be no more than 4.5 MB"
    # (per message; botocore 1.44.18, read 2026-12). The user guide's "API restrictions" page
    # (read 2026-12) says "up to 5 documents per request" and lifts the 4.5 MB for PDFs on
    # "Claude 4 and subsequent versions" (PDF and DOCX on Nova): the rules are not per model, so
    # 4.5 MB holds for all (`with_rules(file_max_bytes=...)` for those models). DocumentFormat's
    # types are sent as bytes; other text formats are sent as `txt` documents with a `text`
    # source.
    file=FileRules(
        media_types=tuple(formats("file")),
        max_bytes=4_718_592,
        max_count=5,
        count_scope="message",
        text_types=tuple(t for t in TEXT_TYPES if t not in formats("file")),
        source="botocore bedrock-runtime service-2.json Message, DocumentFormat; Bedrock user "
        "guide, inference-api-restrictions (read 2026-12)",
    ),
    # Converse documents no request size (InvokeModel's body is ≤25,000,000 bytes; botocore
    # 1.44.18 and the user guide, read 2026-12).
    source="botocore bedrock-runtime service-2.json (read 2026-12)",
)


# The provider's name, as every module of this package writes it (in `native`, `provider=`).
PROVIDER = RULES.provider

# Converse reads media from the caller's S3 bucket: ImageSource, AudioSource, VideoSource and
# DocumentSource each take an `s3Location` (`uri`, optional `bucketOwner`); "You can also
# transfer videos up to 1GB in size from an S3 bucket", the one size documented for S3
# sources (botocore bedrock-runtime service-2.json, read 2026-12). Which models read S3 is
# per model (docs.aws.amazon.com/bedrock/latest/userguide/
# conversation-inference-supported-models-features.html). Objects stay until deleted.
FILE_STORE = FileStoreRules(
    store="bedrock",
    max_bytes=2**30,
    kinds=("image", "audio", "video", "file"),
    needs_location=True,
    source="botocore bedrock-runtime service-2.json ImageSource, VideoSource, S3Location "
    "(read 2026-12)",
)
