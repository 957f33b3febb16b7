"""Decode a response body with its real charset.

Precedence, as in w3lib and the WHATWG rules: BOM > HTTP header > ``<meta>``/XML declaration
in the first 1024 bytes > detection (charset-normalizer) > UTF-8. A declared charset that does
not decode the body cleanly is also handed to detection. Labels map to the codec a browser
uses (latin1 -> cp1252, gbk/gb2312 -> gb18030, shift_jis -> cp932).
"""

from __future__ import annotations

import codecs

from charset_normalizer import from_bytes
from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
    to_unicode,
)

DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024  # 25 MiB
META_PRESCAN_BYTES = 1024
# Detection looks at this much of the body: enough for a verdict, bounded in time.
DETECT_SAMPLE_BYTES = 256 * 1024  # 256 KiB
# Encodings a browser can decode (WHATWG Encoding Standard), as Python codec names; the
# DOS code pages a detector likes (cp775, cp850...) are never served on the web.
WEB_ENCODINGS = frozenset(
    codecs.lookup(name).name
    for name in (
        "utf-8 ibm866 iso8859-2 iso8859-3 iso8859-4 iso8859-5 iso8859-6 iso8859-7 iso8859-8"
        " iso8859-10 iso8859-13 iso8859-14 iso8859-15 iso8859-16 koi8-r koi8-u mac-roman"
        " mac-cyrillic cp874 cp1250 cp1251 cp1252 cp1253 cp1254 cp1255 cp1256 cp1257 cp1258"
        " gb18030 big5hkscs euc-jp iso2022-jp cp932 cp949 utf-16-le utf-16-be"
    ).split()
)
# The WHATWG default for an undeclared document; it wins ties between equally good guesses.
FALLBACK_SINGLE_BYTE = "cp1252"
# Detector answers that are supersets or siblings of a web encoding, read as that encoding.
DETECTED_ALIASES = {"euc_jis_2004": "euc_jp", "euc_jisx0213": "euc_jp", "shift_jis_2004": "cp932",
                    "shift_jisx0213": "cp932", "cp1125": "cp866", "iso2022_jp_2": "iso2022_jp"}


class BodyTooLargeError(ValueError):
    """A body over the size cap; ``size`` is the declared or counted byte length."""

    def __init__(self, message: str, limit: int, size: int):
        super().__init__(message)
        self.limit = limit
        self.size = size


def check_size(size: int, max_bytes: int | None = None, declared: bool = False) -> None:
    """Raise BodyTooLargeError when ``size`` bytes exceed the cap (exactly the cap is fine)."""
    limit = DEFAULT_MAX_BODY_BYTES if max_bytes is None else max_bytes
    if size <= limit:
        return
    if declared:
        message = f"Response body too large: Content-Length {size} exceeds limit of {limit} bytes"
    else:
        message = f"Response body too large: {size} bytes exceeds limit of {limit} bytes"
    raise BodyTooLargeError(message, limit, size)


def web_codec(label: str | None) -> str | None:
    """The codec a browser uses for an encoding label, or None for an unknown label."""
    if not label:
        return None
    name = resolve_encoding(label)
    if name in ("utf-16", "utf-32"):
        return name + "-le"  # a label without a BOM: browsers read UTF-16LE
    return name


def declared_charset(body: bytes, content_type: str | None = None) -> tuple[str, str] | None:
    """(codec, source) from the BOM, the header, or the in-document declaration; None if none."""
    bom_codec, _ = read_bom(body)
    if bom_codec:
        return bom_codec, "bom"
    header = web_codec(http_content_type_encoding(content_type))
    if header:
        return header, "header"
    meta = html_body_declared_encoding(body[:META_PRESCAN_BYTES])
    meta = web_codec(meta)
    if meta:
        return meta, "meta"
    return None


def guess_charset(body: bytes) -> str | None:
    """Best web encoding for an undeclared body: UTF-8 if it decodes, else charset-normalizer's
    best guess among web encodings, ties going to windows-1252."""
    return _guess(body)[0]


def _guess(body: bytes) -> tuple[str | None, str | None]:
    """``guess_charset`` and the body's text when the guess decoded all of it already (UTF-8)."""
    sample = body[:DETECT_SAMPLE_BYTES]
    truncated = len(body) > len(sample)
    text = _decoded(sample, "utf-8", truncated)
    if text is not None:
        return "utf-8", None if truncated else text
    matches = [(m, _detected_codec(m.encoding)) for m in from_bytes(sample)]
    candidates = [(m, codec) for m, codec in matches if codec in WEB_ENCODINGS]
    if not candidates:
        return (matches[0][1] if matches else None), None
    best = candidates[0][0]
    tied = [codec for m, codec in candidates if (m.chaos, m.coherence) == (best.chaos, best.coherence)]
    return (FALLBACK_SINGLE_BYTE if FALLBACK_SINGLE_BYTE in tied else candidates[0][1]), None


def _detected_codec(name: str) -> str | None:
    return web_codec(DETECTED_ALIASES.get(name, name))


def _decodes(body: bytes, codec: str, truncated: bool = False) -> bool:
    """Whether ``body`` decodes without error; a cut-off sample may end mid-character."""
    return _decoded(body, codec, truncated) is not None


def _decoded(body: bytes, codec: str, truncated: bool = False) -> str | None:
    """``body`` decoded strictly, or None when it does not decode."""
    try:
        return codecs.getincrementaldecoder(codec)().decode(body, final=not truncated)
    except UnicodeDecodeError:
        return None


def choose_charset(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """(codec, source) per the module's precedence; source is bom/header/meta/detected/default."""
    return _choice(body, content_type)[:2]


def _choice(body: bytes, content_type: str | None) -> tuple[str, str, str | None]:
    """``choose_charset`` and the body's text when the choice decoded all of it already (a
    declared charset that decodes it cleanly), else None."""
    declared = declared_charset(body, content_type)
    if declared and declared[1] == "bom":
        return *declared, None
    text = _decoded(body, declared[0]) if declared else None
    if text is not None:
        return *declared, text
    if not declared and body.isascii():
        if b"\x1b$" in body and _decodes(body, "iso2022_jp"):  # 7-bit ISO-2022-JP escapes
            return "iso2022_jp", "detected", None
        return "utf-8", "default", None
    guessed, text = _guess(body)
    if guessed:
        return guessed, "detected", text
    return *(declared or ("utf-8", "default")), None


def detect_charset(body: bytes, content_type: str | None = None) -> str:
    """The Python codec that decodes ``body`` (e.g. ``cp932`` for a page labelled Shift_JIS)."""
    return choose_charset(body, content_type)[0]


def utf8_body(body: bytes, text: str, codec: str | None) -> bytes | None:
    """``body`` when it is ``text`` as UTF-8 byte for byte, else None: a UTF-8 body without a BOM
    whose text holds no replacement character (none was put in for a bad byte), which the page's
    parse then reads as it is (``dom.ParsedPage``) instead of encoding the text again."""
    if codec and codecs.lookup(codec).name == "utf-8" and not body.startswith(codecs.BOM_UTF8) \
            and "\ufffd" not in text:
        return body
    return None


def decode_body(
    body: bytes, content_type: str | None = None, max_bytes: int | None = None
) -> dict:
    """``{text, encoding, source}`` for a buffered body; over ``max_bytes`` (default 25 MiB)
    raises BodyTooLargeError. Invalid bytes become U+FFFD; a BOM is dropped."""
    check_size(len(body), max_bytes)
    codec, source, text = _choice(body, content_type)
    if source == "bom":
        body = body[len(read_bom(body)[1]) :]
    return {"text": to_unicode(body, codec) if text is None else text, "encoding": codec, "source": source}
