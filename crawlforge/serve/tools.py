"""The service as MCP tools (``scrape``, ``map``, ``crawl``, ``crawl_status``, ``query``) on the
official SDK's ``MCPServer``: the same options and answers as the HTTP endpoints. A result's text
is what an agent reads (the document, the URLs, the highlights); its structured content is the
HTTP answer (the item). A URL that ends without an item is a tool error naming its reason."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from pydantic import Field

from crawlforge.serve.errors import BadRequest, ServiceError
from crawlforge.serve.options import CrawlOptions, MapOptions, ScrapeOptions, parse_options

INSTRUCTIONS = (
    "crawlforge fetches web pages through a polite, guarded crawler (robots.txt, SSRF guard, block-page "
    "detection) and returns each page as clean markdown with its structured data (JSON-LD, microdata, "
    "OpenGraph: prices, names, authors...) as YAML frontmatter. Use `scrape` for one page, `query` for "
    "the few sentences or table rows of a page that answer a question, `map` to list a site's URLs, "
    "`crawl` + `crawl_status` for many pages of one site."
)


def described(model, name: str) -> Field:
    return Field(description=model.model_fields[name].description)


Url = Annotated[str, described(ScrapeOptions, "url")]
Render = Annotated[Literal["never", "auto", "always"] | None, described(ScrapeOptions, "render")]
MainContent = Annotated[bool | None, described(ScrapeOptions, "main_content")]
Images = Annotated[bool | None, described(ScrapeOptions, "images")]
Links = Annotated[bool | None, described(ScrapeOptions, "links")]


def given(**arguments) -> dict[str, Any]:
    """The arguments the agent set: an unset one keeps the server's setting."""
    return {name: value for name, value in arguments.items() if value is not None}


def error_result(reason: str, detail: str, extra: dict | None = None) -> CallToolResult:
    error = {"reason": reason, "detail": detail, **(extra or {})}
    return CallToolResult(content=[TextContent(type="text", text=f"{reason}: {detail}")],
                          structured_content={"ok": False, "error": error}, is_error=True)


async def answer(call, text) -> CallToolResult:
    """``call()``'s answer as a tool result, its text made by ``text(answer)``."""
    try:
        result = await call()
    except BadRequest as error:
        return error_result("bad_request", str(error))
    except ServiceError as error:
        return error_result(error.reason, error.detail)
    if not result.get("ok"):
        error = result["error"]
        return error_result(error["reason"], error.get("detail", ""), error)
    return CallToolResult(content=[TextContent(type="text", text=text(result))], structured_content=result)


def highlights_text(result: dict) -> str:
    units = result["item"].get("highlights") or []
    if not units:
        return "No part of the page matches the query."
    return "\n\n".join(f"[{unit['heading']}] {unit['text']}" if unit.get("heading") else unit["text"]
                         for unit in units)


def build_mcp(service, **server_options) -> MCPServer:
    server = MCPServer(name="crawlforge", instructions=INSTRUCTIONS, **server_options)
    add_page_tools(server, service)
    add_crawl_tools(server, service)
    return server


def add_page_tools(server: MCPServer, service) -> None:
    """scrape, query and map: answered within the request."""

    @server.tool(description="Fetch one web page and return it as a markdown document: YAML frontmatter "
                             "with the page's structured data (title, price, author, dates...) followed "
                             "by its main content as markdown. The structured result is the full item "
                             "(url, status, title, page_type, structured_data, markdown, document...).")
    async def scrape(url: Url, render: Render = None, main_content: MainContent = None, images: Images = None,
                     links: Links = None,
                     query: Annotated[str | None, described(ScrapeOptions, "query")] = None,
                     schema: Annotated[dict[str, Any] | None, described(ScrapeOptions, "schema_")] = None,
                     ) -> CallToolResult:
        options = given(url=url, render=render, main_content=main_content, images=images, links=links,
                        query=query, schema=schema)
        return await answer(lambda: service.scrape(parse_options(ScrapeOptions, options)),
                            lambda result: result["item"]["document"])

    @server.tool(description="Find the parts of one web page that answer a question: its sentences, "
                             "table rows and code blocks ranked against the query (BM25), returned "
                             "verbatim with the heading above each. Cheaper than reading the whole page.")
    async def query(url: Url, query: Annotated[str, Field(description="What to look for, in words.")],
                    render: Render = None) -> CallToolResult:
        options = given(url=url, query=query, render=render)
        return await answer(lambda: service.scrape(parse_options(ScrapeOptions, options)), highlights_text)

    @server.tool(name="map", description="List a site's URLs without fetching its pages: the entries of "
                                         "the sitemaps its robots.txt names (else /sitemap.xml) and the "
                                         "links of the given page, on the same site.")
    async def map_site(url: Url, limit: Annotated[int | None, described(MapOptions, "limit")] = None
                       ) -> CallToolResult:
        return await answer(lambda: service.map(parse_options(MapOptions, given(url=url, limit=limit))),
                            lambda result: "\n".join(result["urls"]))


def add_crawl_tools(server: MCPServer, service) -> None:
    """crawl and crawl_status: a background crawl, read back by its id."""

    @server.tool(description="Start a crawl of one site in the background, following links from the "
                             "start URL; returns its id for crawl_status.")
    async def crawl(url: Url, max_pages: Annotated[int, described(CrawlOptions, "max_pages")] = 10,
                    max_depth: Annotated[int | None, described(CrawlOptions, "max_depth")] = None,
                    allow: Annotated[str | None, described(CrawlOptions, "allow")] = None,
                    sitemap: Annotated[Literal["never", "also", "only"] | None,
                                       described(CrawlOptions, "sitemap")] = None,
                    render: Render = None, main_content: MainContent = None) -> CallToolResult:
        options = given(url=url, max_pages=max_pages, max_depth=max_depth, allow=allow, sitemap=sitemap,
                        render=render, main_content=main_content)
        return await answer(lambda: service.start_crawl(parse_options(CrawlOptions, options)),
                            lambda result: f"crawl {result['id']} started; ask crawl_status for its pages")

    @server.tool(description="A background crawl's state (running, finished, failed), its counts and "
                             "the pages crawled so far, from `offset` on (pass next_offset to read on).")
    async def crawl_status(id: Annotated[str, Field(description="The id `crawl` returned.")],
                           offset: Annotated[int, Field(ge=0, description="Skip this many pages.")] = 0
                           ) -> CallToolResult:
        return await answer(lambda: service.crawl_status(id, offset), status_text)


def status_text(result: dict) -> str:
    summary = {key: result[key] for key in ("id", "state", "counts", "next_offset")}
    pages = [f"{item['url']}: {item.get('title') or ''}" for item in result["items"]]
    return json.dumps(summary) + ("\n" + "\n".join(pages) if pages else "")
