"""`check(..., model=...)`: the model's row of the vision table decides the valid detail levels."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

import mediaparts as mp
from mediaparts.testing import MediaFactory
from tests._builders import ROOT


@pytest.mark.parametrize(
    ("model", "flagged"),
    [("gpt-4o", True), ("gpt-4.1-mini", True), ("gpt-5.4", False), (None, False)],
)
@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
def test_check_model_decides_detail_levels(
    provider: str, model: str | None, flagged: bool, media: MediaFactory
) -> None:
    """detail "original" is a violation for a model without that level, not for one with it."""
    payload = mp.render(
        mp.User([media.image(32, 32).model_copy(update={"detail": "original"})]),
        provider,
        model="gpt-5.4",
    )
    rules = [v.rule for v in mp.check(payload, provider, model=model)]
    assert rules == (["image.detail"] if flagged else [])


def test_check_model_unknown_checks_no_detail(media: MediaFactory) -> None:
    """A model the table does not know has nothing documented to check against, and says
    so (UnknownModelWarning); configured as errors, it raises UnknownModel."""
    payload = mp.render(mp.User([media.image(32, 32)]), "openai", model="gpt-4o")
    with pytest.warns(mp.UnknownModelWarning, match="'some-future-model'"):
        assert mp.check(payload, "openai", model="some-future-model") == []
    mp.configure(unknown_models="error")
    try:
        with pytest.raises(mp.UnknownModel) as refused:
            mp.check(payload, "openai", model="some-future-model")
    finally:
        mp.configure(unknown_models="warn")
    assert (refused.value.provider, refused.value.model) == ("openai", "some-future-model")
    assert "gpt-4o*" in refused.value.known


def test_check_model_must_be_text() -> None:
    """A model that is not a string is InvalidConfig (an option's value), as in normalize."""
    with pytest.raises(mp.InvalidConfig, match="model"):
        mp.check({}, "openai", model=4)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("payload_model", "model", "flagged"),
    [
        ("gpt-4o", None, True),
        ("gpt-5.4", None, False),
        ("gpt-5.4", "gpt-4o", True),
        (5, None, False),
    ],
)
def test_check_model_read_from_the_payload(
    payload_model: object, model: str | None, flagged: bool, media: MediaFactory
) -> None:
    """With model=None, a string "model" key of the payload picks the row; model= wins."""
    part = media.image(32, 32).model_copy(update={"detail": "original"})
    payload = {"model": payload_model, **mp.render(mp.User([part]), "openai", model="gpt-5.4")}
    rules = [v.rule for v in mp.check(payload, "openai", model=model)]
    assert rules == (["image.detail"] if flagged else [])


def test_normalize_rewrap_keeps_class_and_accepted(media: MediaFactory) -> None:
    """When normalize adds the provider to an error, the class and `accepted` are kept."""
    heic_only = mp.providers.get("gemini").with_rules(image_media_types=("image/heic",))
    with pytest.raises(mp.UnsupportedMediaType) as info:
        mp.normalize(media.image(16, 16), heic_only)
    assert info.value.accepted == ("image/heic",)
    assert info.value.provider == "gemini" and str(info.value).startswith("gemini: ")


def test_rules_file_is_the_kind_and_document_a_deprecated_alias() -> None:
    """Rules say "file" as parts do; the old "document" spellings still work, with a warning."""
    provider = mp.providers.get("anthropic")
    assert provider.rules.for_kind("file") is provider.rules.file
    with pytest.warns(DeprecationWarning, match="use mediaparts.providers.FileRules"):
        assert mp.providers.DocumentRules is mp.providers.FileRules
    assert "DocumentRules" not in mp.providers.__all__
    assert "DocumentRules" not in dir(mp.providers)
    with pytest.warns(DeprecationWarning, match="Rules.file"):
        assert provider.rules.document is provider.rules.file
    with pytest.warns(DeprecationWarning, match="file_max_bytes"):
        changed = provider.with_rules(document_max_bytes=1000)
    assert changed.rules.file.max_bytes == 1000
    assert provider.with_rules(file_max_bytes=1000) == changed


def test_rules_document_keyword_is_deprecated_file() -> None:
    """Rules(document=...) and dataclasses.replace(rules, document=...) set file=, warned."""
    rules = mp.providers.get("anthropic").rules
    smaller = dataclasses.replace(rules.file, max_bytes=1000)
    with pytest.warns(DeprecationWarning, match="use file="):
        replaced = dataclasses.replace(rules, document=smaller)  # type: ignore[call-arg]
    assert replaced.file is smaller
    with pytest.warns(DeprecationWarning, match="use file="):
        built = mp.providers.Rules(  # type: ignore[call-arg]  # the deprecated keyword
            provider="x", image=rules.image, audio=rules.audio, video=rules.video, document=smaller
        )
    assert built.file is smaller


def test_rules_for_kind_unknown_is_invalid_config() -> None:
    """An unknown kind is a mistake in the arguments: InvalidConfig naming the kinds."""
    rules = mp.providers.get("openai").rules
    with pytest.raises(mp.InvalidConfig, match="the kinds are image, audio, video, file"):
        rules.for_kind("document")  # type: ignore[arg-type]  # wrong on purpose


def test_unknown_models_setting_from_the_environment_is_checked() -> None:
    """A MEDIAPARTS_UNKNOWN_MODELS that is neither warn nor error is InvalidConfig naming the
    variable when an unknown model is met, not silently read as "warn"."""
    code = (
        "import mediaparts as mp\n"
        "try:\n"
        "    mp.normalize('testdata/photo.jpg', 'openai', model='zz-unknown')\n"
        "except mp.InvalidConfig as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    env = {**os.environ, "MEDIAPARTS_UNKNOWN_MODELS": "erorr"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("InvalidConfig MEDIAPARTS_UNKNOWN_MODELS must be")
