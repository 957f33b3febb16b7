"""Serving agents: ``scrapy serve`` (an HTTP JSON API, and MCP over streamable HTTP with
``--mcp``) and ``scrapy mcp`` (MCP over stdio).

One implementation: every request is a crawl of the project's own spiders, run in-process on the
command's reactor, so it meets the same downloader middlewares (SSRF guard, robots.txt, verdict,
size caps) and item pipelines as ``scrapy crawl``. ``service`` runs those crawls, ``http`` and
``tools`` are the two surfaces over it.
"""
