"""The document information dictionary as plain frontmatter values."""

from __future__ import annotations

import re

# D:YYYYMMDDHHmmSSOHH'mm' (PDF 32000-1, 7.9.4): every part after the year is optional
PDF_DATE = re.compile(r"D:(\d{4})(\d\d)?(\d\d)?(\d\d)?(\d\d)?(\d\d)?([Zz+\-])?(\d\d)?'?(\d\d)?")
FIELDS = {"title": "Title", "author": "Author", "subject": "Subject"}


def text_value(value) -> str | None:
    """A metadata string: pdfminer leaves undecodable ones as bytes."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return None
    return value.replace("\x00", "").strip() or None


def pdf_date(value) -> str | None:
    """``D:20200806055139-04'00'`` -> ``2020-08-06T05:51:39-04:00``; anything else as given."""
    text = text_value(value)
    if text is None:
        return None
    match = PDF_DATE.match(text)
    if not match:
        return text
    year, month, day, hour, minute, second, sign, zone_hour, zone_minute = match.groups()
    stamp = f"{year}-{month or '01'}-{day or '01'}T{hour or '00'}:{minute or '00'}:{second or '00'}"
    if sign in ("Z", "z"):
        return stamp + "Z"
    if sign:
        return f"{stamp}{sign}{zone_hour or '00'}:{zone_minute or '00'}"
    return stamp


def pdf_metadata(info: dict, pages: int) -> dict:
    metadata = {key: text_value(info.get(name)) for key, name in FIELDS.items()}
    metadata["created"] = pdf_date(info.get("CreationDate"))
    metadata["modified"] = pdf_date(info.get("ModDate"))
    metadata["pages"] = pages
    return metadata
