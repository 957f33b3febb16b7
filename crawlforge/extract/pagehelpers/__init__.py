"""Page helpers for your own code, which no crawl path calls: PII redaction (pii), data tables
as plain grids (tables), page text one line per block (pagetext), link records and absolute URLs
(links), and the JSON paths that lead to a value (jsonfind). Each is importable from
``crawlforge.extract`` as well (``from crawlforge.extract import redact_pii``)."""
