"""The JSON lines exporter writes what Scrapy's writes, a big item a field at a time."""

import io
import json

from scrapy.exporters import JsonLinesItemExporter

from crawlforge.exporters import PIECEWISE_MIN_CHARS, WRITE_CHARS, PiecewiseJsonLinesItemExporter
from crawlforge.items import Page


class CountingFile(io.BytesIO):
    def __init__(self):
        super().__init__()
        self.largest_write = 0

    def write(self, data):
        self.largest_write = max(self.largest_write, len(data))
        return super().write(data)


def exported(exporter_class, item) -> CountingFile:
    file = CountingFile()
    exporter = exporter_class(file, encoding="utf-8")
    exporter.start_exporting()
    exporter.export_item(item)
    exporter.finish_exporting()
    return file


def test_a_small_item_is_the_line_scrapy_writes():
    page = Page(url="https://example.com/", title="Café", markdown="# Café\n\ntext", fetched_at="t")
    assert exported(PiecewiseJsonLinesItemExporter, page).getvalue() == exported(JsonLinesItemExporter, page).getvalue()


def test_a_big_item_is_the_same_line_written_a_slice_at_a_time():
    text = "word é \"quoted\" \U0001f600\n" * (PIECEWISE_MIN_CHARS // 4)
    page = Page(url="https://example.com/big", markdown=text, document=f"---\n---\n{text}", fetched_at="t")
    ours, scrapys = exported(PiecewiseJsonLinesItemExporter, page), exported(JsonLinesItemExporter, page)
    assert ours.getvalue() == scrapys.getvalue()
    assert json.loads(ours.getvalue())["markdown"] == text
    # Scrapy writes the whole line (both texts) at once; here the largest write is one slice
    assert scrapys.largest_write > 2 * len(text) and ours.largest_write <= 4 * WRITE_CHARS < len(text)


def test_a_big_item_with_ascii_escapes_is_the_line_scrapy_writes():
    text = "é \U0001f600 \\ \x00" * (PIECEWISE_MIN_CHARS // 4)
    page = Page(url="https://example.com/big", markdown=text, fetched_at="t",
                template_warnings=["a \"warning\""], structured_data={"name": "é"})
    file, scrapys = io.BytesIO(), io.BytesIO()
    for exporter_class, out in ((PiecewiseJsonLinesItemExporter, file), (JsonLinesItemExporter, scrapys)):
        exporter = exporter_class(out)  # no encoding: ensure_ascii, as Scrapy's default
        exporter.start_exporting()
        exporter.export_item(page)
        exporter.finish_exporting()
    assert file.getvalue() == scrapys.getvalue()
