"""The public surface: one sorted __all__, every name importable, nothing private leaking."""

from __future__ import annotations

import importlib
import inspect
import pickle
import typing
import warnings

import pytest

import mediaparts as mp
import mediaparts.detection as detection
import mediaparts.testing as testing

DOCUMENTED_NAMES = {
    # The documented public API (CONTRACT §1-6): detection, parts, messages, providers,
    # fetching, errors.
    "detect",
    "detect_media_type",
    "canonical_media_type",
    "Detection",
    "ImagePart",
    "AudioPart",
    "VideoPart",
    "FilePart",
    "TextPart",
    "MediaPart",
    "part",
    "System",
    "User",
    "Assistant",
    "Tool",
    "ToolCall",
    "Usage",
    "message_from_dict",
    "merge_runs",
    "providers",
    "normalize",
    "anormalize",
    "normalize_many",
    "render",
    "arender",
    "estimate_tokens",
    "check",
    "NormalizedPart",
    "Provider",
    "Violation",
    "FetchPolicy",
    "from_upload",
    "afrom_upload",
    "safe_client",
    "safe_async_client",
    "configure",
    "offline",
    "MediaError",
    "UnsupportedMediaType",
    "InvalidMedia",
    "MediaTooLarge",
    "ProviderLimitError",
    "FetchError",
    "BlockedURL",
    "OfflineError",
    "BlockedPath",
    "untrusted",
}


# The namespaces that hold what the top level spells without listing it in `__all__` (each
# name keeps its top-level spelling, without a warning).
NAMESPACES = (
    "errors",
    "batch",
    "tokens",
    "pricing",
    "uploading",
    "fetching",
    "detection",
    "converting",
    "providers",
)
# Every public package and module, whose `__all__` names must report a public module.
PUBLIC_MODULES = (
    "mediaparts",
    "mediaparts.batch",
    "mediaparts.converting",
    "mediaparts.detection",
    "mediaparts.distributed",
    "mediaparts.errors",
    "mediaparts.fetching",
    "mediaparts.formats",
    "mediaparts.imaging",
    "mediaparts.pricing",
    "mediaparts.providers",
    "mediaparts.providers.wires",
    "mediaparts.testing",
    "mediaparts.tokens",
    "mediaparts.uploading",
)


def test_all_is_sorted_and_small() -> None:
    """__all__ is sorted, names only what exists, and holds at most 60 names."""
    assert mp.__all__ == sorted(mp.__all__)
    assert all(hasattr(mp, name) for name in mp.__all__)
    assert len(mp.__all__) <= 60, len(mp.__all__)


def test_every_public_attribute_is_listed_here_or_in_its_namespace() -> None:
    """A public name of the top level outside `__all__` is in one of its namespaces'."""
    public = {n for n in vars(mp) if not n.startswith("_")} - {"annotations"}
    modules = {n for n in public if type(getattr(mp, n)).__name__ == "module"}
    spelled = {
        n
        for space in NAMESPACES
        for n in importlib.import_module(f"mediaparts.{space}").__all__
        if hasattr(mp, n)
    }
    assert public - modules - set(mp.__all__) <= spelled


def test_contract_names_resolve_without_a_warning() -> None:
    """Every name the contract promises resolves at the top level, with no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert all(getattr(mp, name) is not None for name in DOCUMENTED_NAMES)


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_every_public_name_reports_a_public_module(module: str) -> None:
    """Each exported class and function reports a public module (`mp.User.__module__` is
    "mediaparts"), so tracebacks, reprs and pickles name the path users import."""
    space = importlib.import_module(module)
    private = {
        name: value.__module__
        for name in space.__all__
        if (value := getattr(space, name)) is not None
        and (isinstance(value, type) or inspect.isfunction(value))
        and value.__module__.startswith("mediaparts")
        and any(p.startswith("_") for p in value.__module__.split("."))
    }
    assert private == {}


def test_public_module_of_the_main_classes() -> None:
    """The classes users name most report the top level, and their annotations still read
    (`typing.get_type_hints` looks names up in the module a class reports)."""
    for cls in (mp.User, mp.ImagePart, mp.ToolCall, mp.NormalizedPart, mp.Options, mp.Detection):
        assert typing.get_type_hints(cls)
    assert [c.__module__ for c in (mp.User, mp.ImagePart, mp.MediaError)] == ["mediaparts"] * 3
    assert pickle.loads(pickle.dumps(mp.User("hi"))) == mp.User("hi")


def test_testing_all_is_sorted_and_resolves() -> None:
    """mediaparts.testing has a sorted __all__ of the documented helpers, all resolvable."""
    assert testing.__all__ == sorted(testing.__all__)
    assert set(testing.__all__) == {
        "MediaFactory",
        "MediaURLs",
        "assert_fits",
        "describe",
        "summarize",
    }
    assert all(callable(getattr(testing, name)) for name in testing.__all__)


def test_detection_all_is_sorted() -> None:
    """The detection sub-package has a sorted, resolvable __all__."""
    assert detection.__all__ == sorted(detection.__all__)
    assert all(hasattr(detection, name) for name in detection.__all__)


def test_error_tree_shape() -> None:
    """The error tree is as drawn in the contract; input errors are also ValueErrors."""
    for cls in (
        mp.UnsupportedMediaType,
        mp.InvalidMedia,
        mp.MediaTooLarge,
        mp.ProviderLimitError,
        mp.FetchError,
        mp.InternalError,
    ):
        assert issubclass(cls, mp.MediaError)
    assert issubclass(mp.InvalidMedia, ValueError)
    assert issubclass(mp.CodecUnavailable, mp.UnsupportedMediaType)
    assert issubclass(mp.BlockedPath, mp.InvalidMedia)
    assert issubclass(mp.BlockedURL, mp.FetchError)
    assert issubclass(mp.OfflineError, mp.FetchError)
    err = mp.FetchError("boom", url="https://x", status_code=502)
    assert (str(err), err.url, err.status_code) == ("boom", "https://x", 502)


ERROR_NAMES = (
    "BlockedPath",
    "BlockedURL",
    "CodecUnavailable",
    "FetchError",
    "InternalError",
    "InvalidMedia",
    "MediaError",
    "MediaTooLarge",
    "OfflineError",
    "ProviderLimitError",
    "UnsupportedMediaType",
)


@pytest.mark.parametrize("name", ERROR_NAMES)
def test_errors_named_by_public_path(name: str) -> None:
    """Errors report as mediaparts.X in tracebacks and survive pickling by that path."""
    cls = getattr(mp, name)
    assert cls.__module__ == "mediaparts"
    err = cls("what went wrong")
    copy = pickle.loads(pickle.dumps(err))
    assert (type(copy), str(copy)) == (cls, "what went wrong")


def test_codec_unavailable_carries_what_to_install() -> None:
    """CodecUnavailable names the package and extra, and defaults to neither."""
    err = mp.CodecUnavailable("needs pillow-heif", package="pillow-heif", extra="heif")
    assert (err.package, err.extra, err.accepted) == ("pillow-heif", "heif", ())
    assert (mp.CodecUnavailable("x").package, mp.CodecUnavailable("x").extra) == ("", None)


def test_unknown_provider_survives_pickling() -> None:
    """UnknownProvider crosses a process boundary with its name and the known names."""
    err = mp.UnknownProvider("mistral", ("anthropic", "openai"))
    copy = pickle.loads(pickle.dumps(err))
    assert (type(copy), str(copy)) == (mp.UnknownProvider, str(err))
    assert (copy.name, copy.known) == ("mistral", ("anthropic", "openai"))


def test_import_is_light() -> None:
    """Importing mediaparts imports neither Pillow, httpx nor asyncio (each loads when used)."""
    import subprocess
    import sys

    heavy = ("PIL", "httpx", "asyncio")
    code = f"import sys, mediaparts; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_import_builds_no_model() -> None:
    """Importing mediaparts builds no pydantic validator, nor loads what it needs only later."""
    import subprocess
    import sys

    code = (
        "import sys, pydantic, mediaparts as mp\n"
        "built = [c.__name__ for c in vars(mp).values()\n"
        "         if isinstance(c, type) and issubclass(c, pydantic.BaseModel)\n"
        "         and c.__pydantic_complete__]\n"
        "lazy = ('email', 'importlib.metadata', 'filetype', 'mediaparts.detection._signatures',\n"
        "        'mediaparts.detection._sniff', 'mediaparts.formats._duration',\n"
        "        'mediaparts.formats._pdf')\n"
        "loaded = [m for m in lazy if m in sys.modules]\n"
        "print(built, loaded)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] []"


# What a fresh interpreter does first with a model that import left unbuilt.
FIRST_USES = {
    "validate": "assert mp.User('hi').parts[0].text == 'hi'",
    "dump": "assert mp.ImagePart(data=b'\\x89PNG\\r\\n\\x1a\\n').to_dict()['kind'] == 'image'",
    "schema": "assert 'text' in mp.TextPart.model_json_schema()['properties']",
    "construct": "assert mp.Usage.model_construct(input_tokens=3).model_dump()['input_tokens'] == 3",
    "pickle": (
        "import pickle; made = mp.Assistant('ok', usage=mp.Usage(input_tokens=1))\n"
        "assert pickle.loads(pickle.dumps(made)) == made"
    ),
    "from dict": "assert mp.message_from_dict({'role': 'tool', 'parts': []}).role == 'tool'",
    "threads": (
        "import threading\n"
        "start, made = threading.Barrier(8), []\n"
        "def make(i):\n"
        "    start.wait()\n"
        "    gif = b'GIF89a\\x01\\x00\\x01\\x00\\x00\\x00\\x00;'\n"
        "    made.append(mp.User(f'hi {i}', files=[mp.part(gif), mp.part(b'notes')]))\n"
        "threads = [threading.Thread(target=make, args=(i,)) for i in range(8)]\n"
        "for t in threads: t.start()\n"
        "for t in threads: t.join()\n"
        "assert sorted(m.parts[0].text for m in made) == [f'hi {i}' for i in range(8)]"
    ),
}


@pytest.mark.parametrize("use", FIRST_USES.values(), ids=FIRST_USES.keys())
def test_unbuilt_model_first_use(use: str) -> None:
    """Each first use of a model left unbuilt at import builds it and works, threads too."""
    import subprocess
    import sys

    code = f"import mediaparts as mp\n{use}\nprint('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (out.returncode, out.stdout.strip(), out.stderr) == (0, "ok", "")
