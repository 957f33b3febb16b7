"""PDF documents: bytes in, markdown, metadata and warnings out (no Scrapy, no settings).

``read_pdf(body, max_pages, time_limit)`` parses with pdfplumber (on pdfminer.six, MIT): it
gives each character's font, size and position, the lines a page draws (for ruled tables) and
a tagged PDF's structure tree, which PDFium's Python binding does not expose; bench/bench_pdf.py
has the figures that chose it. A tagged page is written from its structure (``tagged``), any
other from its layout (``layout``). A body that cannot be read raises ``PdfProblem`` with the
error record's reason: ``not_pdf``, ``pdf_encrypted`` or ``pdf_error``.
"""

from __future__ import annotations

import time
from contextlib import suppress
from dataclasses import dataclass, field
from io import BytesIO

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfplumber.utils.exceptions import PdfminerException

from crawlforge.extract.pdf.blocks import merge_continued
from crawlforge.extract.pdf.layout import margin_keys, page_blocks, read_page
from crawlforge.extract.pdf.meta import pdf_metadata
from crawlforge.extract.pdf.render import render_blocks
from crawlforge.extract.pdf.tagged import tagged_blocks

SIGNATURE = b"%PDF-"
SIGNATURE_WINDOW = 1024  # readers accept the header anywhere in the first KiB
SCANNED_MAX_CHARS = 50  # a date or a stamp on a page image: its text is in the image
SCANNED_IMAGE_SHARE = 0.5  # of the page's area


class PdfProblem(Exception):
    """A body that gives no document; ``reason`` is the error record's."""

    def __init__(self, reason: str, detail: str):
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


@dataclass
class PdfDocument:
    markdown: str
    metadata: dict
    warnings: list[str] = field(default_factory=list)
    pages_read: int = 0


def is_pdf(body: bytes) -> bool:
    return SIGNATURE in body[:SIGNATURE_WINDOW]


def open_pdf(body: bytes) -> pdfplumber.PDF:
    if not is_pdf(body):
        raise PdfProblem("not_pdf", "the body has no %PDF- signature, so it is not a PDF")
    try:
        return pdfplumber.open(BytesIO(body))
    except PdfminerException as error:
        cause = error.args[0] if error.args else error
        if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)):
            raise PdfProblem("pdf_encrypted", "the PDF is encrypted and needs a password") from None
        raise PdfProblem("pdf_error", f"cannot read the PDF: {type(cause).__name__}: {cause}") from None
    except Exception as error:  # noqa: BLE001 - a parser meets any byte soup; the record says what broke
        raise PdfProblem("pdf_error", f"cannot read the PDF: {type(error).__name__}: {error}") from None


def read_pdf(body: bytes, max_pages: int = 0, time_limit: float = 0) -> PdfDocument:
    """The document of ``body``: at most ``max_pages`` pages (0: all), and the pages read
    before ``time_limit`` seconds ran out (0: no limit), each cut short said in a warning."""
    deadline = time.monotonic() + time_limit if time_limit else None
    pdf = open_pdf(body)
    try:
        return read_pages(pdf, max_pages, deadline)
    except PdfProblem:
        raise
    except Exception as error:  # noqa: BLE001 - a broken page stream; the record says what broke
        raise PdfProblem("pdf_error", f"cannot read the PDF: {type(error).__name__}: {error}") from None
    finally:
        with suppress(Exception):  # closing reads the page tree again, which may be what broke
            pdf.close()


def read_pages(pdf: pdfplumber.PDF, max_pages: int, deadline: float | None) -> PdfDocument:
    total = len(pdf.pages)
    if not total:
        raise PdfProblem("pdf_error", "the PDF has no pages")
    document = PdfDocument("", pdf_metadata(pdf.metadata, total))
    limit = min(total, max_pages) if max_pages else total
    pages, scanned = [], 0
    for page in pdf.pages[:limit]:
        if pages and deadline is not None and time.monotonic() > deadline:  # one page at least
            document.warnings.append(f"only the first {len(pages)} of {total} pages were read (time limit)")
            break
        scanned += looks_scanned(page)
        pages.append(read_page(page, tagged_blocks(page)))
        page.close()  # its parsed objects go: a long PDF is held as words, a page at a time
    else:
        if limit < total:
            document.warnings.append(f"only the first {limit} of {total} pages were read (page limit)")
    document.pages_read = len(pages)
    running = margin_keys(pages)  # running headers and footers are known from all pages
    blocks = merge_continued([block for page in pages for block in page_blocks(page, running)])
    document.markdown = render_blocks(blocks)
    if scanned:
        document.warnings.append(f"{scanned} of the {len(pages)} pages read have no text layer but an image "
                                 "(scanned?): they need OCR, which crawlforge does not do")
    return document


def looks_scanned(page) -> bool:
    """No text but something drawn (a blank page is no scan), or a few characters over an
    image of most of the page."""
    if not page.chars:
        return bool(page.images or page.curves)
    area = sum(abs((image["x1"] - image["x0"]) * (image["bottom"] - image["top"])) for image in page.images)
    return len(page.chars) <= SCANNED_MAX_CHARS and area >= page.width * page.height * SCANNED_IMAGE_SHARE
