"""Finding archived responses again: an index of where each URL's records are, and each record
read back as plain data. Only offsets are kept in memory; bodies are read when asked for."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from crawlforge.archive.warc import (ENCODING_FIELD, HEADERS_FIELD, ORIGINAL_NAMES, RENDERED_TYPES,
                                     REQUEST_URI_FIELD, STATUS_FIELD)

BLOCK_SIZE = 64 * 1024


class ArchiveError(ValueError):
    """A file that is not a readable WARC archive."""


@dataclass(frozen=True)
class Location:
    path: Path
    offset: int


@dataclass
class Archived:
    """A response as it was served (or as the browser rendered it)."""

    url: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    rendered: bool
    encoding: str | None = None


@dataclass
class ArchiveIndex:
    """``(url, rendered)`` -> the locations of its response records, in archive order, and the
    warcinfo fields of the first file."""

    records: dict[tuple[str, bool], list[Location]]
    info: dict
    truncated: list[str]

    def __len__(self) -> int:
        return sum(len(locations) for locations in self.records.values())


def warcinfo_fields(record) -> dict:
    """The ``name: value`` lines of a warcinfo record."""
    text = record.content_stream().read().decode("utf-8", "replace")
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def complete(record) -> bool:
    """All of its declared length is there and its digests match (warcio itself returns the
    part of a cut record it found)."""
    while record.raw_stream.read(BLOCK_SIZE):
        pass
    return record.raw_stream.limit == 0 and record.digest_checker.passed is not False


def index_archive(paths: list[Path]) -> ArchiveIndex:
    """Every response, conversion and resource record of ``paths``; a file cut short (a killed
    crawl) is indexed up to its last complete record and named in ``truncated``."""
    records: dict[tuple[str, bool], list[Location]] = {}
    info: dict = {}
    truncated = []
    for path in map(Path, paths):
        found = len(records)
        try:
            with path.open("rb") as stream:
                iterator = ArchiveIterator(stream, check_digests=True)
                for record in iterator:
                    kind = record.rec_type
                    if kind == "warcinfo" and not info:
                        info = warcinfo_fields(record)
                    elif kind == "response" or kind in RENDERED_TYPES:
                        rendered = kind != "response"
                        url = (record.rec_headers.get_header(REQUEST_URI_FIELD) if rendered else None) \
                            or record.rec_headers.get_header("WARC-Target-URI")
                        location = Location(path, iterator.get_record_offset())
                        if not complete(record):
                            truncated.append(str(path))
                            break
                        records.setdefault((url, rendered), []).append(location)
        except OSError as error:
            raise ArchiveError(f"{path}: {error.strerror or error}") from error
        except Exception as error:  # warcio raises plain exceptions on a cut or foreign file
            if len(records) == found and not info:
                raise ArchiveError(f"{path}: not a WARC file ({error})") from error
            truncated.append(str(path))
    return ArchiveIndex(records, info, truncated)


def read_record(location: Location) -> Archived:
    with location.path.open("rb") as stream:
        stream.seek(location.offset)
        record = next(iter(ArchiveIterator(stream, check_digests=False)))
        url = record.rec_headers.get_header("WARC-Target-URI")
        if record.rec_type == "response":
            http = record.http_headers
            headers = [(ORIGINAL_NAMES.get(name.lower(), name), value) for name, value in http.headers]
            return Archived(url, int(http.get_statuscode()), headers, record.raw_stream.read(), rendered=False)
        fields = record.rec_headers
        return Archived(url, int(fields.get_header(STATUS_FIELD) or 200),
                        [tuple(pair) for pair in json.loads(fields.get_header(HEADERS_FIELD) or "[]")],
                        record.raw_stream.read(), rendered=True, encoding=fields.get_header(ENCODING_FIELD))
