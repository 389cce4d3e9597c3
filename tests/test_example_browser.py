"""The example's upload page in a real browser: Debian's headless Chromium, driven by Selenium.

The app is started as users start it (`python -m uvicorn fastapi_app:app --app-dir
docs/examples`), real files are chosen in the page's file input, and the tests assert what the
page shows. Selenium with the system chromedriver, not Playwright: Debian packages a
chromedriver built for its own Chromium, so the two always match, and Selenium needs nothing
downloaded (given the driver's path, Selenium Manager is never run). The module skips, with a
one-line reason, where Selenium, uvicorn, Chromium or chromedriver is missing; `.ci/run`
installs the browser where it can.

`MEDIAPARTS_UPDATE_GOLDEN=1` rewrites the docs' screenshot (docs/img/upload-page.png).
"""

from __future__ import annotations

import base64
import importlib.util
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests._builders import ROOT, TESTDATA, camera_photo

pytestmark = pytest.mark.slow  # starts uvicorn and a headless Chromium

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = [
    what
    for what, present in (
        ("the selenium package", importlib.util.find_spec("selenium")),
        ("uvicorn", importlib.util.find_spec("uvicorn")),
        ("fastapi", importlib.util.find_spec("fastapi")),
        ("python-multipart", importlib.util.find_spec("python_multipart")),
        ("chromium", CHROMIUM),
        ("chromedriver", CHROMEDRIVER),
    )
    if not present
]
if MISSING:
    pytest.skip(f"browser test needs {', '.join(MISSING)}", allow_module_level=True)

from selenium import webdriver  # noqa: E402  # only once the skip above has not happened
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
SCREENSHOT = ROOT / "docs" / "img" / "upload-page.png"
WINDOW = (1280, 3000)  # tall enough for the cards and the first payload, open
PROVIDERS = ("anthropic", "openai", "gemini")  # three columns: a screenshot a reader can read
PHONE = (390, 844)  # a phone's viewport in CSS pixels, where the cells stack in one column
# A phone photo saved again from a chat, caption and all: a name wider than the page.
PHOTO = (
    "PXL_20261205_171523_424.NIGHT~2 (shared from the family chat and saved again, with its "
    "caption: the harbour at dusk, all of us on the pier, the boat we took back, the gulls).jpg"
)
# Chromium as root in a container: no sandbox, no GPU, and none of its own network traffic
# (updates, sync, field trials), which would otherwise flood a closed network.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)


def _max_bytes() -> int:
    """The example's per-file cap, read from its source as the server will run it."""
    spec = importlib.util.spec_from_file_location("fastapi_app_limits", EXAMPLES / "fastapi_app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return int(module.MAX_BYTES)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The example app under uvicorn on a free port, started as a user would; its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "uvicorn", "fastapi_app:app", "--app-dir", str(EXAMPLES)]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                output = process.stdout.read().decode(errors="replace") if process.stdout else ""
                pytest.fail(f"uvicorn exited with {process.returncode}:\n{output}")
            try:
                if httpx.get(f"{url}/limits", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "uvicorn did not answer within 30 s"
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """One headless Chromium for the module, with a fresh profile."""
    assert CHROMIUM is not None and CHROMEDRIVER is not None  # else the module was skipped
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.add_argument(f"--window-size={WINDOW[0]},{WINDOW[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for its errors
    # Given the driver's path, Selenium never runs Selenium Manager (which would download).
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    # The viewport exactly (the window's size includes what headless keeps of its frame), so
    # the screenshot's size is WINDOW on every machine.
    metrics = {"width": WINDOW[0], "height": WINDOW[1], "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        yield driver
    finally:
        driver.quit()


def inspect(driver: WebDriver, url: str, paths: list[Path]) -> None:
    """Open the page, choose `paths` in its file input, keep PROVIDERS ticked and inspect."""
    driver.get(url)
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".provider")) > 0)
    for box in driver.find_elements(By.CSS_SELECTOR, ".provider input[type=checkbox]"):
        if box.is_selected() != (box.get_attribute("value") in PROVIDERS):
            box.click()
    chooser = driver.find_element(By.ID, "files")
    chooser.send_keys("\n".join(str(path) for path in paths))
    driver.find_element(By.ID, "inspect").click()
    wait.until(lambda d: d.execute_script("return document.body.dataset.done") is not None)


@dataclass(frozen=True)
class Cell:
    """One provider's result for one file, as shown."""

    text: str
    preview: tuple[int, int] | None  # the <img>'s natural size, when there is one


# A box as page JavaScript measures it: left, top, width, height in CSS pixels.
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Name:
    """A name shown on one line: its text, its box, its text's full width, and how it is cut."""

    text: str
    box: Box
    text_width: float  # scrollWidth: what the whole name would take
    overflow: str  # text-overflow: `ellipsis` where a name too long is cut with "..."


@dataclass(frozen=True)
class CellBox:
    """Where one provider cell and its picture are: the frame, and the image inside it."""

    cell: Box
    frame: Box | None  # the preview's frame, or the "not an image" box of the same size
    image: Box | None  # the <img>, when there is one
    natural: tuple[int, int] | None  # the image's own width and height


@dataclass(frozen=True)
class Layout:
    """The boxes of the results, measured in the browser at one viewport width."""

    page_width: float  # what the page's content takes (scrollWidth)
    viewport_width: float  # what the window shows (clientWidth)
    cards: list[tuple[Box, Name, list[CellBox]]]  # each card, its file name, its cells


@dataclass(frozen=True)
class Shown:
    """What the page showed after the upload."""

    cards: dict[str, str]  # file name -> the card's visible text
    cells: dict[tuple[str, str], Cell]  # (file name, provider) -> its cell
    payloads: dict[str, str]  # provider -> the payload block's text
    status: str
    chosen: str  # the chips of the chosen files
    chips: dict[str, str]  # file name -> its chip's text: name, size, and then its outcome
    layouts: dict[str, Layout]  # "desktop" (WINDOW) and "phone" (PHONE) -> what was measured
    limits: str  # the hint under the drop zone
    first_payload: tuple[bool, float]  # the first payload block: open, and its bottom edge (px)
    console: list[str]  # what the page logged (errors, failed loads), from load to results
    screenshot: bytes


def _cell(element: WebElement) -> Cell:
    images = element.find_elements(By.CSS_SELECTOR, "img.preview")
    size = None
    if images:
        natural = images[0].get_property("naturalWidth"), images[0].get_property("naturalHeight")
        size = (int(str(natural[0])), int(str(natural[1])))
    return Cell(element.text, size)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The uploads: real testdata files, a 12 MB phone photo, an empty file and one over the
    app's MAX_BYTES."""
    folder = tmp_path_factory.mktemp("uploads")
    chosen = {name: TESTDATA / name for name in ("photo.jpg", "photo.heic", "document.pdf")}
    chosen["mislabelled.jpg"] = TESTDATA / "mislabelled.jpg"  # a PNG named .jpg
    made = {
        PHOTO: camera_photo(),
        "empty.png": b"",
        "huge.jpg": b"\xff\xd8\xff\xe0" + bytes(_max_bytes()),
    }
    for name, content in made.items():
        (folder / name).write_bytes(content)
    assert 11e6 < len(made[PHOTO]) < 13e6  # as heavy as a phone's photo gets: about 12 MB
    return {**chosen, **{name: folder / name for name in made}}


# The boxes of the result cards, their names, cells, frames and images (see Layout).
MEASURE = """
const box = (node) => {
  const r = node.getBoundingClientRect();
  return [r.left, r.top, r.width, r.height];
};
const name = (node) =>
  [node.textContent, box(node), node.scrollWidth, getComputedStyle(node).textOverflow];
const page = document.documentElement;
return [page.scrollWidth, page.clientWidth, Array.from(document.querySelectorAll("article.card"),
  (card) => [box(card), name(card.querySelector("h2")), Array.from(card.querySelectorAll(".cell"),
    (cell) => {
      const frame = cell.querySelector(".frame");
      const image = cell.querySelector("img");
      return [box(cell), frame && box(frame), image && box(image),
        image && [image.naturalWidth, image.naturalHeight]];
    })])];
"""


def measure(driver: WebDriver, width: int, height: int) -> Layout:
    """Lay the page out in a viewport of `width` x `height` and measure its results."""
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    WebDriverWait(driver, 30).until(  # every preview decoded, so it has its own size
        lambda d: d.execute_script("return Array.from(document.images).every((i) => i.complete)")
    )
    page_width, viewport_width, cards = driver.execute_script(MEASURE)
    return Layout(
        float(page_width),
        float(viewport_width),
        [
            (
                _box(card),
                Name(str(name[0]), _box(name[1]), float(name[2]), str(name[3])),
                [
                    CellBox(
                        _box(cell),
                        frame and _box(frame),
                        image and _box(image),
                        natural and (int(natural[0]), int(natural[1])),
                    )
                    for cell, frame, image, natural in cells
                ],
            )
            for card, name, cells in cards
        ],
    )


def _box(values: list[float]) -> Box:
    left, top, width, height = (float(value) for value in values)
    return left, top, width, height


@pytest.fixture(scope="module")
def shown(browser: WebDriver, server: str, files: dict[str, Path]) -> Shown:
    """Upload every file once, then read what the page shows, at WINDOW and on a phone."""
    inspect(browser, server, list(files.values()))
    cards, cells = {}, {}
    for card in browser.find_elements(By.CSS_SELECTOR, "article.card"):
        name = str(card.find_element(By.CSS_SELECTOR, "h2").get_property("textContent"))
        cards[name] = card.text
        for cell in card.find_elements(By.CSS_SELECTOR, ".cell"):
            cells[(name, str(cell.get_attribute("data-provider")))] = _cell(cell)
    payloads = {
        str(block.get_attribute("data-provider")): str(block.get_attribute("textContent"))
        for block in browser.find_elements(By.CSS_SELECTOR, "details.payload")
    }
    status = browser.find_element(By.ID, "status").text
    chips = {
        str(chip.find_element(By.CSS_SELECTOR, ".name").get_attribute("title")): chip.text
        for chip in browser.find_elements(By.CSS_SELECTOR, "#chosen li")
    }
    desktop = measure(browser, *WINDOW)
    first = browser.execute_script(
        "const b = document.querySelector('details.payload');"
        "return [b.open, b.getBoundingClientRect().bottom];"
    )
    chosen = browser.find_element(By.ID, "chosen").text
    limits = browser.find_element(By.ID, "limits").text
    # What `Chrome.get_log("browser")` does, through the typed `execute`.
    console = [
        str(entry["message"]) for entry in browser.execute("getLog", {"type": "browser"})["value"]
    ]
    screenshot = browser.get_screenshot_as_png()
    phone = measure(browser, *PHONE)
    measure(browser, *WINDOW)  # back to the window the other tests expect
    return Shown(
        cards,
        cells,
        payloads,
        status,
        chosen,
        chips,
        {"desktop": desktop, "phone": phone},
        limits,
        (bool(first[0]), float(first[1])),
        console,
        screenshot,
    )


def test_page_served_without_cdn(server: str) -> None:
    """GET / is the page; it loads only the app's own CSS and script."""
    html = httpx.get(server + "/").text
    assert '<form id="upload"' in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html)  # nothing from another host
    for asset in ("/static/page.css", "/static/page.js"):
        assert asset in html
        assert httpx.get(server + asset).status_code == 200


def test_page_shows_every_file(shown: Shown, files: dict[str, Path]) -> None:
    """One card per uploaded file, in order, each with a cell per chosen provider."""
    assert list(shown.cards) == list(files)
    for name in ("photo.jpg", "photo.heic", "document.pdf", "mislabelled.jpg", PHOTO):
        assert {provider for (file, provider) in shown.cells if file == name} == set(PROVIDERS)


def test_page_status_counts(shown: Shown) -> None:
    """The status line counts the files ready and those refused."""
    assert shown.status == "5 ready, 2 refused"


@pytest.mark.parametrize(
    ("name", "outcome"),
    [
        ("photo.jpg", "ready"),
        (PHOTO, "ready"),
        ("document.pdf", "ready"),
        ("empty.png", "refused: the upload 'empty.png' is empty (0 bytes)"),
        ("huge.jpg", "refused: the upload 'huge.jpg' is 20,971,524 bytes, over the upload limit"),
    ],
)
def test_page_outcome_beside_each_file(shown: Shown, name: str, outcome: str) -> None:
    """Each chosen file's chip says beside its name whether it is ready, or refused and why."""
    chip = shown.chips[name]
    assert chip.endswith(outcome) if outcome == "ready" else outcome in chip
    assert ("refused" in chip) == (outcome != "ready")


@pytest.mark.parametrize(
    ("provider", "size", "steps"),
    [
        ("anthropic", "1270×952", "resize 4000x3000→1270x952"),
        ("openai", "1024×768", "resize 4000x3000→1024x768"),  # no model: gpt-4o's rules
        ("gemini", "4000×3000", "Steps\nnone"),
    ],
)
def test_page_phone_photo_fitted(shown: Shown, provider: str, size: str, steps: str) -> None:
    """A 12 MB phone photo is accepted and fitted to each provider, with a picture of it."""
    assert "image/jpeg · 4000×3000 · " in shown.cards[PHOTO]
    cell = shown.cells[(PHOTO, provider)]
    assert size in cell.text
    assert steps in cell.text
    assert cell.preview is not None
    assert cell.preview[0] > cell.preview[1] > 0


@pytest.mark.parametrize("provider", PROVIDERS)
def test_page_sideways_photo_upright(shown: Shown, provider: str) -> None:
    """The EXIF-rotated phone photo is shown upright: 480x640, and its preview is portrait."""
    assert "480×640" in shown.cards["photo.jpg"]
    assert "exif-transpose" in shown.cards["photo.jpg"]
    cell = shown.cells[("photo.jpg", provider)]
    assert "image/jpeg" in cell.text
    assert "480×640" in cell.text
    assert cell.preview is not None
    width, height = cell.preview
    assert 0 < width < height  # loaded, and upright (portrait), as the model sees it


@pytest.mark.parametrize("provider", PROVIDERS)
def test_page_heic_converted(shown: Shown, provider: str) -> None:
    """The HEIC is converted to JPEG on upload, said as 'heic→jpeg', with a landscape preview."""
    assert "heic→jpeg" in shown.cards["photo.heic"]
    cell = shown.cells[("photo.heic", provider)]
    assert "image/jpeg" in cell.text
    assert "320×240" in cell.text
    assert cell.preview is not None
    assert cell.preview[0] > cell.preview[1] > 0


@pytest.mark.parametrize(
    ("provider", "tokens"),
    [("anthropic", "6,000 (approximate)"), ("openai", "unknown"), ("gemini", "(exact)")],
)
def test_page_pdf_result(shown: Shown, provider: str, tokens: str) -> None:
    """The PDF is sent as a file: no picture, its type, bytes, and how its tokens were counted."""
    cell = shown.cells[("document.pdf", provider)]
    assert "application/pdf" in cell.text
    assert "not an image" in cell.text
    assert cell.preview is None
    assert tokens in cell.text


def test_page_mislabelled_typed_by_bytes(shown: Shown) -> None:
    """A PNG named .jpg is shown as image/png: the bytes decide, not the name."""
    assert "image/png" in shown.cards["mislabelled.jpg"]
    assert "image/png" in shown.cells[("mislabelled.jpg", "anthropic")].text


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("empty.png", ("Refused (422 InvalidMedia)", "empty")),
        (
            "huge.jpg",
            (
                "Refused (413 MediaTooLarge)",
                "over the upload limit of 20,971,520 bytes",
                "this page takes files of up to 20 MiB each",
            ),
        ),
    ],
)
def test_page_refusals(shown: Shown, name: str, says: tuple[str, ...]) -> None:
    """An empty file and one over MAX_BYTES are refused on their card, with status and why
    (the page's own cap in its own units)."""
    assert all(words in shown.cards[name] for words in says)
    assert not [cell for (file, _), cell in shown.cells.items() if file == name]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_page_payload_summarised(shown: Shown, provider: str) -> None:
    """Each provider's payload is shown with media summarised, never as base64."""
    text = shown.payloads[provider]
    assert "<image/jpeg 480x640" in text
    assert "<application/pdf" in text
    assert "Describe these files." in text
    assert "/9j/" not in text  # a JPEG's base64 would start so


def test_page_hostile_filename_stays_text(browser: WebDriver, server: str, tmp_path: Path) -> None:
    """A file name holding HTML is shown as text: no element made from it, no script run."""
    # No `"` or `/`: Chromium sends `"` as %22 in a form's file name, and paths have no `/`.
    name = "<img src=x onerror=document.title=1>.png"
    hostile = tmp_path / name
    hostile.write_bytes((TESTDATA / "mislabelled.jpg").read_bytes())
    inspect(browser, server, [hostile])
    assert browser.find_element(By.CSS_SELECTOR, "article.card h2").text == name
    assert name in browser.find_element(By.ID, "chosen").text
    assert browser.find_elements(By.CSS_SELECTOR, "img[src='x']") == []
    assert browser.title == "mediaparts: what would be sent"


def test_page_no_console_errors(shown: Shown) -> None:
    """Loading the page and inspecting logs nothing: no failed load (a /favicon.ico 404)."""
    assert shown.console == []


def test_page_binary_units(shown: Shown) -> None:
    """The page's own sizes are binary (KiB, MiB) like its limits, and it says so."""
    assert "huge.jpg\n(20.0 MiB)" in shown.chosen
    assert "20 MiB each" in shown.limits
    assert "1 MiB = 1,048,576 bytes" in shown.limits


def test_page_pixel_limits_shown(shown: Shown) -> None:
    """The hint says how many pixels an image, and all of them, may have (from /limits)."""
    assert "images up to 25 MP each, 100 MP in all" in shown.limits
    said = [shown.chosen, *shown.cards.values(), *(cell.text for cell in shown.cells.values())]
    assert not [text for text in said if re.search(r"\d (KB|MB|GB)\b", text)]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_page_previews_align(shown: Shown, screen: str) -> None:
    """The provider cells are equal columns; every picture has a frame of one size, at one
    height in each row of cells, and keeps its shape inside it; nothing is wider than the page."""
    layout = shown.layouts[screen]
    assert layout.page_width <= layout.viewport_width
    frames = [cell.frame for _, _, cells in layout.cards for cell in cells if cell.frame]
    assert len(frames) == 5 * len(PROVIDERS)  # the five files ready, each with a frame
    assert {frame[2:] for frame in frames} == {(130.0, 130.0)}
    rows: dict[tuple[int, float], list[CellBox]] = {}
    for index, (card, _, cells) in enumerate(layout.cards):
        for cell in cells:
            assert _inside(cell.cell, card)
            rows.setdefault((index, cell.cell[1]), []).append(cell)
    per_row = {len(row) for row in rows.values()}
    assert per_row == ({len(PROVIDERS)} if screen == "desktop" else {1})
    for row in rows.values():
        assert len({cell.cell[2] for cell in row}) == 1  # equal widths
        assert len({cell.frame[1] for cell in row if cell.frame}) <= 1  # pictures' tops equal
    for cell in (cell for _, _, cells in layout.cards for cell in cells):
        if cell.image is None:
            continue
        assert cell.frame is not None and cell.natural is not None
        assert _inside(cell.image, cell.frame)
        (width, height), (natural_width, natural_height) = cell.image[2:], cell.natural
        assert max(width, height) == min(130, max(cell.natural))  # shrunk to fit, never grown
        assert abs(width * natural_height - height * natural_width) <= max(cell.natural)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_page_long_name_ellipsised(shown: Shown, screen: str) -> None:
    """A file name wider than its card is cut with an ellipsis on one line, never spilling over;
    the whole name is still the card's, the chip's and the tooltip's."""
    names = {name.text: (card, name) for card, name, _ in shown.layouts[screen].cards}
    card, name = names[PHOTO]
    assert name.text_width > name.box[2]  # too long for its card: cut
    assert name.overflow == "ellipsis"
    assert _inside(name.box, card)
    assert name.box[3] < 2 * names["photo.jpg"][1].box[3]  # one line, as a short name's
    assert PHOTO in shown.chips


def _inside(inner: Box, outer: Box) -> bool:
    """Whether `inner` lies within `outer` (to half a pixel, for rounding)."""
    left, top, width, height = inner
    outer_left, outer_top, outer_width, outer_height = outer
    return (
        left >= outer_left - 0.5
        and top >= outer_top - 0.5
        and left + width <= outer_left + outer_width + 0.5
        and top + height <= outer_top + outer_height + 0.5
    )


def test_page_first_payload_in_screenshot(shown: Shown) -> None:
    """The first payload is shown open, and within the screenshot's window."""
    is_open, bottom = shown.first_payload
    assert is_open
    assert bottom <= WINDOW[1]


def _open(driver: WebDriver, url: str) -> None:
    """Open the page and wait for its provider list."""
    driver.get(url)
    WebDriverWait(driver, 30).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, ".provider")) > 0
    )


# Counts the page's POST /inspect, and whether the button was disabled when each was sent.
COUNT_POSTS = """
window.posts = [];
const real = window.fetch;
window.fetch = (url, init) => {
  if (String(url).includes("/inspect")) window.posts.push(document.getElementById("inspect").disabled);
  return real(url, init);
};
"""


def test_page_double_click_sends_once(browser: WebDriver, server: str) -> None:
    """A double-click on Inspect (or a second submit in flight) sends one POST /inspect, with the
    button disabled while it is busy and enabled again after."""
    _open(browser, server)
    browser.find_element(By.ID, "files").send_keys(str(TESTDATA / "mislabelled.jpg"))
    browser.execute_script(COUNT_POSTS)
    button = browser.find_element(By.ID, "inspect")
    ActionChains(browser).double_click(button).perform()
    browser.execute_script("document.getElementById('upload').requestSubmit();")
    WebDriverWait(browser, 30).until(
        lambda d: d.execute_script("return document.body.dataset.done") is not None
    )
    assert browser.execute_script("return window.posts") == [True]
    assert button.is_enabled()
    assert len(browser.find_elements(By.CSS_SELECTOR, "article.card")) == 1


# Drops one PNG (a 1x1 pixel) on the drop zone, as a drag from the desktop would.
DROP = """
const bytes = Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0));
const moved = new DataTransfer();
moved.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
const zone = document.getElementById("drop");
for (const type of ["dragenter", "dragover", "drop"]) {
  zone.dispatchEvent(new DragEvent(type, { dataTransfer: moved, bubbles: true, cancelable: true }));
}
"""


def test_page_drop_sets_the_input(browser: WebDriver, server: str) -> None:
    """Dropped files become the file input's files too: one truthful state, then inspected."""
    _open(browser, server)
    png = base64.b64encode((TESTDATA / "mislabelled.jpg").read_bytes()).decode("ascii")
    browser.execute_script(DROP, png)
    names = browser.execute_script(
        "return Array.from(document.getElementById('files').files, (f) => f.name)"
    )
    assert names == ["dropped.png"]
    assert "dropped.png" in browser.find_element(By.ID, "chosen").text
    browser.find_element(By.ID, "inspect").click()
    WebDriverWait(browser, 30).until(
        lambda d: d.execute_script("return document.body.dataset.done") is not None
    )
    assert browser.find_element(By.CSS_SELECTOR, "article.card h2").text == "dropped.png"


def test_page_one_file_picker(browser: WebDriver, server: str) -> None:
    """The native file button is hidden from sight but not from the keyboard or screen
    readers: the drop zone's "choose files" is the one picker shown."""
    _open(browser, server)
    native = browser.find_element(By.ID, "files")
    width, height, display, focused = browser.execute_script(
        "const input = arguments[0]; const box = input.getBoundingClientRect();"
        "input.focus();"
        "return [box.width, box.height, getComputedStyle(input).display,"
        " document.activeElement === input];",
        native,
    )
    assert width <= 1 and height <= 1
    assert display != "none"
    assert focused
    assert browser.find_element(By.CSS_SELECTOR, "#drop .link").is_displayed()
    assert "No file chosen" not in browser.find_element(By.ID, "upload").text


def test_page_screenshot(shown: Shown) -> None:
    """The page with results is the docs' screenshot (rewritten with MEDIAPARTS_UPDATE_GOLDEN=1)."""
    if os.environ.get("MEDIAPARTS_UPDATE_GOLDEN") == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        SCREENSHOT.write_bytes(shown.screenshot)
    assert SCREENSHOT.is_file(), f"no {SCREENSHOT.name}: run with MEDIAPARTS_UPDATE_GOLDEN=1"
    # Pixels vary with the fonts installed; the size is the window's, so it must match.
    assert _png_size(SCREENSHOT.read_bytes()) == _png_size(shown.screenshot) == WINDOW


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height
