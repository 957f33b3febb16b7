"""``scrapy mcp`` with the official SDK's own client over stdio (and ``scrapy serve --mcp`` over
streamable HTTP): the tools an agent sees, and their answers from the demo site."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time

import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from crawlforge.testing.server import FixtureServer
from tests.conftest import FIXTURES, ROOT
from tests.serving import Served, command, environment

PRODUCT = "/products/ikea_gb_moeckelby_table_jsonld.html"
TOOLS = {"scrape", "map", "crawl", "crawl_status", "query"}


@pytest.fixture(scope="module")
def demo():
    server = FixtureServer(FIXTURES / "demo").start()
    yield server
    server.stop()


def stdio_server() -> StdioServerParameters:
    line = command("mcp")
    return StdioServerParameters(command=line[0], args=line[1:], cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})


def with_session(steps, transport=None):
    """Run ``steps(session)`` in an initialized client session over ``transport`` (stdio)."""
    async def run():
        async with (transport or stdio_client(stdio_server())) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await steps(session)

    return asyncio.run(run())


def test_tools_tell_an_agent_what_they_take():
    tools = with_session(lambda session: session.list_tools())
    by_name = {tool.name: tool for tool in tools.tools}
    assert set(by_name) == TOOLS
    for tool in by_name.values():
        assert len(tool.description) > 60
        for name, spec in tool.input_schema["properties"].items():
            assert spec.get("description"), (tool.name, name)
    assert by_name["scrape"].input_schema["required"] == ["url"]
    assert set(by_name["query"].input_schema["required"]) == {"url", "query"}
    assert by_name["crawl_status"].input_schema["required"] == ["id"]


def test_tools_answer_over_stdio(demo):
    async def steps(session):
        return (await session.call_tool("scrape", {"url": demo.url(PRODUCT)}),
                await session.call_tool("query", {"url": demo.url("/articles/wikipedia_en_mozilla_tables_lists.html"),
                                                  "query": "when was Mozilla founded"}),
                await session.call_tool("scrape", {"url": "http://10.0.0.1/"}),
                await session.call_tool("scrape", {"url": demo.url("/private/page.html")}),
                await session.call_tool("scrape", {"url": "file:///etc/passwd"}),
                await session.call_tool("map", {"url": demo.url("/index.html"), "limit": 3}))

    scrape, query, refused, denied, bad, mapped = with_session(steps)
    assert not scrape.is_error
    item = scrape.structured_content["item"]
    assert scrape.content[0].text == item["document"]
    assert item["structured_data"]["structured_data"]["price"] == "450"
    assert item["markdown"].startswith("# MÖCKELBY Table - oak 235x100 cm\n")
    # the best unit first, under the heading above it (the page's title)
    assert query.content[0].text.splitlines()[0] == "[Mozilla] | Founded | February 28, 1998; 18 years ago |"
    assert query.structured_content["item"]["highlights"][0]["kind"] == "table_row"
    assert refused.is_error and refused.structured_content["error"]["reason"] == "ssrf_refused"
    assert refused.content[0].text.startswith("ssrf_refused: Refused http://10.0.0.1/")
    assert denied.is_error and denied.structured_content["error"]["reason"] == "robots_denied"
    assert bad.is_error and bad.structured_content["error"]["reason"] == "bad_request"
    assert mapped.content[0].text.splitlines() == mapped.structured_content["urls"] and len(mapped.structured_content["urls"]) == 3


def test_crawl_and_its_status_over_stdio(demo):
    async def steps(session):
        started = await session.call_tool("crawl", {"url": demo.url("/index.html"), "max_pages": 5})
        job = started.structured_content["id"]
        deadline = time.monotonic() + 120
        while (status := await session.call_tool("crawl_status", {"id": job})).structured_content["state"] == "running":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.5)
        return status, await session.call_tool("crawl_status", {"id": "nope"})

    status, unknown = with_session(steps)
    result = status.structured_content
    assert result["state"] == "finished" and result["counts"]["requested"] == 5
    assert len(result["items"]) == result["counts"]["items"] >= 1
    assert unknown.is_error and unknown.structured_content["error"]["reason"] == "not_found"


def test_serve_mcp_answers_over_streamable_http(demo):
    served = Served("--mcp")
    try:
        async def steps(session):
            tools = await session.list_tools()
            return tools, await session.call_tool("scrape", {"url": demo.url(PRODUCT)})

        tools, scrape = with_session(steps, streamable_http_client(served.base + "/mcp"))
        assert {tool.name for tool in tools.tools} == TOOLS
        assert scrape.structured_content["item"]["structured_data"]["structured_data"]["price"] == "450"
        assert served.request("/health") == (200, {"ok": True})  # the HTTP API beside it
    finally:
        served.stop()


def test_nothing_but_the_protocol_on_stdout():
    """A raw session: every stdout line is a JSON-RPC message, the logs went to stderr."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "scrape", "arguments": {"url": "http://10.0.0.1/"}}},
    ]
    process = subprocess.Popen(command("mcp", settings={"LOG_LEVEL": "INFO"}), cwd=ROOT, env=environment(),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for message in messages:
        process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()
    answers = []
    while len(answers) < 2:
        line = process.stdout.readline()
        assert line, process.stderr.read()[-2000:]
        answers.append(json.loads(line))
    process.stdin.close()  # the end of the input ends the server
    assert process.wait(timeout=30) == 0
    rest, log = process.stdout.read(), process.stderr.read()
    assert [answer["id"] for answer in answers] == [1, 2]
    assert answers[1]["result"]["isError"] is True
    assert all(json.loads(line) for line in rest.splitlines())
    assert "SSRF guard refused 10.0.0.1" in log
