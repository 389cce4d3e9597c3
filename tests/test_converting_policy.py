"""TransformPolicy: its fields are checked, it is set per call, per block or per process."""

from __future__ import annotations

import math
from typing import Any

import pytest

import mediaparts as mp
from mediaparts.converting import default_transforms


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("video", "gif"),
        ("video", None),
        ("sampling", "random"),
        ("pdf", "shrink"),
        ("frames", 0),
        ("frames", 2.5),
        ("frames", True),
        ("frames", 257),
        ("timeout", 86_401),
        ("timeout", 1e308),
        ("max_pages", -1),
        ("max_pixels", "many"),
        ("max_expanded_bytes", 0),
        ("inflation_ratio", 0),
        ("text_ratio", math.nan),
        ("svg_work_per_byte", 0),
        ("svg_work_per_byte", 1.5),
        ("video_pixels_per_byte", 0),
        ("video_pixels_per_byte", 2.5),
        ("max_audio_samples_per_byte", 0),
        ("max_audio_samples_per_byte", 2.5),
        ("audio_samples_floor", -1),
        ("max_seconds", 0),
        ("max_seconds", math.inf),
        ("timeout", math.nan),
        ("timeout", "10"),
    ],
)
def test_policy_wrong_value_is_invalid_config(field: str, value: Any) -> None:
    """A wrong value raises InvalidConfig naming the field."""
    with pytest.raises(mp.InvalidConfig, match=f"TransformPolicy.{field}"):
        mp.TransformPolicy(**{field: value})


def test_policy_replace_checks_like_new() -> None:
    """replace() makes a checked copy, and refuses a field the policy does not have."""
    policy = mp.TransformPolicy().replace(frames=3)
    assert policy.frames == 3
    with pytest.raises(mp.InvalidConfig, match="frames"):
        policy.replace(frames=0)
    with pytest.raises(mp.InvalidConfig, match="no field"):
        policy.replace(fames=3)


def test_using_transforms_is_scoped_to_the_block() -> None:
    """using_transforms sets the default inside the block only, and restores it after."""
    before = default_transforms()
    with mp.using_transforms(mp.TransformPolicy(frames=2)) as policy:
        assert default_transforms() is policy
    assert default_transforms() is before


def test_configure_sets_the_process_default() -> None:
    """mp.configure(transforms=...) sets the default every call uses."""
    before = default_transforms()
    try:
        mp.configure(transforms=mp.TransformPolicy(pdf="pages"))
        assert default_transforms().pdf == "pages"
    finally:
        mp.configure(transforms=before)


@pytest.mark.parametrize("value", [{"video": "audio"}, "frames", 3])
def test_configure_refuses_what_is_not_a_policy(value: Any) -> None:
    """configure and using_transforms refuse anything but a TransformPolicy."""
    with pytest.raises(mp.InvalidConfig, match="TransformPolicy"):
        mp.configure(transforms=value)
    with pytest.raises(mp.InvalidConfig, match="TransformPolicy"), mp.using_transforms(value):
        pass  # pragma: no cover - refused on entry
