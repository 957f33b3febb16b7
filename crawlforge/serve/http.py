"""The HTTP JSON API: ``POST /scrape``, ``/map``, ``/crawl``, ``GET /crawl/<id>``, ``GET /health``
(and MCP's streamable HTTP at ``/mcp`` with ``scrapy serve --mcp``). Every answer is JSON with
``ok``; a request the service will not run is ``{"ok": false, "error": {"reason", "detail"}}``
with 400 (bad_request), 401 (unauthorized), 404 (not_found), 413 (too_large), 503 (busy) or
504 (deadline). A URL that ends without an item is a served request: 200, ``ok`` false, and
the errors feed's record."""

from __future__ import annotations

import hmac
import json
import logging

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from crawlforge.serve.errors import BadRequest, ServiceError
from crawlforge.serve.options import CrawlOptions, MapOptions, ScrapeOptions, parse_options

logger = logging.getLogger(__name__)
STATUS = {"bad_request": 400, "unauthorized": 401, "not_found": 404, "too_large": 413, "busy": 503,
          "scrapyd_error": 502, "deadline": 504}


def failure(reason: str, detail: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": {"reason": reason, "detail": detail}},
                        status_code=STATUS.get(reason, 500))


class BodyTooLarge(Exception):
    pass


async def read_json(request: Request, limit: int):
    """The body as JSON, read no further than ``limit`` bytes."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooLarge
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise BadRequest(f"the body is not JSON ({error})") from None
    except RecursionError:
        raise BadRequest("the body is JSON nested too deep") from None


class Api:
    """The endpoints over a ``Service``."""

    def __init__(self, service, max_body: int):
        self.service, self.max_body = service, max_body

    def routes(self) -> list[Route]:
        return [Route("/health", self.health, methods=["GET"]),
                Route("/scrape", self.post(ScrapeOptions, self.service.scrape), methods=["POST"]),
                Route("/map", self.post(MapOptions, self.service.map), methods=["POST"]),
                Route("/crawl", self.post(CrawlOptions, self.service.start_crawl), methods=["POST"]),
                Route("/crawl/{job_id}", self.crawl_status, methods=["GET"])]

    async def health(self, request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    def post(self, model, handler):
        async def endpoint(request: Request) -> JSONResponse:
            try:
                options = parse_options(model, await read_json(request, self.max_body))
                return JSONResponse(await handler(options))
            except BodyTooLarge:
                return failure("too_large", f"the body is over {self.max_body} bytes (CRAWLFORGE_API_MAX_BODY_BYTES)")
            except BadRequest as error:
                return failure("bad_request", str(error))
            except ServiceError as error:
                return failure(error.reason, error.detail)
            except Exception as error:  # a bug: logged, and still a JSON answer with one line
                logger.exception("%s failed", request.url.path)
                return failure("internal_error", f"{type(error).__name__}: {error}".splitlines()[0])
        return endpoint

    async def crawl_status(self, request: Request) -> JSONResponse:
        offset = request.query_params.get("offset", "0")
        if not offset.isdigit():
            return failure("bad_request", f"offset must be a whole number, 0 or more, not {offset!r}")
        try:
            return JSONResponse(await self.service.crawl_status(request.path_params["job_id"], int(offset)))
        except ServiceError as error:
            return failure(error.reason, error.detail)


class BearerToken:
    """ASGI middleware: every HTTP request but ``GET /health`` carries ``Authorization: Bearer <token>``."""

    def __init__(self, app, token: str):
        self.app, self.token = app, token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] == "/health" or self.authorized(scope):
            return await self.app(scope, receive, send)
        response = failure("unauthorized", "missing or wrong token: send Authorization: Bearer <CRAWLFORGE_API_TOKEN>")
        response.headers["WWW-Authenticate"] = "Bearer"
        await response(scope, receive, send)

    def authorized(self, scope) -> bool:
        header = dict(scope["headers"]).get(b"authorization", b"")
        scheme, _, token = header.partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(token.strip(), self.token)


def create_app(service, max_body: int, token: str = "", mcp_server=None, host: str = "127.0.0.1"):
    """The API as an ASGI app; with ``mcp_server``, its streamable HTTP endpoint at ``/mcp``
    (the MCP app is the outer one, so its lifespan runs the MCP session manager)."""
    api = Api(service, max_body)
    if mcp_server is None:
        app = Starlette(routes=api.routes())
    else:
        for route in api.routes():
            mcp_server.custom_route(route.path, methods=sorted(route.methods - {"HEAD"}))(route.endpoint)
        app = mcp_server.streamable_http_app(streamable_http_path="/mcp", host=host,
                                             max_request_body_size=max_body)
    app.add_exception_handler(HTTPException, http_error)
    return BearerToken(app, token) if token else app


async def http_error(request: Request, error: HTTPException) -> JSONResponse:
    """Starlette's own refusals (no such path, a wrong method) in the API's shape."""
    reason = "not_found" if error.status_code == 404 else "bad_request"
    response = failure(reason, f"{request.method} {request.url.path}: {error.detail}")
    response.status_code = error.status_code
    return response
