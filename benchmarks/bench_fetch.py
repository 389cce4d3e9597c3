"""Loading URL parts concurrently with `aload` against one by one, from a slow local server.

The server (asyncio, on 127.0.0.1, started here on its own thread) waits `latency` seconds before
answering each request, like a far-away origin. Loopback is private, so the loads use
`FetchPolicy(allow_private=True)`. Every run makes fresh parts: a loaded part keeps its bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

from harness import Row, median_time

import mediaparts as mp

# A tiny valid PNG (1x1, grey), so detection and the part's type check have real bytes.
_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010800000000"
    "3a7e9b550000000a49444154789c63680000008200813a1b4b610000000049454e44ae426082"
)


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Answer each request on a keep-alive connection after the server's latency."""
    latency = _LATENCY[0]
    try:
        while True:
            await reader.readuntil(b"\r\n\r\n")  # GET requests have no body
            await asyncio.sleep(latency)
            writer.write(_HEAD + _PNG)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass  # the client closed the connection
    except asyncio.CancelledError:
        pass  # the server is stopping; ending quietly keeps asyncio from logging each one
    finally:
        writer.close()


_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n" % len(_PNG)
_LATENCY = [0.15]


@contextlib.contextmanager
def slow_server(latency: float) -> Iterator[str]:
    """Serve on 127.0.0.1 with `latency` seconds per request; yield the base URL.

    An asyncio server on its own thread and loop: a thread per connection
    (`ThreadingHTTPServer`) added up to 0.25 s to a burst of 100 requests on 2 cores.
    """
    _LATENCY[0] = latency
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(asyncio.start_server(_handle, "127.0.0.1", 0, backlog=1024))
    port = server.sockets[0].getsockname()[1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:

        async def stop() -> None:  # end the handlers of connections clients keep alive
            server.close()
            handlers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in handlers:
                task.cancel()
            await asyncio.gather(*handlers, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def _parts(base: str, count: int, run: int) -> list[mp.ImagePart]:
    return [mp.ImagePart.from_url(f"{base}/r{run}/img{i}.png") for i in range(count)]


def run(counts: tuple[int, ...] = (40, 100), latency: float = 0.15) -> list[Row]:
    policy = mp.FetchPolicy(allow_private=True)
    mp.configure(fetch=policy)
    runs = iter(range(10**6))
    rows = []
    with slow_server(latency) as base:

        async def concurrently(count: int) -> None:
            parts = _parts(base, count, next(runs))
            await asyncio.gather(*(p.aload(policy=policy) for p in parts))

        async def one_by_one(count: int) -> None:
            for p in _parts(base, count, next(runs)):
                await p.aload(policy=policy)

        async def raw_httpx(count: int) -> None:
            import httpx

            run = next(runs)
            async with httpx.AsyncClient() as client:
                await asyncio.gather(
                    *(client.get(f"{base}/r{run}/img{i}.png") for i in range(count))
                )

        for count in counts:
            together = median_time(lambda c=count: asyncio.run(concurrently(c)), repeat=3)
            alone = median_time(lambda c=count: asyncio.run(one_by_one(c)), repeat=1, warmup=0)
            raw = median_time(lambda c=count: asyncio.run(raw_httpx(c)), repeat=3)
            floor = latency / alone  # the best ratio possible: one round of latency
            rows.append(
                Row(
                    f"{count} URL parts, asyncio.gather(aload) with {latency * 1e3:.0f} ms latency",
                    together,
                    alone,
                    "one by one",
                    target="≤ 0.3×" + (" (issue 6, 40 loads)" if count == 40 else ""),
                    goal=("≤", 0.3),
                    note=(
                        f"ideal ≈ {floor:.3f}× (one round trip); plain httpx.AsyncClient "
                        f"gather: {raw * 1e3:.0f} ms"
                    ),
                )
            )
    return rows
