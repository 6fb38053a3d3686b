"""The web app: one static page and a small JSON API over a `Table`.

Every request names its seat by a token (header ``X-Token``). Refusals are 4xx answers whose
``error`` is the library's message: 400 for a request that is not what the API takes, 403 for
a token or seat that may not act, 404 for a rule file that is not there, 409 for a stale request
or a move the game refuses, 413 for a body over the size a request may have.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from boardkit.errors import BoardkitError, IllegalMove, RuleError, StateError
from boardkit.tools.web.table import AccessError, MissingError, StaleError, Table

if TYPE_CHECKING:
    from collections.abc import Iterator

    from starlette.requests import Request

STATIC = Path(str(resources.files("boardkit.tools.web") / "static"))

_STATUS: list[tuple[type[BaseException], int]] = [
    (AccessError, 403),
    (MissingError, 404),
    (StaleError, 409),
    (IllegalMove, 409),
    (RuleError, 422),
    (StateError, 422),
    (BoardkitError, 400),
]


BODY_BYTES = 1 << 20
"""The largest body of a request (a move is a few dozen bytes)."""

LOAD_BYTES = 8 << 20
"""The largest body of a load: a saved game or simulation record."""


class BadRequest(Exception):  # noqa: N818 - named after the answer it becomes
    """A request body the API cannot read."""

    status = 400


class TooLarge(BadRequest):
    """A request body over the size its endpoint takes."""

    status = 413


Handler: TypeAlias = Callable[["Request", int | None, dict[str, Any]], Awaitable[Response]]


class _Api:
    """The endpoints over one table; each answers with the state the asker may see."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def endpoint(self, handler: Handler, limit: int = BODY_BYTES) -> Callable[[Request], Awaitable[Response]]:
        """Wraps a handler: the token's role, the JSON body (of at most `limit` bytes), and refusals as 4xx answers."""
        async def run(request: Request) -> Response:
            try:
                role = self.table.role(request.headers.get("x-token") or request.query_params.get("token"))
                body = await _body(request, limit) if request.method == "POST" else {}
                return await handler(request, role, body)
            except BadRequest as exc:
                return _refusal(str(exc), exc.status)
            except BoardkitError as exc:
                status = next(code for kind, code in _STATUS if isinstance(exc, kind))
                return _refusal(str(exc), status)
        return run

    async def state(self, request: Request, role: int | None, _body: dict[str, Any]) -> Response:
        """The table as the asker sees it (the host may ask for a seat's view with ?view=N)."""
        view = request.query_params.get("view", "all")
        viewpoint = None if view == "all" else _int(view, "view")
        return JSONResponse(self.table.payload(role, viewpoint))

    def action(self, act: Callable[[int | None, dict[str, Any]], object]) -> Handler:
        """A request that changes the table, then answers with its new state."""
        async def run(request: Request, role: int | None, body: dict[str, Any]) -> Response:
            await run_in_threadpool(act, role, body)  # agents may think a while: the server stays responsive
            return await self.state(request, role, body)
        return run

    async def save(self, _request: Request, role: int | None, _body: dict[str, Any]) -> Response:
        """The game as a JSON file to keep."""
        table = self.table
        text = table.save(role)
        name = f"{table.rules.name}-seed{table.game.seed}-{len(table.game.history)}.json"
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def load(self, request: Request, role: int | None, _body: dict[str, Any]) -> Response:
        """Opens the saved game or simulation record in the body as a replay."""
        text: str = request.state.text  # _body has read it as JSON already
        await run_in_threadpool(self.table.load, role, text)
        return await self.state(request, role, {})


async def _page(_request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


def create_app(table: Table) -> Starlette:
    """Builds the app serving `table`."""
    api = _Api(table)
    post = ["POST"]
    actions: dict[str, Callable[[int | None, dict[str, Any]], object]] = {
        "move": lambda r, b: table.move(r, b.get("version"), b.get("move")),
        "undo": lambda r, b: table.undo(r, b.get("version")),
        "agent": lambda r, b: table.agent_step(r, b.get("version"), to_end=b.get("to_end") is True),
        "new": lambda r, b: table.new_game(r, b.get("version"), seed=b.get("seed"), ruleset=b.get("ruleset")),
        "replay": lambda r, _b: table.replay_current(r),
        "replay/step": lambda r, b: table.replay_go(r, b.get("step")),
        "replay/close": lambda r, b: table.replay_close(r, play_on=b.get("play_on") is True),
    }
    routes = [
        Route("/", _page),
        Route("/api/state", api.endpoint(api.state)),
        Route("/api/save", api.endpoint(api.save)),
        Route("/api/load", api.endpoint(api.load, LOAD_BYTES), methods=post),
        *(Route(f"/api/{path}", api.endpoint(api.action(act)), methods=post) for path, act in actions.items()),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


async def _body(request: Request, limit: int) -> dict[str, Any]:
    """The JSON object a POST carries; anything else is a BadRequest saying what is wrong.

    Its text is kept as ``request.state.text``. The body is read up to `limit` bytes, so
    that no client makes the server hold more.
    """
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(_too_large(limit))
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        msg = f"the request body is not UTF-8 text: {exc}"
        raise BadRequest(msg) from None
    request.state.text = text
    try:
        data = json.loads(text or "{}")
    except (ValueError, RecursionError) as exc:  # bad JSON, nested too deep, a number too long to convert
        msg = f"malformed JSON: {str(exc)[:200]}"
        raise BadRequest(msg) from None
    if not isinstance(data, dict):
        msg = f"the request body is a JSON object, not {type(data).__name__}"
        raise BadRequest(msg)
    return data


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        msg = f"{what} is 'all' or a seat number, not {text!r:.40}"
        raise BadRequest(msg) from None


def _too_large(limit: int) -> str:
    return f"the request body is over {limit // (1 << 20)} MB, the most this request takes"


def _refusal(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


@contextlib.contextmanager
def running(table: Table, host: str = "127.0.0.1") -> Iterator[str]:
    """Serves `table` on a free port in a background thread while the block runs; yields its URL.

    For tests, benchmarks and programs that drive the page themselves.
    """
    import uvicorn  # noqa: PLC0415 - the web extra is optional, and this is its only use of uvicorn here

    with socket.socket() as probe:
        probe.bind((host, 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(table), host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            msg = f"the web server did not start on {host}:{port}"
            raise OSError(msg)
        time.sleep(0.01)
    try:
        yield f"http://{host}:{port}/"
    finally:
        server.should_exit = True
        thread.join()
