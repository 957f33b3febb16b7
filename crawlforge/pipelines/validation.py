"""The last gate before export: an item that does not hold up is dropped with a logged
reason and a stats counter, never a crash."""

from __future__ import annotations

from itemadapter import ItemAdapter
from pydantic import BaseModel, ValidationError
from scrapy.exceptions import DropItem



def page_problem(adapter: ItemAdapter) -> tuple[str, str] | None:
    """Why a page item is not worth exporting, as (stats key, message), or None."""
    if not adapter.get("document"):
        return "no_document", "no document was built"
    markdown = adapter.get("markdown")
    # a scanned PDF has no text to give, and says so in its warnings: it is kept
    if (not markdown or markdown.isspace()) and adapter.get("template_data") is None and not adapter.get("pdf"):
        return "no_content", "the page has no main content"
    return None


def schema_error(item: BaseModel, adapter: ItemAdapter) -> ValidationError | None:
    """The item's fields re-validated as a plain dict (assignments are not validated). The
    top-level values go first: ``asdict`` copies every nested dict (~1.6 ms a page); only a
    failure is checked again on it, since it turns nested items into the dicts a field wants."""
    for values in (lambda: dict(adapter.items()), adapter.asdict):
        try:
            type(item).model_validate(values())
            return None
        except ValidationError as error:
            failure = error
    return failure


class ValidationPipeline:
    def __init__(self, stats, export_html: bool):
        self.stats = stats
        self.export_html = export_html

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.stats, crawler.settings.getbool("CRAWLFORGE_EXPORT_HTML"))

    def drop(self, key: str, message: str, url: str):
        self.stats.inc_value("validation/dropped")
        self.stats.inc_value(f"validation/dropped/{key}")
        raise DropItem(f"Invalid item for {url}: {message}")

    def process_item(self, item):
        adapter = ItemAdapter(item)
        url = adapter.get("url") or "?"
        if isinstance(item, BaseModel) and (error := schema_error(item, adapter)):  # Page, Job, ...
            self.drop("schema", f"{error.error_count()} schema error(s), first: {error.errors()[0]['msg']}", url)
        if "document" in adapter.field_names():
            if problem := page_problem(adapter):
                self.drop(*problem, url)
            if not self.export_html and "html" in adapter:
                del adapter["html"]
        self.stats.inc_value("validation/passed")
        return item
