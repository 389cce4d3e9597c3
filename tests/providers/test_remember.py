"""Fitted results remembered on the part: the same part fitted again costs no decode, and a
changed provider, rule, model, detail, policy or part never gets a stale result."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import functools
import gc
import json
import pickle
import threading
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

import mediaparts as mp
import mediaparts.imaging
from mediaparts._conversation._remembered import KEPT, Remembered
from mediaparts.providers._fitting import _normalize
from mediaparts.testing import MediaFactory

FIVE = ("openai", "openai-responses", "anthropic", "gemini", "bedrock")


def _counting(
    monkeypatch: pytest.MonkeyPatch, where: object, name: str, original: Any
) -> list[int]:
    """Replace `where.name` by `original` counting its calls; the count is the list's length."""
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(where, name, counted)
    return calls


@pytest.fixture
def fits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the images normalize fits (decodes or re-reads); the count is the list's length."""
    return _counting(monkeypatch, _normalize, "fit_image", mediaparts.imaging.fit_image)


def _photo(media: MediaFactory) -> mp.ImagePart:
    """A sideways photo (EXIF orientation 6), wider than some providers take: fitting decodes."""
    return media.image(2400, 1800, "jpeg", orientation=6)


def _conversation(*photos: mp.ImagePart) -> list[mp.Message]:
    messages: list[mp.Message] = [mp.System("Be brief.")]
    for i, photo in enumerate(photos):
        messages += [mp.User([f"photo {i}", photo]), mp.Assistant(f"a photo ({i})")]
    return messages


def _fresh(part: mp.ImagePart) -> mp.ImagePart:
    return mp.ImagePart.from_bytes(part.data, filename=part.filename)


def _dumped(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True, default=repr)


@pytest.mark.parametrize("provider", FIVE)
def test_remember_render_again_is_identical_without_decoding(
    provider: str, media: MediaFactory, fits: list[int]
) -> None:
    """A second render decodes nothing and is byte-identical to the first and to fresh parts'."""
    photos = (_photo(media), media.image(300, 200, "png"))
    first = _dumped(mp.render(_conversation(*photos), provider))
    fitted = len(fits)
    again = _dumped(mp.render(_conversation(*photos), provider))
    assert len(fits) == fitted
    assert again == first == _dumped(mp.render(_conversation(*map(_fresh, photos)), provider))


@pytest.mark.parametrize("provider", FIVE)
def test_remember_arender_again_is_identical_without_decoding(
    provider: str, media: MediaFactory, fits: list[int]
) -> None:
    """arender finds what render fitted: the same payload, no image fitted again."""
    photo = _photo(media)
    first = mp.render(_conversation(photo), provider)
    fitted = len(fits)
    assert asyncio.run(mp.arender(_conversation(photo), provider)) == first
    assert len(fits) == fitted


def test_remember_result_is_the_parts_own(media: MediaFactory) -> None:
    """The remembered result is returned as a result of the part it is asked for."""
    photo = _photo(media)
    first, again = mp.normalize(photo, "anthropic"), mp.normalize(photo, "anthropic")
    assert again.part is photo and first.part is photo
    assert (again.data, again.steps, again.width) == (first.data, first.steps, first.width)


def _changes() -> list[tuple[str, Any, dict[str, Any]]]:
    """Each input a remembered result depends on, changed: (what, provider, keywords)."""
    anthropic = mp.providers.get("anthropic")
    return [
        ("another provider", "gemini", {}),
        ("changed rules", anthropic.with_rules(image_max_width=500), {}),
        ("a model", "openai", {"model": "gpt-4o-mini"}),
        ("a detail level", "openai", {"detail": "low"}),
        ("another policy", "anthropic", {"transforms": mp.TransformPolicy()}),
    ]


def _variants() -> list[tuple[str, Callable[[mp.ImagePart], mp.NormalizedPart]]]:
    return [
        (what, functools.partial(_normalize_with, provider=provider, keywords=keywords))
        for what, provider, keywords in _changes()
    ]


def _normalize_with(
    part: mp.ImagePart, provider: Any, keywords: dict[str, Any]
) -> mp.NormalizedPart:
    return mp.normalize(part, provider, **keywords)


@pytest.mark.parametrize(("what", "changed"), _variants(), ids=[v[0] for v in _variants()])
def test_remember_changed_input_gets_its_own_result(
    what: str, changed: Callable[[mp.ImagePart], mp.NormalizedPart], media: MediaFactory
) -> None:
    """A changed provider, rule, model, detail or policy gets what a fresh part gets."""
    photo = _photo(media)
    for provider in ("anthropic", "openai", "gemini"):
        mp.normalize(photo, provider)
    got, expected = changed(photo), changed(_fresh(photo))
    assert (got.data, got.width, got.height, got.detail, got.tokens, got.steps) == (
        expected.data,
        expected.width,
        expected.height,
        expected.detail,
        expected.tokens,
        expected.steps,
    )


def test_remember_changed_rules_are_not_stale(media: MediaFactory) -> None:
    """Narrower rules on a provider record fit the part again, to the narrower size."""
    photo = _photo(media)
    anthropic = mp.providers.get("anthropic")
    wide = mp.normalize(photo, anthropic)
    narrow = mp.normalize(photo, anthropic.with_rules(image_max_width=400))
    assert narrow.width == 400 and wide.width != 400


def test_remember_is_bounded(media: MediaFactory) -> None:
    """However many providers and rules a part is fitted for, it keeps at most KEPT results."""
    photo = _photo(media)
    anthropic = mp.providers.get("anthropic")
    for width in range(300, 300 + 3 * KEPT):
        mp.normalize(photo, anthropic.with_rules(image_max_width=width))
    remembered = photo._private()["_remembered"]
    assert remembered is not None and len(remembered) == KEPT


@pytest.mark.parametrize(
    "update", [{"detail": "low"}, {"filename": "other.jpg"}, {"cache": "5m"}, {}]
)
def test_remember_copy_starts_with_nothing(update: dict[str, Any], media: MediaFactory) -> None:
    """A copy (its fields changed or not) remembers nothing of the part it copies, and is
    fitted as a fresh part with its fields is."""
    photo = _photo(media)
    mp.normalize(photo, "openai")
    for copied in (photo.model_copy(update=update), copy.copy(photo), copy.deepcopy(photo)):
        assert not copied._private()["_remembered"]
        got = mp.normalize(copied, "openai")
        fresh = mp.ImagePart.from_bytes(
            copied.data, filename=copied.filename, detail=copied.detail, cache=copied.cache
        )
        expected = mp.normalize(fresh, "openai")
        assert got.part is copied
        assert (got.data, got.detail, got.tokens, got.filename) == (
            expected.data,
            expected.detail,
            expected.tokens,
            expected.filename,
        )


def test_remember_copy_with_other_bytes_is_fitted_anew(media: MediaFactory) -> None:
    """A copy given other bytes is fitted (and counted) from its own bytes, not the part's."""
    photo, other = _photo(media), media.image(300, 200, "jpeg")
    mp.normalize(photo, "anthropic")
    mp.count_tokens(photo, "anthropic")
    copied = photo.model_copy(update={"inline": other.inline})
    assert mp.normalize(copied, "anthropic").data == mp.normalize(other, "anthropic").data
    assert mp.count_tokens(copied, "anthropic").total == mp.count_tokens(other, "anthropic").total


def test_remember_nothing_crosses_a_pickle(media: MediaFactory) -> None:
    """A pickled part carries no remembered results: it is no larger, and starts afresh."""
    photo = _photo(media)
    before = len(pickle.dumps(photo))
    mp.normalize(photo, "openai")
    data = pickle.dumps(photo)
    assert len(data) <= before + len(pickle.dumps(Remembered()))
    assert not pickle.loads(data)._private()["_remembered"]


def test_remember_keeps_no_reference_cycle(media: MediaFactory) -> None:
    """A part with remembered results is freed as soon as it is dropped, without a GC pass."""
    photo = _photo(media)
    for provider in FIVE:
        mp.render(_conversation(photo), provider)
    gone = weakref.ref(photo)
    gc.disable()
    try:
        del photo
        assert gone() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("pdf", ["split", "pages"])
def test_remember_pieces_keep_no_reference_cycle(pdf: Any, media: MediaFactory) -> None:
    """A PDF sent as pieces (split, or page images) is remembered, and freed once dropped."""
    document = media.pdf(3)
    narrow = mp.providers.get("anthropic").with_rules(file_max_pages=1)
    policy = mp.TransformPolicy(pdf=pdf)
    first = mp.normalize(document, narrow, transforms=policy)
    again = mp.normalize(document, narrow, transforms=policy)
    last = again.pieces[-1]
    assert isinstance(last, mp.NormalizedPart) and last.part is document
    assert len(again.pieces) == len(first.pieces)
    assert [getattr(p, "data", None) for p in again.pieces] == [
        getattr(p, "data", None) for p in first.pieces
    ]
    gone = weakref.ref(document)
    gc.disable()
    try:
        del document, first, again, last
        assert gone() is None
    finally:
        gc.enable()


def test_remember_unknown_model_warns_every_time(media: MediaFactory, fits: list[int]) -> None:
    """A model the tables do not know is fitted (and warned about) on every call."""
    photo = _photo(media)
    for _ in range(2):
        with pytest.warns(mp.UnknownModelWarning):
            mp.normalize(photo, "openai", model="not-a-model-7")
    assert len(fits) == 2


def test_remember_url_part_fits_its_own_bytes(httpx_mock: HTTPXMock, media: MediaFactory) -> None:
    """Two parts of one URL that served different bytes each get the result of their own."""
    url = "https://example.com/photo.jpg"
    first, second = media.image(2400, 1800, "jpeg"), media.image(1800, 2400, "jpeg")
    for served in (first, second):
        httpx_mock.add_response(
            url=url, content=served.data, headers={"content-type": "image/jpeg"}
        )
    parts = [mp.ImagePart.from_url(url), mp.ImagePart.from_url(url)]
    results = [mp.normalize(p, "anthropic", urls="inline") for p in parts]
    assert [(r.width, r.height) for r in results] == [
        (mp.normalize(s, "anthropic").width, mp.normalize(s, "anthropic").height)
        for s in (first, second)
    ]
    assert mp.normalize(parts[0], "anthropic", urls="inline").data == results[0].data


def test_remember_threads_agree(media: MediaFactory) -> None:
    """Threads fitting the same part at once all get the same result (some may fit it twice)."""
    photo = _photo(media)
    results: list[mp.NormalizedPart] = []

    def work() -> None:
        results.append(mp.normalize(photo, "anthropic"))

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({r.data for r in results}) == 1 and len(results) == 6


def test_remember_estimating_is_its_own_input(media: MediaFactory) -> None:
    """A count's estimate (stand-in video frames) is not what a render gets, nor the reverse."""
    from mediaparts.providers._fitting._convert import estimating

    photo = _photo(media)
    rendered = mp.normalize(photo, "anthropic")
    with estimating():
        estimated = mp.normalize(photo, "anthropic")
    remembered = photo._private()["_remembered"]
    assert remembered is not None and len(remembered) == 2
    assert estimated.data == rendered.data


@pytest.fixture
def probes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the EXIF orientation reads of image headers."""
    original = mediaparts.imaging.image_orientation
    return _counting(monkeypatch, mediaparts.imaging, "image_orientation", original)


@pytest.mark.parametrize("provider", FIVE)
def test_remember_count_again_reads_no_header(
    provider: str, media: MediaFactory, probes: list[int]
) -> None:
    """count_tokens of the same upright and sideways photos again reads no header."""
    photos = (media.image(1600, 1200, "jpeg"), _photo(media))
    first = mp.count_tokens(_conversation(*photos), provider)
    read = len(probes)
    assert mp.count_tokens(_conversation(*photos), provider) == first
    assert len(probes) == read


def test_remember_estimate_tokens_again_reads_no_header(
    media: MediaFactory, probes: list[int]
) -> None:
    """estimate_tokens of a part it priced before reads no header again, and agrees."""
    photo = _photo(media)
    first = mp.estimate_tokens(photo, "anthropic")
    read = len(probes)
    assert mp.estimate_tokens(photo, "anthropic") == first
    assert len(probes) == read == 1


def test_remember_trim_again_decodes_nothing(
    media: MediaFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """trim(shrink_images=True) of the same parts again makes no smaller copy again."""
    from mediaparts.providers._budgets import _shrink

    made = _counting(monkeypatch, _shrink, "fit_image", mediaparts.imaging.fit_image)
    photos = [media.image(1500, 1100, "png"), media.image(1400, 1000, "png")]
    conversation = _conversation(*photos)
    first = mp.trim(conversation, "anthropic", max_tokens=1_000, shrink_images=True)
    assert made
    shrunk = len(made)
    again = mp.trim(conversation, "anthropic", max_tokens=1_000, shrink_images=True)
    assert len(made) == shrunk
    assert again == first


def test_remember_upload_path_still_uploads(media: MediaFactory) -> None:
    """With urls="upload", each render asks the uploader, whose own cache decides."""
    asked: list[mp.MediaPart] = []

    class Uploader:
        def upload_part(self, part: mp.MediaPart, provider: Any, model: Any) -> mp.MediaPart | None:
            asked.append(part)
            return None

        async def aupload_part(
            self, part: mp.MediaPart, provider: Any, model: Any
        ) -> mp.MediaPart | None:
            asked.append(part)
            return None

    photo = _photo(media)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = mp.render(_conversation(photo), "openai", urls="upload", uploader=Uploader())
        again = mp.render(_conversation(photo), "openai", urls="upload", uploader=Uploader())
    assert first == again and asked == [photo, photo]


def test_remember_result_fields_round_trip(media: MediaFactory) -> None:
    """The remembered copy differs from the first result in nothing but being another object."""
    photo = _photo(media)
    first, again = mp.normalize(photo, "bedrock"), mp.normalize(photo, "bedrock")
    assert first is not again
    assert dataclasses.astuple(first) == dataclasses.astuple(again)


def _count_variants() -> list[tuple[str, Callable[[list[mp.Message]], mp.TokenCount]]]:
    return [
        (what, functools.partial(_count_with, provider=provider, keywords=keywords))
        for what, provider, keywords in _changes()
    ]


def _count_with(
    messages: list[mp.Message], provider: Any, keywords: dict[str, Any]
) -> mp.TokenCount:
    return mp.count_tokens(messages, provider, **keywords)


@pytest.mark.parametrize(
    ("what", "counted"), _count_variants(), ids=[v[0] for v in _count_variants()]
)
def test_remember_count_changed_input_gets_its_own_count(
    what: str, counted: Callable[[list[mp.Message]], mp.TokenCount], media: MediaFactory
) -> None:
    """A count for another provider, rule, model, detail or policy is a fresh part's count."""
    photos = (_photo(media), media.image(1600, 1200, "jpeg"))
    for provider in ("anthropic", "openai", "gemini"):
        mp.count_tokens(_conversation(*photos), provider)
    assert counted(_conversation(*photos)) == counted(_conversation(*map(_fresh, photos)))


def test_remember_count_tries_an_unknown_part_again(
    httpx_mock: HTTPXMock, media: MediaFactory
) -> None:
    """A part that could not be counted (its fetch failed) is counted once it can be."""
    url = "https://example.com/photo.jpg"
    photo = media.image(1600, 1200, "jpeg")
    httpx_mock.add_response(url=url, status_code=404)
    httpx_mock.add_response(url=url, content=photo.data, headers={"content-type": "image/jpeg"})
    part = mp.ImagePart.from_url(url)
    failed = mp.count_tokens(part, "anthropic")
    assert failed.messages[0].parts[0].method == "unknown"
    again = mp.count_tokens(part, "anthropic")
    assert again.total == mp.count_tokens(photo, "anthropic").total > 0


def test_remember_model_names_kept_are_bounded() -> None:
    """Whether each model name is known is kept for a bounded number of names."""
    from mediaparts.providers._fitting import _remember

    openai, policy = mp.providers.get("openai"), mp.TransformPolicy()
    inputs = [
        _remember.fitting_inputs(openai, f"model-{i}", None, policy)
        for i in range(2 * _remember._GUESSED_KEPT)
    ]
    assert inputs == [None] * len(inputs)
    assert _remember.fitting_inputs(openai, "gpt-4o", None, policy) is not None
    assert 0 < len(_remember._GUESSED) <= _remember._GUESSED_KEPT


def test_remember_keeps_nothing_that_would_hold_the_part(media: MediaFactory) -> None:
    """A result of another part, or with the part deep in its pieces, is not remembered."""
    from mediaparts.providers._fitting import _remember

    photo, other = _photo(media), media.image(30, 20, "png")
    inputs = _remember.fitting_inputs(mp.providers.get("openai"), None, None, mp.TransformPolicy())
    leaf = mp.NormalizedPart(kind="image", media_type="image/png", data=b"x", part=photo)
    deep = mp.NormalizedPart(kind="image", media_type="image/png", pieces=(leaf,), part=other)
    cases = [
        mp.NormalizedPart(kind="image", media_type="image/png", data=b"x", part=other),
        mp.NormalizedPart(kind="file", media_type="image/png", pieces=(deep,), part=photo),
    ]
    for made in cases:
        assert _remember.keep(photo, inputs, made) is made
    assert not photo._private()["_remembered"]
