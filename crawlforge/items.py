"""Items: what a crawl exports, as pydantic models handled through itemadapter."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Annotated, Any

from itemadapter import ItemAdapter
from itemadapter.adapter import PydanticAdapter
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StringConstraints


def utc_now() -> str:
    """Timestamps in items are ISO 8601 UTC strings, so feeds need no custom encoder."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class Page(BaseModel):
    """One fetched page: its own structured data, its main content as markdown, and the
    document (frontmatter + markdown) built from both."""

    url: str
    final_url: str | None = None
    status: int | None = None
    fetched_at: str = Field(default_factory=utc_now)
    content_type: str | None = None
    encoding: str | None = None
    encoding_source: str | None = None
    depth: int | None = None
    download_latency: float | None = None  # seconds from request sent to headers received
    rendered: bool = False
    title: str | None = None
    # raw HTML: pipelines need it; dropped before export unless CRAWLFORGE_EXPORT_HTML is on
    html: str | None = None
    structured_data: dict[str, Any] = Field(default_factory=dict)
    structured_data_conflicts: list[dict[str, Any]] = Field(default_factory=list)
    structured_data_provenance: dict[str, str] = Field(default_factory=dict)
    embedded_state: dict[str, Any] | None = None
    markdown: str = ""
    # what kind of page the markdown was cut from: article, product, listing, documentation,
    # forum, service, hub or other (crawlforge.extract.content.pagetype)
    page_type: str | None = None
    document: str = ""
    # a PDF's own metadata: title, author, subject, created, modified, pages (crawlforge.extract.pdf)
    pdf: dict[str, Any] | None = None
    template: str | None = None
    template_data: Any = None
    template_warnings: list[str] = Field(default_factory=list)
    # `auto`: the template that claimed the URL and left it ({template, reason, detail}), when
    # the page was then read as a generic page
    template_fallback: dict[str, str] | None = None
    # units of the markdown that answer the crawl's query (CRAWLFORGE_QUERY / -a query=)
    highlights: list[dict[str, Any]] | None = None
    structure_signature: dict[str, Any] | None = None
    content_hash: str | None = None
    # against CRAWLFORGE_BASELINE, when the page is in it
    structure_similarity: float | None = None
    content_changed: bool | None = None
    # schema-guided LLM extraction (CRAWLFORGE_LLM_SCHEMA)
    llm_data: Any = None
    # the valid items of list fields when some were invalid (llm_data may then be null)
    llm_partial_items: list[Any] = Field(default_factory=list)
    llm_errors: list[dict[str, Any]] = Field(default_factory=list)
    # a single-object answer that failed validation: its fields that validated
    llm_partial: dict[str, Any] | None = None
    # what the model was sent of the page: {tokens_sent, tokens_dropped, pieces}
    llm_input: dict[str, int] | None = None
    # CRAWLFORGE_LLM_FILL_MISSING: each llm_data field's source (json-ld, ..., or llm)
    llm_provenance: dict[str, str] | None = None
    # an optional step that failed on this page ({"step", "message"}): the page is kept without it
    enrichment_errors: list[dict[str, Any]] = Field(default_factory=list)
    # what extractors noticed ({"extractor", "message"}): a JSON block repaired or skipped...
    extraction_warnings: list[dict[str, Any]] = Field(default_factory=list)
    # fetched again after a killed crawl resumed (JOBDIR): the killed run's feed may hold it
    resumed_refetch: bool = False
    # the page's one parse, shared by the pipelines (crawlforge.parsed); never exported
    _parsed: Any = PrivateAttr(default=None)
    # a PDF's bytes, for the PDF pipeline and the frontmatter's content_length; never exported
    _body: bytes | None = PrivateAttr(default=None)


class ErrorRecord(BaseModel):
    """Why a URL ended without an item: one line of the errors feed."""

    url: str
    stage: str
    reason: str
    detail: str = ""
    status: int | None = None
    vendor: str | None = None
    limit: int | None = None
    size: int | None = None
    at: str = Field(default_factory=utc_now)


Text = Annotated[str, StringConstraints(min_length=1)]


class Job(BaseModel):
    """One job posting in the common shape; ``model_dump()`` equals the connector's dict.

    Strict: an id left as a number or a blank string fails validation, so a feed that
    validates really has one type per field.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    id: Text | None
    title: Text | None
    url: Text | None
    location: Text | None
    department: Text | None
    team: Text | None
    employment_type: Text | None
    remote: bool | None
    published_at: Text | None
    updated_at: Text | None
    description: Text | None
    source: Text
    raw_extra: dict[str, Any]


class ItemModelAdapter(PydanticAdapter):
    """itemadapter's pydantic adapter for the items above, with each class's field names and
    field metadata looked up once: the stock adapter rebuilds the metadata and reaches for
    ``model_fields`` on every access, which made the feed export of a page cost 0.37 ms."""

    @classmethod
    def is_item_class(cls, item_class: type) -> bool:
        return issubclass(item_class, (Page, ErrorRecord, Job))

    @classmethod
    @functools.cache
    def get_field_meta_from_class(cls, item_class: type, field_name: str):
        return super().get_field_meta_from_class(item_class, field_name)

    def __getitem__(self, field_name: str) -> Any:
        if field_name in _field_names(self.item.__class__):
            return getattr(self.item, field_name)
        raise KeyError(field_name)

    def __setitem__(self, field_name: str, value: Any) -> None:
        if field_name not in _field_names(self.item.__class__):
            raise KeyError(f"{self.item.__class__.__name__} does not support field: {field_name}")
        setattr(self.item, field_name, value)

    def __iter__(self):
        return iter(name for name in _field_names(self.item.__class__) if hasattr(self.item, name))


@functools.cache
def _field_names(item_class: type) -> dict[str, None]:
    return dict.fromkeys(item_class.model_fields)


ItemAdapter.ADAPTER_CLASSES.appendleft(ItemModelAdapter)
