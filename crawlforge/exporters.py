"""The JSON lines feed exporter, with the memory of a big item bounded.

Scrapy's exporter encodes an item whole, adds the newline to that string and encodes the result
to bytes: three copies of its JSON at once, ~100 MB for a 24 MB page whose markdown and document
are both in the item. An item holding a text this long or longer is written a field at a time,
its long texts a slice at a time (the same bytes: JSON escapes each character on its own);
smaller items take Scrapy's one-call encoder, which is faster.
"""

from __future__ import annotations

from typing import Any

from scrapy.exporters import JsonLinesItemExporter
from scrapy.utils.python import to_bytes

PIECEWISE_MIN_CHARS = 1024 * 1024
WRITE_CHARS = 1024 * 1024  # a long text is written in slices of this many characters


class PiecewiseJsonLinesItemExporter(JsonLinesItemExporter):
    def export_item(self, item: Any) -> None:
        itemdict = dict(self.get_serialized_fields(item))
        if not any(isinstance(value, str) and len(value) >= PIECEWISE_MIN_CHARS for value in itemdict.values()):
            self.file.write(to_bytes(self.encoder.encode(itemdict) + "\n", self.encoding))
            return
        write, encode = self.file.write, self.encoder.encode
        write(b"{")
        for index, (key, value) in enumerate(itemdict.items()):
            separator = self.encoder.item_separator if index else ""
            write(to_bytes(f"{separator}{encode(str(key))}{self.encoder.key_separator}", self.encoding))
            if isinstance(value, str) and len(value) > WRITE_CHARS:
                write(b'"')
                for start in range(0, len(value), WRITE_CHARS):
                    write(to_bytes(encode(value[start : start + WRITE_CHARS])[1:-1], self.encoding))
                write(b'"')
            else:
                write(to_bytes(encode(value), self.encoding))
        write(b"}\n")
