"""The JSON lines feed exporter, with the memory of a big item bounded.

Scrapy's exporter encodes an item whole, adds the newline to that string and encodes the result
to bytes: three copies of its JSON at once, ~100 MB for a 24 MB page whose markdown and document
are both in the item. An item holding a text this long or longer is written a field at a time
instead (the same bytes); smaller items take Scrapy's one-call encoder, which is faster.
"""

from __future__ import annotations

from typing import Any

from scrapy.exporters import JsonLinesItemExporter
from scrapy.utils.python import to_bytes

PIECEWISE_MIN_CHARS = 1024 * 1024


class PiecewiseJsonLinesItemExporter(JsonLinesItemExporter):
    def export_item(self, item: Any) -> None:
        itemdict = dict(self.get_serialized_fields(item))
        if not any(isinstance(value, str) and len(value) >= PIECEWISE_MIN_CHARS for value in itemdict.values()):
            self.file.write(to_bytes(self.encoder.encode(itemdict) + "\n", self.encoding))
            return
        for piece in self.encoder.iterencode(itemdict):
            self.file.write(to_bytes(piece, self.encoding))
        self.file.write(b"\n")
