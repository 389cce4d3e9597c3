"""Vision geometry and token formulas: every documented worked example, and their invariants.

Model tables are read the way users read them: through `mp.providers.get(name).rules`
(`vision_for`, `costs_for`), so what is tested is what `with_rules` can change.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts import InvalidConfig, InvalidMedia, NoDocumentedRule, UnsupportedMediaType
from mediaparts.providers import (
    AnthropicPatches,
    GeminiMediaResolution,
    GeminiTiles,
    MediaRates,
    ModelRule,
    OpenAIPatches,
    OpenAITiles,
    PatchBudget,
    Undocumented,
    VisionGeometry,
)
from mediaparts.providers._budgets._vision import lookup


def vision_geometry(provider: str, model: str | None = None) -> VisionGeometry:
    """The image geometry a provider applies for a model, as users read it."""
    return mp.providers.get(provider).rules.vision_for(model)


def image_tokens(
    provider: str, width: int, height: int, model: str | None = None, detail: str | None = None
) -> int:
    """The tokens of an upright image on a provider and model."""
    return vision_geometry(provider, model).tokens(width, height, detail)


def media_costs(provider: str, model: str | None = None) -> MediaRates:
    """The audio, video and PDF rates of a provider and model."""
    return mp.providers.get(provider).rules.costs_for(model)


def audio_tokens(provider: str, seconds: float, model: str | None = None) -> int:
    return media_costs(provider, model).audio_tokens(seconds)


def video_tokens(
    provider: str, seconds: float, model: str | None = None, *, has_audio: bool = True
) -> int:
    return media_costs(provider, model).video_tokens(seconds, has_audio=has_audio)


def pdf_tokens(provider: str, pages: float, model: str | None = None) -> int:
    return media_costs(provider, model).pdf_tokens(int(pages))


GPT_4O = OpenAITiles(base=85, tile=170)
# gpt-4.1-mini's older rule: 1,536 patches, no pixel box, multiplier left out by the example.
OLD_1536 = OpenAIPatches({"high": PatchBudget(65_535, 1536)}, 1.0)
STANDARD = AnthropicPatches()
HIGH_RES = AnthropicPatches(max_long_edge=2576, max_tokens=4784)


def _every_geometry() -> list[VisionGeometry]:
    found: list[VisionGeometry] = [OLD_1536, GeminiTiles()]
    for name in mp.providers.names():
        for row in mp.providers.get(name).rules.vision:
            if row.rule not in found:
                found.append(row.rule)
    return found


GEOMETRIES = _every_geometry()
DOCUMENTED = [g for g in GEOMETRIES if g.documented]


# --- The worked examples in the providers' docs -------------------------------------


@pytest.mark.parametrize(
    ("size", "detail", "target", "tokens"),
    [
        ((1024, 1024), "high", (768, 768), 765),
        ((2048, 4096), "high", (768, 1536), 1105),
        ((4096, 8192), "low", (256, 512), 85),
    ],
)
def test_openai_tiles_gpt_4o_vectors(
    size: tuple[int, int], detail: str, target: tuple[int, int], tokens: int
) -> None:
    """gpt-4o's tile rule gives the doc's 765, 1105 and 85 tokens."""
    assert GPT_4O.target_size(*size, detail) == target
    assert GPT_4O.tokens(*size, detail) == tokens
    assert image_tokens("openai", *size, "gpt-4o", detail) == tokens


def test_openai_tiles_small_image_not_enlarged() -> None:
    """A 512 px square stays 512 px under the current rule: one tile (the current rule never enlarges)."""
    assert GPT_4O.target_size(512, 512, "high") == (512, 512)
    assert GPT_4O.tokens(512, 512, "high") == 255


@pytest.mark.parametrize(
    ("size", "target", "tokens"),
    [((1024, 1024), (1024, 1024), 1024), ((1800, 2400), (1056, 1408), 1452)],
)
def test_openai_patches_1536_budget_vectors(
    size: tuple[int, int], target: tuple[int, int], tokens: int
) -> None:
    """The 1,536-patch examples: 1024 square = 1024; 1800x2400 -> 1056x1408 = 1452."""
    assert OLD_1536.target_size(*size, "high") == target
    assert OLD_1536.tokens(*size, "high") == tokens


@pytest.mark.parametrize(
    ("size", "target", "tokens"),
    [((1024, 1024), (1024, 1024), 1229), ((2048, 2048), (1600, 1600), 3000)],
)
def test_openai_patches_gpt_5_4_high_vectors(
    size: tuple[int, int], target: tuple[int, int], tokens: int
) -> None:
    """gpt-5.4 high: 1024 square = 1229; 2048 square -> 1600 square = 3000."""
    geometry = vision_geometry("openai", "gpt-5.4")
    assert geometry.target_size(*size, "high") == target
    assert geometry.tokens(*size, "high") == tokens


def test_openai_gpt_5_4_low_can_cost_more_than_high() -> None:
    """gpt-5.4's low has the 6,144-patch budget, so a 2048 square costs more than at high."""
    geometry = vision_geometry("openai", "gpt-5.4-mini")
    assert geometry.tokens(2048, 2048, "low") == math.ceil(4096 * 1.2)
    assert geometry.tokens(2048, 2048, "low") > geometry.tokens(2048, 2048, "high")
    assert geometry.tokens(2048, 2048) == geometry.tokens(2048, 2048, "high")  # auto = high


# 2000x1500: the doc's table says 1269x952, its reference implementation returns 1270x952;
# both cost 1564. The implementation is what the API runs, so 1270 is asserted.
ANTHROPIC_VECTORS = [
    ((200, 200), (200, 200), 64, (200, 200), 64),
    ((1000, 1000), (1000, 1000), 1296, (1000, 1000), 1296),
    ((1092, 1092), (1092, 1092), 1521, (1092, 1092), 1521),
    ((1920, 1080), (1456, 819), 1560, (1920, 1080), 2691),
    ((2000, 1500), (1270, 952), 1564, (2000, 1500), 3888),
    ((3840, 2160), (1456, 819), 1560, (2576, 1449), 4784),
    ((1075, 1520), (924, 1307), 1551, (1075, 1520), 2145),
]


@pytest.mark.parametrize(
    ("size", "standard", "std_tokens", "high", "high_tokens"), ANTHROPIC_VECTORS
)
def test_anthropic_vectors(
    size: tuple[int, int],
    standard: tuple[int, int],
    std_tokens: int,
    high: tuple[int, int],
    high_tokens: int,
) -> None:
    """The 28-px rule reproduces the doc's table on both tiers, and the A4 example."""
    assert STANDARD.target_size(*size) == standard
    assert STANDARD.tokens(*size) == std_tokens
    assert HIGH_RES.target_size(*size) == high
    assert HIGH_RES.tokens(*size) == high_tokens


# Mistral's vision FAQ (docs.mistral.ai/studio/conversations/vision, read 2026-12): "≈ 3025"
# tokens at most at 1540x1540 (Large 3, Small 3.2, Medium 3, Ministral 3) and "≈ 4096" at
# 1024x1024 (Pixtral); larger images are downscaled to that maximum.
MISTRAL_VECTORS = [
    ("mistral-large-latest", (1540, 1540), (1540, 1540), 3025),
    ("mistral-small-2506", (3080, 3080), (1540, 1540), 3025),
    ("ministral-8b-2512", (784, 784), (784, 784), 784),
    (None, (1540, 1540), (1540, 1540), 3025),
    ("pixtral-large-latest", (1024, 1024), (1024, 1024), 4096),
    ("pixtral-12b-2409", (2048, 1024), (1024, 512), 2048),
]


@pytest.mark.parametrize(("model", "size", "target", "tokens"), MISTRAL_VECTORS)
def test_mistral_vectors(
    model: str | None, size: tuple[int, int], target: tuple[int, int], tokens: int
) -> None:
    """Mistral's patch rules give the FAQ's maxima, and shrink larger images to the maximum."""
    geometry = vision_geometry("mistral", model)
    assert geometry.target_size(*size) == target
    assert geometry.tokens(*size) == tokens


def test_anthropic_screenshot_is_not_1568_wide() -> None:
    """A 1920x1080 screenshot "resizes to 1456x819, not 1568x882": the token limit binds."""
    assert STANDARD.target_size(1920, 1080) != (1568, 882)
    assert STANDARD.target_size(1080, 1920) == (819, 1456)  # portrait is the mirror image


def test_gemini_small_image_is_258() -> None:
    """An image with both sides <= 384 px costs 258 tokens on Gemini 2.x."""
    assert image_tokens("gemini", 384, 384, "gemini-2.5-flash") == 258
    assert image_tokens("gemini", 385, 200, "gemini-2.0-flash") == 258  # one 768 tile


def test_gemini_tiles_count_768_tiles() -> None:
    """Larger images cost 258 per 768 x 768 tile (no official worked example exists)."""
    assert GeminiTiles().tokens(1920, 1080) == 3 * 2 * 258


def test_gemini_1_5_tiles_follow_the_short_side() -> None:
    """Gemini 1.5's tile is min(w, h) / 1.5 clamped to 256-768 px."""
    geometry = vision_geometry("gemini", "gemini-1.5-pro")
    assert geometry.tokens(900, 600) == 3 * 2 * 258  # tile 400 px
    assert geometry.tokens(3000, 3000) == 4 * 4 * 258  # tile clamped to 768


@pytest.mark.parametrize(
    ("detail", "tokens"),
    [
        ("low", 280),
        ("medium", 560),
        ("high", 1120),
        ("ultra_high", 2240),
        (None, 1120),
        ("MEDIA_RESOLUTION_LOW", 280),
    ],
)
def test_gemini_3_media_resolution(detail: str | None, tokens: int) -> None:
    """Gemini 3 charges a fixed count per image by media resolution; auto is high."""
    assert image_tokens("gemini", 4000, 3000, "gemini-3-pro-preview", detail) == tokens
    assert image_tokens("gemini", 10, 10, None, detail) == tokens  # None = Gemini 3


# --- Non-image costs ------------------------------------------------------------------------


def test_gemini_one_minute_of_audio_is_1920() -> None:
    """Gemini: "one minute of audio is represented as 1,920 tokens"."""
    assert audio_tokens("gemini", 60) == 1920
    assert audio_tokens("gemini", 60, "gemini-2.5-pro") == 1920
    assert audio_tokens("gemini", 0.5) == 16


def test_gemini_video_is_about_300_per_second() -> None:
    """Video is 263 tokens/s of frames plus 32 of audio: the video page's ~300/s."""
    assert video_tokens("gemini", 1) == 295
    assert video_tokens("gemini", 10, has_audio=False) == 2630


def test_gemini_pdf_pages() -> None:
    """PDF pages cost 258 on Gemini 2.x and 560 by default on Gemini 3."""
    assert pdf_tokens("gemini", 3, "gemini-2.5-flash") == 774
    assert pdf_tokens("gemini", 3, "gemini-3-flash") == 1680


@pytest.mark.parametrize(
    ("provider", "kind"), [("anthropic", "audio"), ("anthropic", "video"), ("openai", "video")]
)
def test_media_not_accepted_raises_unsupported(provider: str, kind: str) -> None:
    """Media the API does not take raises UnsupportedMediaType naming the provider."""
    costs = media_costs(provider)
    with pytest.raises(UnsupportedMediaType, match=costs.provider) as info:
        costs.audio_tokens(1) if kind == "audio" else costs.video_tokens(1)
    assert info.value.provider == costs.provider


@pytest.mark.parametrize(
    ("provider", "kind"),
    [
        ("openai", "audio"),
        ("openai-responses", "pdf"),
        ("anthropic", "pdf"),
        ("bedrock", "audio"),
        ("bedrock", "video"),
    ],
)
def test_media_without_documented_rule_raises(provider: str, kind: str) -> None:
    """Media with no documented formula raises NoDocumentedRule instead of guessing."""
    estimate = {"audio": audio_tokens, "video": video_tokens, "pdf": pdf_tokens}[kind]
    with pytest.raises(NoDocumentedRule, match="no token rule") as info:
        estimate(provider, 2)
    assert info.value.provider is not None


def test_negative_duration_is_invalid() -> None:
    """A negative or NaN duration is refused."""
    with pytest.raises(InvalidMedia):
        audio_tokens("gemini", -1)
    with pytest.raises(InvalidMedia):
        audio_tokens("gemini", float("nan"))


def test_unknown_provider_raises() -> None:
    """An unknown provider name is UnknownProvider listing the registered ones."""
    with pytest.raises(mp.UnknownProvider, match="the providers are anthropic") as info:
        vision_geometry("no-such-provider")
    assert info.value.name == "no-such-provider" and info.value.known == mp.providers.names()


# --- Model tables ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "model", "expected"),
    [
        ("openai", "gpt-4o-2024-08-06", OpenAITiles(85, 170)),
        ("openai", "GPT-4o", OpenAITiles(85, 170)),
        ("openai", "openai/gpt-4.1", OpenAITiles(85, 170)),
        ("openai", "gpt-4o-mini", OpenAITiles(2833, 5667)),
        ("openai", "gpt-5", OpenAITiles(70, 140)),
        ("openai", "gpt-5-2025-08-07", OpenAITiles(70, 140)),
        ("openai", "gpt-5.1", OpenAITiles(70, 140)),
        ("openai", "o3", OpenAITiles(75, 150)),
        ("openai", "computer-use-preview", OpenAITiles(65, 129)),
        ("openai", "gpt-image-1", OpenAITiles(65, 129, short_side=512)),
        ("anthropic", "claude-sonnet-4-5", STANDARD),
        ("anthropic", "claude-sonnet-4-5-20250929", STANDARD),
        ("anthropic", "claude-3-7-sonnet-20250219", STANDARD),
        ("anthropic", "claude-3-5-haiku-latest", STANDARD),
        ("anthropic", "claude-opus-4-1", STANDARD),
        ("anthropic", "claude-opus-4-7", HIGH_RES),
        ("anthropic", "claude-sonnet-4-8-20270101", HIGH_RES),
        ("anthropic", "claude-opus-5", HIGH_RES),
        ("anthropic", None, STANDARD),
        ("bedrock", "us.anthropic.claude-opus-4-7-v1:0", HIGH_RES),
        ("bedrock", "anthropic.claude-3-5-sonnet-20241022-v2:0", STANDARD),
        ("bedrock", None, STANDARD),
        ("gemini", "gemini-2.5-pro", GeminiTiles()),
        ("gemini", "models/gemini-2.0-flash", GeminiTiles()),
        ("gemini", "gemini-3-pro-preview", GeminiMediaResolution()),
        ("gemini", None, GeminiMediaResolution()),
        ("mistral", "pixtral-large-2411", AnthropicPatches(1024, 4096, 16)),
        ("mistral", "mistral-medium-latest", AnthropicPatches(1540, 3025, 28)),
        (
            "mistral",
            "codestral-latest",
            Undocumented("Mistral", "images on this model (it takes none)"),
        ),
        ("mistral", None, AnthropicPatches(1540, 3025, 28)),
    ],
)
def test_lookup_by_model(provider: str, model: str | None, expected: VisionGeometry) -> None:
    """Model names map to the documented geometry; None to the default row."""
    assert vision_geometry(provider, model) == expected


def test_lookup_unknown_name_takes_the_default_row_and_says_so() -> None:
    """A name no row matches gets the default row, with an UnknownModelWarning naming it."""
    with pytest.warns(mp.UnknownModelWarning, match="for 'claude-3\\*'"):
        assert vision_geometry("anthropic", "some-proxy-alias") == STANDARD


@pytest.mark.parametrize(
    ("model", "multiplier"),
    [
        ("gpt-5.4-mini", 1.2),
        ("gpt-5.4-nano", 1.2),
        ("gpt-5.2", 1.2),
        ("gpt-4.1-mini", 1.62),
        ("gpt-4.1-mini-2025-04-14", 1.62),
        ("gpt-5-mini", 1.2),
        ("gpt-5-nano", 1.5),
        ("gpt-4.1-nano", 2.46),
        ("o4-mini", 1.72),
    ],
)
def test_lookup_patch_models(model: str, multiplier: float) -> None:
    """Patch-rule models get their current multiplier."""
    geometry = vision_geometry("openai", model)
    assert isinstance(geometry, OpenAIPatches)
    assert geometry.multiplier == multiplier


def test_openai_default_is_the_rule_every_model_takes() -> None:
    """model=None on OpenAI is gpt-4o's row (the default row), not the newest model's: a
    9000x6000 photo is fitted to 2048 then 768 on its short side, where gpt-5.6 takes it whole."""
    geometry = vision_geometry("openai")
    assert geometry == vision_geometry("openai", "gpt-4o")
    assert geometry.target_size(9000, 6000) == (1152, 768)
    assert vision_geometry("openai", "gpt-5.6-terra").target_size(9000, 6000) == (9000, 6000)


def test_gpt_5_5_original_has_its_own_budget() -> None:
    """gpt-5.5 auto = original: 6000 px and 10,000 patches."""
    geometry = vision_geometry("openai", "gpt-5.5")
    assert geometry.target_size(3200, 3200) == (3200, 3200)  # exactly 10,000 patches
    assert geometry.tokens(3200, 3200) == 12_000
    w, h = geometry.target_size(8000, 6000)
    assert w <= 6000 and math.ceil(w / 32) * math.ceil(h / 32) <= 10_000


def test_lookup_first_match_wins_and_empty_table() -> None:
    """Rows are tried in order; an empty table is a configuration mistake."""
    table = (ModelRule("a*", 1), ModelRule("ab*", 2))
    assert lookup(table, "abc") == 1
    with pytest.warns(mp.UnknownModelWarning, match="'zzz'"):
        assert lookup(table, "zzz") == 1
    marked = (ModelRule("a*", 1), ModelRule("ab*", 2, default=True))
    assert lookup(marked, None) == 2
    with pytest.raises(InvalidConfig, match="at least one"):
        lookup((), "x")


def test_high_res_patterns_leave_older_models_alone() -> None:
    """No model older than 4.7 on the standard list is read as high-res."""
    older = ["claude-3-opus-20240229", "claude-3-7-sonnet-latest", "claude-sonnet-4-20250514",
             "claude-opus-4-1-20250805", "claude-haiku-4-5", "claude-sonnet-4-6"]  # fmt: skip
    assert all(vision_geometry("anthropic", m) == STANDARD for m in older)


def test_bedrock_non_claude_has_no_rule() -> None:
    """A Nova model on Bedrock keeps its size and refuses a token estimate."""
    geometry = vision_geometry("bedrock", "amazon.nova-pro-v1:0")
    assert isinstance(geometry, Undocumented)
    assert geometry.target_size(5000, 4000, "high") == (5000, 4000)
    with pytest.raises(NoDocumentedRule, match="Bedrock documents no rule"):
        geometry.tokens(100, 100)


# --- Detail levels --------------------------------------------------------------------------


@pytest.mark.parametrize("geometry", DOCUMENTED, ids=lambda g: g.describe())
def test_unknown_detail_raises_naming_levels(geometry: VisionGeometry) -> None:
    """An unknown detail level raises InvalidMedia listing the allowed ones."""
    with pytest.raises(InvalidMedia, match=repr(geometry.detail_levels[0])):
        geometry.tokens(100, 100, "extreme")
    with pytest.raises(InvalidMedia):
        geometry.target_size(100, 100, "extreme")


def test_original_is_not_a_level_of_gpt_4_1_mini() -> None:
    """On gpt-5.2 and gpt-4.1-mini "`original` is not supported"."""
    assert "original" not in vision_geometry("openai", "gpt-4.1-mini").detail_levels
    assert "original" in vision_geometry("openai", "gpt-5.4").detail_levels


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: g.describe())
def test_describe_is_one_line(geometry: VisionGeometry) -> None:
    """describe() gives one non-empty line for the docs' table."""
    text = geometry.describe()
    assert text and "\n" not in text


@pytest.mark.parametrize("size", [(0, 10), (10, 0), (-5, 5)])
def test_non_positive_size_raises(size: tuple[int, int]) -> None:
    """Sizes below one pixel are InvalidMedia."""
    with pytest.raises(InvalidMedia):
        STANDARD.tokens(*size)


def test_bad_level_configuration_raises() -> None:
    """An `auto` or `default` naming no level is refused (InvalidConfig) when the rule is built."""
    with pytest.raises(InvalidConfig, match="auto"):
        OpenAIPatches({"high": PatchBudget(2048)}, 1.2, auto="original")
    with pytest.raises(InvalidConfig, match="default"):
        GeminiMediaResolution(default="ultra")


# --- Invariants -----------------------------------------------------------------------------

sides = st.integers(min_value=1, max_value=20_000)


@pytest.mark.parametrize("geometry", DOCUMENTED, ids=lambda g: g.describe())
@given(width=sides, height=sides, data=st.data())
def test_target_size_never_enlarges(
    geometry: VisionGeometry, width: int, height: int, data: st.DataObject
) -> None:
    """The target is positive, no larger than the input, of the same shape, and a fixed point."""
    detail = data.draw(st.sampled_from((None, *geometry.detail_levels)))
    w, h = geometry.target_size(width, height, detail)
    assert 1 <= w <= width and 1 <= h <= height
    # Same aspect ratio within a pixel of rounding on either side (or clamping to 1 px).
    assert abs(w * height - h * width) <= width + height
    assert geometry.target_size(w, h, detail) == (w, h)
    assert geometry.tokens(w, h, detail) == geometry.tokens(width, height, detail) >= 1


@given(width=sides, height=sides)
def test_anthropic_tokens_within_limits(width: int, height: int) -> None:
    """The resized image meets both limits of each tier."""
    for geometry in (STANDARD, HIGH_RES):
        w, h = geometry.target_size(width, height)
        assert max(w, h) <= geometry.max_long_edge
        assert geometry.tokens(width, height) <= geometry.max_tokens


@given(width=sides, height=sides)
def test_openai_patches_within_budget(width: int, height: int) -> None:
    """The patch count after resizing never exceeds the level's budget."""
    geometry = vision_geometry("openai", "gpt-5.4")
    w, h = geometry.target_size(width, height, "high")
    assert max(w, h) <= 2048
    assert math.ceil(w / 32) * math.ceil(h / 32) <= 2500


@pytest.mark.parametrize("geometry", DOCUMENTED, ids=lambda g: g.describe())
def test_tokens_grow_with_square_size(geometry: VisionGeometry) -> None:
    """For squares, a larger image never costs fewer tokens."""
    for detail in geometry.detail_levels:
        costs = [geometry.tokens(n, n, detail) for n in range(1, 9000, 37)]
        assert costs == sorted(costs)
