"""``scrapy markdown URL_OR_FILE [--url URL]``: one page as a crawlforge document, for a quick
look at what a crawl would export."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.extract.charset import decode_body
from crawlforge.extract.frontmatter import render_document
from crawlforge.extract.markdown import page_content
from crawlforge.extract.structured import extract_structured_data


def document_for(html: str, url: str, *, main_content: bool = True) -> str:
    content = page_content(html, url, main_content=main_content)
    frontmatter = {"url": url, "content_length": len(html.encode("utf-8", "surrogatepass")),
                   "page_type": content.page_type, **extract_structured_data(html, url).to_frontmatter()}
    return render_document(frontmatter, content.markdown)


class Command(ScrapyCommand):
    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "URL_OR_FILE"

    def short_desc(self) -> str:
        return "Print one page (a URL, or a saved HTML file) as frontmatter + markdown"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="the page's URL, for a file (resolves its relative links)")
        parser.add_argument("--whole-page", action="store_true", help="convert the whole page, not the main content")

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError()
        target = args[0]
        if Path(target).is_file():
            html = decode_body(Path(target).read_bytes())["text"]
            print(document_for(html, opts.url or Path(target).resolve().as_uri(), main_content=not opts.whole_page))
            return
        self.fetch_and_print(target, opts)

    def fetch_and_print(self, url: str, opts):
        """Fetch through the project's own downloader middlewares (robots, SSRF guard, charset)."""
        import scrapy

        documents = []

        class OnePage(scrapy.Spider):
            name = "markdown-command"

            async def start(self):
                yield scrapy.Request(url)

            def parse(self, response):
                documents.append(document_for(response.text, response.url, main_content=not opts.whole_page))

        self.crawler_process.crawl(OnePage)
        self.crawler_process.start()
        if not documents:
            self.exitcode = 1
            print(f"No page from {url}: see the log above.")
        print("\n".join(documents))
