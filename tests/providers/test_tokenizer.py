"""The [tokens] extra: OpenAI text counted offline by bpe-openai equals tiktoken's own count.

The reference `tiktoken.Encoding` is built from the encoding data bpe-openai bundles (read from
the installed package) and the pattern and special tokens of tiktoken's own registry
(`tiktoken_ext.openai_public`), whose download is replaced by that data: nothing is fetched.
"""

from __future__ import annotations

import base64
import gzip
import importlib.resources
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mediaparts as mp
from mediaparts.providers._budgets import _tokenizer

bpe_openai = pytest.importorskip("bpe_openai", reason="the [tokens] extra (bpe-openai) is absent")
tiktoken = pytest.importorskip("tiktoken", reason="tiktoken (dev group) is absent")

ENCODINGS = ["o200k_base", "cl100k_base"]


def _ranks(name: str) -> dict[bytes, int]:
    """Read the merge ranks bpe-openai ships for `name` (base64 token, space, rank per line)."""
    data = importlib.resources.files("bpe_openai.data").joinpath(f"{name}.tiktoken.gz")
    ranks: dict[bytes, int] = {}
    for line in gzip.decompress(data.read_bytes()).splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@pytest.fixture(scope="module", params=ENCODINGS)
def reference(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """(name, tiktoken.Encoding) for each encoding, built offline from bpe-openai's data."""
    from tiktoken_ext import openai_public

    name: str = request.param
    ranks = _ranks(name)
    patch = pytest.MonkeyPatch()
    patch.setattr(openai_public, "load_tiktoken_bpe", lambda *args, **kwargs: ranks)
    try:
        spec = getattr(openai_public, name)()
    finally:
        patch.undo()
    return name, tiktoken.Encoding(**spec)


def _mediaparts_count(name: str, text: str) -> int:
    encoder = _tokenizer.encoder(name)
    assert encoder is not None
    tokens, exact = _tokenizer.count(encoder, text)
    assert exact
    return int(tokens)


# Text the tokenizers treat specially: contractions, digits, mixed scripts, whitespace runs,
# newlines, special tokens' text (ordinary text in a prompt), emoji and lone surrogates' kin.
EXAMPLES = [
    "",
    "Hello, world!",
    "It's 2026 and they'll've 12345678 tokens.",
    "naïve café — 東京 と Москва\n\n\tindent   spaces  \r\n",
    "<|endoftext|> is text here",
    "👩\u200d👩\u200d👧 \U0001d518\U0001d52b\U0001d526 ☃" * 3,  # emoji, fraktur letters
    "    def f(x):\n        return x  # comment\n",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_tokenizer_counts_equal_tiktoken(reference: tuple[str, Any], text: str) -> None:
    """Our count of each example is tiktoken's count with the same encoding."""
    name, encoding = reference
    assert _mediaparts_count(name, text) == len(encoding.encode(text, disallowed_special=()))


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=300))
def test_tokenizer_counts_equal_tiktoken_on_any_text(reference: tuple[str, Any], text: str) -> None:
    """On any text, our count is tiktoken's."""
    name, encoding = reference
    assert _mediaparts_count(name, text) == len(encoding.encode(text, disallowed_special=()))


_WORDY = st.lists(
    st.sampled_from(
        [
            "word",
            " word",
            " Tok",
            "\nword",
            " ",
            "\n",
            "'s",
            "42",
            ".",
            "  ",
            "é",
            "\t",
            "\n\n",
            "東",
        ]
    ),
    max_size=120,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=_WORDY)
def test_tokenizer_pieces_of_long_text_add_up(reference: tuple[str, Any], text: str) -> None:
    """Text cut into pieces (here of 24 characters) counts as the whole: cuts fall where the
    pre-tokenizer cuts anyway, and a piece without such a place is reported not exact."""
    name, encoding = reference
    tokens, exact = _tokenizer.count(_tokenizer.encoder(name), text, chunk=24)
    if exact:
        assert tokens == len(encoding.encode(text, disallowed_special=()))


def test_tokenizer_pieces_of_prose_add_up(reference: tuple[str, Any]) -> None:
    """Prose cut into pieces of 100 characters is counted exactly, as tiktoken counts it whole."""
    name, encoding = reference
    text = "\n".join(EXAMPLES) * 20
    assert _tokenizer.count(_tokenizer.encoder(name), text, chunk=100) == (
        len(encoding.encode(text, disallowed_special=())),
        True,
    )


def test_tokenizer_long_text_without_a_cut_is_not_exact() -> None:
    """A piece with nowhere to cut is cut anyway, and the count says it is not exact."""
    encoder = _tokenizer.encoder("o200k_base")
    assert _tokenizer.count(encoder, "x" * 100, chunk=16)[1] is False
    assert _tokenizer.count(encoder, "word " * 40, chunk=16) == (41, True)


def test_tokenizer_counts_openai_text_exactly() -> None:
    """With the extra, OpenAI text is "exact", counted by the model's encoding."""
    counted = mp.count_tokens(mp.User("Hello, world!"), "openai", model="gpt-4o")
    text = counted.messages[0].parts[0]
    assert (text.tokens, text.method) == (4, "exact")
    assert text.how == "o200k_base tokenizer (bpe-openai)"
    old = mp.count_tokens(mp.User("Hello, world!"), "openai", model="gpt-4").messages[0].parts[0]
    assert old.how == "cl100k_base tokenizer (bpe-openai)"


def test_tokenizer_is_not_imported_by_mediaparts() -> None:
    """`import mediaparts` (and looking up count_tokens) leaves bpe-openai unloaded."""
    code = (
        "import sys, mediaparts as mp; mp.count_tokens; mp.providers.get('openai'); "
        "assert 'bpe_openai' not in sys.modules, 'loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", ENCODINGS)
def test_tokenizer_counter_is_count(name: str) -> None:
    """The counter a count settles once gives `count`'s answer, short text or long."""
    encoder = _tokenizer.encoder(name)
    counted = _tokenizer.counter(encoder)
    for text in ["", *EXAMPLES, "word " * (_tokenizer.CHUNK // 4), "x" * (_tokenizer.CHUNK + 9)]:
        assert counted(text) == _tokenizer.count(encoder, text)


class _EncodeOnly:
    """An encoding with `encode_ordinary` and nothing else (no Rust tokenizer to count with)."""

    def encode_ordinary(self, text: str) -> list[int]:
        return list(range(len(text.split())))


def test_tokenizer_counter_without_a_counting_backend_encodes() -> None:
    """An encoding without bpe-openai's Rust `count` is counted by encoding, piece by piece."""
    counted = _tokenizer.counter(_EncodeOnly())
    assert counted("three words here") == (3, True)
    assert _tokenizer.count(_EncodeOnly(), "word " * 40, chunk=16) == (40, True)


@pytest.mark.parametrize("name", ENCODINGS)
def test_tokenizer_counter_lone_surrogate_is_encoded(name: str) -> None:
    """Text the Rust tokenizer refuses (a lone surrogate) counts as `encode_ordinary` reads it."""
    encoder = _tokenizer.encoder(name)
    assert encoder is not None
    text = "a\ud800b and more"
    assert _tokenizer.counter(encoder)(text) == (len(encoder.encode_ordinary(text)), True)
