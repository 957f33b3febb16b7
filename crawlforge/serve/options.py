"""What a request may ask for, checked before any crawl starts: one model per endpoint (the MCP
tools take the same), unknown options refused, and one line saying what is wrong."""

from __future__ import annotations

import re
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from crawlforge.serve.errors import BadRequest
from crawlforge.serve.jsonschema import SchemaError, check_schema


def check_web_url(url: str) -> str:
    """An absolute http(s) URL: other schemes (file:, data:) would read this machine, not the web."""
    parts = urlparse(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"must be an absolute http(s) URL such as https://example.com/, not {url!r}")
    return url.strip()


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    url: str = Field(description="The page to fetch (http or https).")

    @field_validator("url")
    @classmethod
    def _check_url(cls, value: str) -> str:
        return check_web_url(value)


class PageOptions(Options):
    """How a page becomes its item: the spider arguments of ``scrapy crawl site``."""

    render: Literal["never", "auto", "always"] | None = Field(
        None, description="Use the browser: never, auto (only for JS shells and challenge pages) or always.")
    main_content: bool | None = Field(None, description="Keep only the main content (false: the whole page).")
    images: bool | None = Field(None, description="Keep images in the markdown.")
    links: bool | None = Field(None, description="Keep links in the markdown.")
    query: str | None = Field(None, description="Text to rank the page's sentences, table rows and code "
                                                "blocks against; the best are returned verbatim as highlights.")

    def spider_arguments(self) -> dict[str, str]:
        """The set options as ``-a NAME=VALUE`` strings, which the spider reads as in a crawl."""
        arguments = {"url": self.url}
        for name in ("render", "main_content", "images", "links", "query"):
            value = getattr(self, name)
            if value is not None:
                arguments[name] = ("1" if value else "0") if isinstance(value, bool) else value
        return arguments


class ScrapeOptions(PageOptions):
    schema_: dict[str, Any] | None = Field(
        None, alias="schema",
        description="A JSON Schema (an object with properties) to fill from the page with the "
                    "configured model; the answer is the item's llm_data.")

    @field_validator("schema_")
    @classmethod
    def _check_schema(cls, value):
        if value is not None:
            try:
                check_schema(value)
            except SchemaError as error:
                raise ValueError(str(error)) from None
        return value


class MapOptions(Options):
    limit: int | None = Field(None, ge=1, description="The most URLs to return.")


class CrawlOptions(PageOptions):
    max_pages: int = Field(10, ge=1, description="The most pages to fetch, the start URL included.")
    max_depth: int | None = Field(None, ge=0, description="Link hops from the start URL.")
    allow: str | None = Field(None, description="A regular expression a followed URL must match.")
    sitemap: Literal["never", "also", "only"] | None = Field(
        None, description="Also crawl the pages the site's sitemaps list (also), or only those (only).")

    @field_validator("allow")
    @classmethod
    def _check_allow(cls, value):
        if value is not None:
            try:
                re.compile(value)
            except re.error as error:
                raise ValueError(f"not a regular expression ({error})") from None
        return value

    def spider_arguments(self) -> dict[str, str]:
        arguments = super().spider_arguments() | {"max_pages": str(self.max_pages)}
        for name in ("max_depth", "allow", "sitemap"):
            if (value := getattr(self, name)) is not None:
                arguments[name] = str(value)
        return arguments


def parse_options(model: type[Options], data: Any) -> Options:
    """``data`` (a decoded JSON body or tool arguments) as ``model``, else ``BadRequest``."""
    if not isinstance(data, dict):
        raise BadRequest(f"the body must be a JSON object, not {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise BadRequest(one_line(model, error)) from None


def one_line(model: type[Options], error: ValidationError) -> str:
    """The first problem, named after the option as the caller spelt it."""
    problem = error.errors()[0]
    name = ".".join(str(part) for part in problem["loc"]) or "body"
    if problem["type"] == "extra_forbidden":
        known = ", ".join(field.alias or key for key, field in model.model_fields.items())
        return f"unknown option {name!r} (options: {known})"
    if problem["type"] == "missing":
        return f"{name} is required"
    message = problem["msg"].removeprefix("Value error, ")
    return f"{name}: {message}"
