"""Web archives of a crawl (WARC, read by every archive tool) and the crawl re-run from them.

``warc`` builds and writes records (pure: bytes and plain values in, files out), ``index``
finds them again; ``replay`` is the Scrapy glue that serves archived responses to a crawl in
place of the network (``scrapy reextract``). The writer itself is a downloader middleware,
``crawlforge.middlewares.archive``.
"""
