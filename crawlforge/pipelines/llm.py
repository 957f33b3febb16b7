"""``llm_data``/``llm_errors``: fill a user's pydantic schema from each page's document
(frontmatter + markdown, or either alone: ``CRAWLFORGE_LLM_INPUT``) with an OpenAI-compatible
model. Off unless a schema is named; never sends anything unless a base URL and model are set.
A failed or late page keeps its item, with the failure in ``llm_errors``; model calls run in
their own threads, so the crawl goes on while the model works."""

from __future__ import annotations

import logging

from itemadapter import ItemAdapter
from pydantic import BaseModel
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import TimeoutError as DeferredTimeout
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from crawlforge.args import ArgumentError, as_flag
from crawlforge.extract.frontmatter import parse_document
from crawlforge.loading import load_object

logger = logging.getLogger(__name__)

INPUTS = ("document", "markdown", "structured")
# past the page deadline, the thread's own deadline errors get this long to arrive
DEADLINE_GRACE = 1.0


def load_schema(spec: str) -> type[BaseModel]:
    """``module:Model`` (or ``module.Model``) to the pydantic model class."""
    try:
        schema = load_object(spec)
    except ImportError:
        schema = None
    if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
        raise ArgumentError(f"CRAWLFORGE_LLM_SCHEMA: {spec!r} is not a pydantic model")
    return schema


def json_mode_setting(value) -> bool | str:
    """``schema`` for structured output; else a flag: JSON object mode or off."""
    if str(value).strip().lower() == "schema":
        return "schema"
    return as_flag(value, "CRAWLFORGE_LLM_JSON_MODE")


def page_text(adapter: ItemAdapter, source: str) -> str:
    """What the model reads: the document as written to disk, its markdown, or its
    frontmatter alone (``structured``). Records without a document give their markdown."""
    markdown = adapter.get("markdown") or ""
    document = adapter.get("document") or ""
    if source == "markdown" or not document:
        return markdown
    if source == "structured":
        _, body = parse_document(document)
        return document[: len(document) - len(body)].rstrip() + "\n"
    return document


class LlmPipeline:
    def __init__(self, crawler):
        settings = crawler.settings
        spec = settings.get("CRAWLFORGE_LLM_SCHEMA")
        if not spec:
            raise NotConfigured  # off by default; bare, so Scrapy logs no warning for it
        base_url, model = settings.get("CRAWLFORGE_LLM_BASE_URL"), settings.get("CRAWLFORGE_LLM_MODEL")
        if not base_url or not model:
            logger.error("LLM schema %s given but CRAWLFORGE_LLM_BASE_URL or CRAWLFORGE_LLM_MODEL is empty: "
                         "LLM extraction is off", spec)
            raise NotConfigured("no LLM server configured")
        self.source = settings.get("CRAWLFORGE_LLM_INPUT")
        if self.source not in INPUTS:
            raise ArgumentError(f"CRAWLFORGE_LLM_INPUT must be one of {', '.join(INPUTS)}, not {self.source!r}")
        # imported only when on: openai and json-repair are the optional `llm` extra
        from crawlforge.llm import Client, extract, fill

        self.extract, self.fill = extract, fill
        self.schema = load_schema(spec)
        self.client = Client(
            base_url, model,
            api_key_env=settings.get("CRAWLFORGE_LLM_API_KEY_ENV") or None,
            json_mode=json_mode_setting(settings.get("CRAWLFORGE_LLM_JSON_MODE")),
            max_tokens=settings.getint("CRAWLFORGE_LLM_MAX_TOKENS") or None,
            timeout=settings.getfloat("CRAWLFORGE_LLM_TIMEOUT"),
            max_retries=settings.getint("CRAWLFORGE_LLM_MAX_RETRIES"),
        )
        self.deadline = settings.getfloat("CRAWLFORGE_LLM_PAGE_DEADLINE") or None
        self.options = {
            "instructions": settings.get("CRAWLFORGE_LLM_INSTRUCTIONS") or None,
            "retries": max(0, settings.getint("CRAWLFORGE_LLM_RETRIES")),
            "token_budget": settings.getint("CRAWLFORGE_LLM_TOKEN_BUDGET") or None,
            "context_tokens": settings.getint("CRAWLFORGE_LLM_CONTEXT_TOKENS") or None,
            "deadline": self.deadline,
        }
        self.fill_missing = settings.getbool("CRAWLFORGE_LLM_FILL_MISSING")
        self.stats = crawler.stats
        self.base_url = base_url
        self.pages = self.unanswered = 0  # pages sent; of them, pages the server did not answer
        # its own threads: slow model calls must not starve Scrapy's DNS lookups, which
        # share the reactor's pool
        self.pool = ThreadPool(1, max(1, settings.getint("CRAWLFORGE_LLM_CONCURRENCY")), "crawlforge-llm")

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def open_spider(self):
        self.pool.start()

    def close_spider(self):
        self.pool.stop()
        if self.unanswered:
            logger.warning("LLM server %s did not answer %d of %d pages (llm_errors of type request)",
                           self.base_url, self.unanswered, self.pages)

    async def process_item(self, item):
        adapter = ItemAdapter(item)
        text = page_text(adapter, self.source)
        if not text.strip():
            self.stats.inc_value("llm/skipped/no_text")
            return item
        schema, given, sources = self.schema, {}, {}
        if self.fill_missing:
            given, sources = self.fill.given_fields(self.schema, adapter.get("structured_data"),
                                                    adapter.get("structured_data_provenance"))
            schema = self.fill.missing_schema(self.schema, given)
            if schema is None:  # the page's own data answered every field
                adapter["llm_data"] = self.fill.combine(self.schema, given, {})
                adapter["llm_provenance"] = sources
                self.stats.inc_value("llm/skipped/all_given")
                return item
        from twisted.internet import reactor  # the installed one, looked up when running

        work = deferToThreadPool(reactor, self.pool, self.extract, text, schema, client=self.client, **self.options)
        if self.deadline:
            work.addTimeout(self.deadline + DEADLINE_GRACE, reactor)
        try:
            result = await maybe_deferred_to_future(work)
        except DeferredTimeout:
            adapter["llm_errors"] = [{"path": "", "message": f"page deadline of {self.deadline:g} s passed",
                                      "type": "deadline"}]
            self.stats.inc_value("llm/failures")
            self.stats.inc_value("llm/deadlines")
            return item
        except Exception as error:  # a bug or a broken schema must not lose the page
            logger.exception("LLM extraction crashed for %s", adapter.get("url"))
            adapter["llm_errors"] = [{"path": "", "message": f"{type(error).__name__}: {error}", "type": "exception"}]
            self.stats.inc_value("llm/failures")
            return item
        adapter["llm_data"] = result.data
        if self.fill_missing:
            adapter["llm_data"] = self.fill.combine(self.schema, given, result.data)
            answered = [name for name, value in (result.data or {}).items() if value is not None]
            adapter["llm_provenance"] = {**sources, **dict.fromkeys(answered, "llm")}
        adapter["llm_partial_items"] = result.partial_items
        adapter["llm_partial"] = result.partial or None
        adapter["llm_input"] = result.input
        adapter["llm_errors"] = result.errors
        self.count(result)
        return item

    def count(self, result) -> None:
        self.pages += 1
        failed = next((e for e in result.errors if e["type"] == "request"), None)
        if failed:
            if not self.unanswered:  # once a crawl: every page after it would say the same
                logger.warning("LLM server %s did not answer (%s); pages keep their items, with the error in "
                               "llm_errors", self.base_url, failed["message"])
            self.unanswered += 1
            self.stats.inc_value("llm/unanswered")
        self.stats.inc_value("llm/pages")
        for key in ("calls", "repairs", "corrections"):
            self.stats.inc_value(f"llm/{key}", result.usage[key])
        for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
            self.stats.inc_value(f"llm/tokens/{key.removesuffix('_tokens')}", result.usage[key])
        if result.partial_items or result.partial:
            self.stats.inc_value("llm/partial_recoveries")
        if result.data is None and not result.partial_items:
            self.stats.inc_value("llm/failures")
        self.stats.inc_value("llm/tokens/dropped", result.input["tokens_dropped"])
        self.stats.inc_value("llm/errors", len(result.errors))
