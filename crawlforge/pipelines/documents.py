"""Each exported document also as a .md file, in a folder or under an s3:// prefix, through
Scrapy's own files stores."""

from __future__ import annotations

import hashlib
import re
from io import BytesIO
from pathlib import Path
from urllib.parse import urlparse

from itemadapter import ItemAdapter
from scrapy.pipelines.files import FilesPipeline
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred


def document_filename(url: str) -> str:
    """Stable and readable: host and path as a slug, plus a short hash of the whole URL so
    two URLs never share a file."""
    parsed = urlparse(url)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{parsed.hostname or ''}{parsed.path}").strip("-")[:80]
    digest = hashlib.sha1(url.encode("utf-8")).hexdigest()[:10]
    return f"{slug or 'page'}-{digest}.md"


def files_store(uri: str, settings):
    """The files store Scrapy's FilesPipeline would use for ``uri`` (a folder or s3://...)."""
    if "://" not in uri:
        uri = str(Path(uri).resolve())
        scheme = "file"
    else:
        scheme = urlparse(uri).scheme
    FilesPipeline._update_stores(settings)  # copies AWS_* and friends onto the store classes
    return FilesPipeline.STORE_SCHEMES[scheme](uri)


class DocumentsPipeline:
    def __init__(self, crawler):
        self.crawler = crawler
        self.store = None

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def open_spider(self):
        if uri := self.crawler.settings.get("CRAWLFORGE_DOCUMENTS_DIR"):
            self.store = files_store(uri, self.crawler.settings)

    async def process_item(self, item):
        adapter = ItemAdapter(item)
        if self.store is None or not adapter.get("document"):
            return item
        data = BytesIO(adapter["document"].encode("utf-8"))
        result = self.store.persist_file(document_filename(adapter["url"]), data, info=None,
                                         headers={"Content-Type": "text/markdown; charset=utf-8"})
        if isinstance(result, Deferred):
            await maybe_deferred_to_future(result)
        self.crawler.stats.inc_value("documents/written")
        return item
