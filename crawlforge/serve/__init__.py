"""Serving agents: ``scrapy serve`` (an HTTP JSON API, and MCP over streamable HTTP with
``--mcp``) and ``scrapy mcp`` (MCP over stdio).

One implementation: every request is a crawl of the project's own spiders, run in-process on the
command's reactor, so it meets the same downloader middlewares (SSRF guard, robots.txt, verdict,
size caps) and item pipelines as ``scrapy crawl``. ``service`` runs those crawls, ``http`` and
``tools`` are the two surfaces over it.

Not scrapyrt (0.18.1, Scrapy's realtime API), tried with Scrapy 2.19: it replaces the project's
EXTENSIONS (the URL ledger goes, so a failed URL answers ``ok`` with no item and no reason), its
``-s`` settings never reach the crawl, it swaps the spider class's ``start`` for every request
(a spider that refuses its arguments crashed the swap back: HTTP 500), writes a log file per
request, and has no token, body or concurrency limit, background crawls or MCP.
"""
