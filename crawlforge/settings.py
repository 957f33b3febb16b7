"""Scrapy settings for crawlforge, and the defaults of every ``CRAWLFORGE_*`` setting.

The order of the whole page pipeline is visible here at a glance: downloader middlewares vet
each response, then item pipelines turn it into structured data, markdown and a document.
Override any of these with ``-s NAME=VALUE`` or a spider's ``custom_settings``.
"""

from crawlforge.extract.content.urls import TRACKING_PARAMS
from crawlforge.extract.markdown import DEFAULT_MAX_BYTES

BOT_NAME = "crawlforge"

SPIDER_MODULES = ["crawlforge.spiders"]
NEWSPIDER_MODULE = "crawlforge.spiders"
COMMANDS_MODULE = "crawlforge.commands"

# Identify the crawler honestly; replace the URL with a page about your crawl.
USER_AGENT = "crawlforge/0.1 (+https://example.com/crawlforge-bot)"

ROBOTSTXT_OBEY = True

# Politeness: AutoThrottle adapts the delay to the server's latency.
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 60.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 32 * 1024 * 1024  # 32 MiB
DOWNLOAD_WARNSIZE = 8 * 1024 * 1024  # 8 MiB
# A page this big (characters of HTML) is worked on off the reactor thread (crawlforge.pagework;
# 0: every page on the reactor).
CRAWLFORGE_PAGE_THREAD_MIN_CHARS = 1024 * 1024
# Bodies in the spider and pipelines at once before Scrapy stops starting downloads: above the
# largest body (DOWNLOAD_MAXSIZE), so the crawl goes on while a big page is worked on in its
# thread (Scrapy's 5 MB paused it for any page past that).
SCRAPER_SLOT_MAX_ACTIVE_SIZE = 40 * 1024 * 1024
# Outputs of one response worked on at once. Scrapy starts this many tasks for every response
# (100 by default: a quarter of a small page's crawl cost), while a page yields one item, the LLM
# step makes CRAWLFORGE_LLM_CONCURRENCY calls at once and page work has one thread.
CONCURRENT_ITEMS = 8
RETRY_TIMES = 2
RETRY_HTTP_CODES = [500, 502, 503, 504, 522, 524, 408, 429]

# Scrapy 2.19 turns on a code-executing remote-control server by default; crawlforge does not.
REMOTE_CONTROL_ENABLED = False
TELNETCONSOLE_ENABLED = False

# DEBUG would log every exported item; the formatter names items by URL anyway
LOG_LEVEL = "INFO"
LOG_FORMATTER = "crawlforge.logformatter.CrawlforgeLogFormatter"

FEED_EXPORT_ENCODING = "utf-8"
# JSON lines with a big page's item written a field at a time (crawlforge.exporters).
FEED_EXPORTERS = {"jsonlines": "crawlforge.exporters.PiecewiseJsonLinesItemExporter",
                  "jsonl": "crawlforge.exporters.PiecewiseJsonLinesItemExporter"}
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
STATS_CLASS = "crawlforge.statscollectors.StatsCollector"

# Harvesting (README "Harvesting"): one scheduler that is Redis-backed (CRAWLFORGE_REDIS_URL),
# kill-safe on disk (JOBDIR) or Scrapy's own; local feeds are written unbuffered, so the feed of
# a killed crawl holds every item its frontier counts as done.
SCHEDULER = "crawlforge.distributed.local_scheduler.Scheduler"
FEED_STORAGES = {"": "crawlforge.feedstorage.DurableFileFeedStorage",  # a plain or relative path
                 "file": "crawlforge.feedstorage.DurableFileFeedStorage",
                 "s3": "crawlforge.feedstorage.SpooledS3FeedStorage"}  # with JOBDIR: spooled, kill-safe
# A Redis worker with nothing to do closes after this many seconds (0: waits for seeds forever).
MAX_IDLE_TIME_BEFORE_CLOSE = 30
# Incremental recrawls: with HTTPCACHE_ENABLED=True pages are revalidated (ETag, Last-Modified).
HTTPCACHE_POLICY = "scrapy.extensions.httpcache.RFC2616Policy"
# scrapy-deltafetch (DELTAFETCH_ENABLED=True): skip links to pages that gave items before.
DELTAFETCH_ENABLED = False

SPIDER_MIDDLEWARES = {
    "crawlforge.middlewares.resume.ResumeMiddleware": 10,  # sees the final output: request_done
    "crawlforge.spidermiddlewares.deltafetch.DeltaFetch": 100,  # DELTAFETCH_ENABLED only
}

# Vetting every response (crawlforge.middlewares, one module each). process_request runs from
# low to high numbers, process_response and process_exception from high to low: the ledger's
# sees only final failures; charset then verdict run after decompression and before retries.
DOWNLOADER_MIDDLEWARES = {
    "crawlforge.middlewares.ledger.LedgerMiddleware": 10,
    "crawlforge.middlewares.ssrf.SsrfGuardMiddleware": 60,
    # Scrapy's RobotsTxtMiddleware (Protego), fixed for concurrent requests, and Crawl-delay.
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawlforge.middlewares.robotstxt.RobotsTxtMiddleware": 100,
    "crawlforge.middlewares.robotstxt.CrawlDelayMiddleware": 110,
    "crawlforge.distributed.politeness.SharedPolitenessMiddleware": 115,  # CRAWLFORGE_REDIS_URL only
    "crawlforge.middlewares.sizecap.SizeCapMiddleware": 120,
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "crawlforge.middlewares.retry_after.RetryAfterMiddleware": 550,  # + Retry-After, backoff
    "crawlforge.middlewares.render.RenderMiddleware": 565,  # after the verdict: JS shells -> browser
    "crawlforge.middlewares.verdict.VerdictMiddleware": 570,
    "crawlforge.middlewares.charset.CharsetMiddleware": 585,
    "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": None,
    "crawlforge.middlewares.httpcompression.HttpCompressionMiddleware": 590,
    # above redirects and decompression: archives each response as served (CRAWLFORGE_ARCHIVE only)
    "crawlforge.middlewares.archive.ArchiveMiddleware": 950,
}
# Names are resolved by a resolver that refuses private answers (DNS rebinding; SSRF guard).
TWISTED_DNS_RESOLVER = "crawlforge.middlewares.ssrf.GuardedResolver"

# The browser (README "Rendering"): loads scrapy-playwright only when pages can be rendered.
ADDONS = {
    "crawlforge.browser.addon.BrowserAddon": 100,
}
# scrapy-playwright's bounds: one browser context of at most this many pages at once.
PLAYWRIGHT_MAX_CONTEXTS = 1
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT = 4

EXTENSIONS = {
    "crawlforge.extensions.fillrate.FillRate": 400,
    "crawlforge.extensions.ledger.UrlLedger": 500,
    "crawlforge.extensions.health.HealthCheck": 600,  # after the ledger: reads its final counts
    "crawlforge.extensions.progress.Progress": 700,
    "crawlforge.distributed.seeds.RedisSeeds": 800,  # CRAWLFORGE_REDIS_URL only
    "crawlforge.extensions.statsfile.StatsFile": 900,
}

ITEM_PIPELINES = {
    "crawlforge.pipelines.structured.StructuredDataPipeline": 100,
    "crawlforge.pipelines.pdf.PdfPipeline": 150,  # PDF items only
    "crawlforge.pipelines.markdown.MarkdownPipeline": 200,
    "crawlforge.pipelines.frontmatter.FrontmatterPipeline": 300,
    "crawlforge.pipelines.highlights.HighlightsPipeline": 400,  # needs a query
    "crawlforge.pipelines.signature.SignaturePipeline": 450,
    "crawlforge.pipelines.incremental.SkipUnchangedPipeline": 460,  # CRAWLFORGE_SKIP_UNCHANGED only
    "crawlforge.pipelines.llm.LlmPipeline": 500,  # needs a schema and a model server
    "crawlforge.pipelines.validation.ValidationPipeline": 900,
    "crawlforge.pipelines.documents.DocumentsPipeline": 950,
}

# --- crawlforge ---------------------------------------------------------------------------
# Folder or s3:// prefix to also write each document into as a .md file (empty: don't).
CRAWLFORGE_DOCUMENTS_DIR = ""
# Export the raw HTML of each page in the item's `html` field.
CRAWLFORGE_EXPORT_HTML = False
# Frontmatter past this size loses its largest sections (named in a note key).
CRAWLFORGE_FRONTMATTER_MAX_BYTES = 64 * 1024  # 64 KiB
# Put embedded app state (__NEXT_DATA__ and friends) in the frontmatter too, not only the item.
CRAWLFORGE_FRONTMATTER_EMBEDDED_STATE = False
# Keep only the main content (False: convert the whole page).
CRAWLFORGE_MARKDOWN_MAIN_CONTENT = True
# Keep images and links in the markdown.
CRAWLFORGE_MARKDOWN_IMAGES = True
CRAWLFORGE_MARKDOWN_LINKS = True
# Pages larger than this are converted whole, without main-content scoring (never skipped).
CRAWLFORGE_MARKDOWN_MAX_BYTES = DEFAULT_MAX_BYTES  # 5 MiB, the size past which a page is held in pieces
# Query parameters dropped from links and image URLs (a trailing * matches a prefix).
CRAWLFORGE_MARKDOWN_TRACKING_PARAMS = list(TRACKING_PARAMS)  # utm_*, gclid, fbclid, mc_cid, ...
# PDFs: links to them followed (site) and listed (sitemap), read as documents (-a pdf=0: not followed).
CRAWLFORGE_PDF = True
# Pages of one PDF read at most (0: all); the rest is left out, and a warning says so.
CRAWLFORGE_PDF_MAX_PAGES = 200
# Seconds of reading one PDF, checked between pages (0: no limit); the pages read are kept.
CRAWLFORGE_PDF_TIME_LIMIT = 60
# Structured-data extractors ("module:Class"); empty: the built-in set.
CRAWLFORGE_STRUCTURED_EXTRACTORS = []
# Write the final crawl stats to this JSON file (empty: beside a local items feed, out.stats.json).
CRAWLFORGE_STATS_FILE = ""
# URL ledger: each scheduled URL ends as an item or as a record in the errors feed, appended as
# it ends (any Scrapy feed URI; empty: out.errors.jsonl beside out.jsonl, none without a feed).
CRAWLFORGE_LEDGER_ENABLED = True
CRAWLFORGE_ERRORS_FEED = ""
# SSRF guard: hosts that are or resolve to loopback, private, link-local, multicast, reserved or
# cloud-metadata addresses are refused. True turns the guard off; or let some networks through.
CRAWLFORGE_ALLOW_PRIVATE_NETWORKS = False
CRAWLFORGE_ALLOWED_NETWORKS = []  # CIDRs, e.g. ["127.0.0.1/32"] (-s ...=127.0.0.1/32,10.0.0.0/8)
# robots.txt Crawl-delay is each host's least delay, capped at this many seconds.
CRAWLFORGE_CRAWL_DELAY_ENABLED = True
CRAWLFORGE_MAX_CRAWL_DELAY = 30.0
# Re-decode text responses whose charset Scrapy got wrong (detection, WHATWG aliases).
CRAWLFORGE_CHARSET_ENABLED = True
# Block-page verdict: walls are dropped (ledger records with the vendor); 2xx error
# placeholders too; optionally a wall is retried once through the browser first.
CRAWLFORGE_VERDICT_ENABLED = True
CRAWLFORGE_VERDICT_DROP_ERROR_PAGES = True
CRAWLFORGE_BROWSER_RETRY_BLOCKED = False
# Rendering: never, auto (a page is re-requested once through the browser when its plain
# response is an empty JS shell or a challenge page) or always (`-a render=`).
CRAWLFORGE_RENDER = "auto"
# Chromium executable (empty: Debian's /usr/lib/chromium/chromium, /usr/bin/chromium, or PATH).
CRAWLFORGE_CHROMIUM_PATH = ""
# Wait for this CSS selector after load (`-a wait_for=`); empty: wait for network idle.
CRAWLFORGE_RENDER_WAIT_FOR = ""
CRAWLFORGE_RENDER_TIMEOUT = 30.0  # seconds per rendered page (navigation, then the wait)
# Requests a rendered page makes that are aborted: these resource types (add "stylesheet" to
# skip CSS too) and these hosts with their subdomains (ads, trackers).
CRAWLFORGE_BROWSER_BLOCK_RESOURCES = ["image", "media", "font"]
CRAWLFORGE_BROWSER_BLOCK_HOSTS = [
    "doubleclick.net", "googlesyndication.com", "googletagmanager.com", "google-analytics.com",
    "googleadservices.com", "adservice.google.com", "connect.facebook.net", "amazon-adsystem.com",
    "adnxs.com", "criteo.com", "taboola.com", "outbrain.com", "scorecardresearch.com",
    "hotjar.com", "segment.io", "quantserve.com", "moatads.com", "pubmatic.com", "rubiconproject.com",
]
# Restart the browser after this many pages, so leaks cannot grow with the crawl (0: never).
CRAWLFORGE_BROWSER_RESTART_PAGES = 200
# Page limit (requests for pages scheduled, start URLs included; 0: no limit) and link hops from
# a start URL (0: the start URLs only; None: no limit); `-a max_pages=` / `-a max_depth=`.
CRAWLFORGE_MAX_PAGES = 0
CRAWLFORGE_MAX_DEPTH = None
# The `site` spider: follow links (`-a follow=`), only those matching this regex (`-a allow=`),
# read sitemaps never, also or only (`-a sitemap=`); sitemap entries last modified before this
# day are skipped (`-a lastmod_after=`, empty: none).
CRAWLFORGE_FOLLOW = True
CRAWLFORGE_ALLOW = ""
CRAWLFORGE_SITEMAP = "never"
CRAWLFORGE_LASTMOD_AFTER = ""
# The spider arguments of this run (set when the spider is created): recorded in its archive.
CRAWLFORGE_CRAWL_ARGUMENTS = {}
# A least delay between requests to one site, in seconds (a site template sets its own).
CRAWLFORGE_CRAWL_DELAY = 0.0
# Hostile sites: sitemap indexes followed at most this many levels below the first sitemap;
# a robots.txt answering 5xx disallows its whole site (RFC 9309) until it is asked again after
# this many seconds.
CRAWLFORGE_SITEMAP_MAX_DEPTH = 5
CRAWLFORGE_ROBOTS_RETRY_AFTER = 60.0

# Highlights: with a query (here or `-a query=...`), each item gets the units that answer it.
CRAWLFORGE_QUERY = ""
CRAWLFORGE_HIGHLIGHTS_MAX_UNITS = 10
CRAWLFORGE_HIGHLIGHTS_MIN_SCORE = 0.0
# Structure: a previous run's JSONL feed (path, file:// or http(s):// URI) to compare each
# page's structure signature and content hash with (empty: no comparison).
CRAWLFORGE_BASELINE = ""
# A page whose structural similarity to its baseline falls below this counts as changed.
CRAWLFORGE_STRUCTURE_ALERT = 0.8
# LLM extraction, off unless a schema is set ("module:Model", or `-a schema=...`). Nothing is
# sent anywhere unless CRAWLFORGE_LLM_BASE_URL and CRAWLFORGE_LLM_MODEL are set too.
CRAWLFORGE_LLM_SCHEMA = ""
CRAWLFORGE_LLM_BASE_URL = ""  # any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1
CRAWLFORGE_LLM_MODEL = ""
CRAWLFORGE_LLM_API_KEY_ENV = "OPENAI_API_KEY"  # name of the variable holding the key
CRAWLFORGE_LLM_INSTRUCTIONS = ""  # extra instructions added to the prompt
CRAWLFORGE_LLM_JSON_MODE = True  # JSON object mode; "schema": structured output; falls back if refused
CRAWLFORGE_LLM_RETRIES = 1  # calls sending an answer that is not JSON or not valid back with its errors
# The model's context in tokens when its server does not report it (llama.cpp's does): each
# page is fitted to it, less the prompt, the answer and a retry.
CRAWLFORGE_LLM_CONTEXT_TOKENS = 8192
CRAWLFORGE_LLM_TOKEN_BUDGET = 0  # at most this many page tokens a call (0: what the context leaves)
CRAWLFORGE_LLM_MAX_TOKENS = 0  # answer length limit (0: an eighth of the model's context)
CRAWLFORGE_LLM_TIMEOUT = 120  # seconds per call
CRAWLFORGE_LLM_CONCURRENCY = 2  # model calls in flight at once
CRAWLFORGE_LLM_MAX_RETRIES = 2  # retries of a failed call (connection errors, 429, 5xx)
# What the model reads: "document" (frontmatter + markdown, as written to disk), "markdown",
# or "structured" (the frontmatter alone).
CRAWLFORGE_LLM_INPUT = "document"
# Ask only for the schema fields the page's own structured data did not give (llm_provenance).
CRAWLFORGE_LLM_FILL_MISSING = False
CRAWLFORGE_LLM_PAGE_DEADLINE = 300  # seconds per page, all its calls together (0: none)

# Harvesting: Redis URL of a distributed crawl's shared frontier (empty: this process only),
# and its scrapy-redis queue class (PriorityQueue, FifoQueue or LifoQueue).
CRAWLFORGE_REDIS_URL = ""
CRAWLFORGE_REDIS_QUEUE_CLASS = "scrapy_redis.queue.PriorityQueue"
# Redis crawls: a host's delay and CONCURRENT_REQUESTS_PER_DOMAIN hold across all workers; a
# dead worker's lease on a host expires after this many seconds.
CRAWLFORGE_SHARED_POLITENESS = True
# The Redis seen set: "set" (exact, ~90 bytes per URL) or "bloom" (a fixed-size Bloom filter for
# this many URLs, which takes a new URL for a seen one at this rate; bench/bench_frontier.py).
CRAWLFORGE_REDIS_DUPEFILTER = "set"
CRAWLFORGE_BLOOM_CAPACITY = 10_000_000
CRAWLFORGE_BLOOM_ERROR_RATE = 0.001
CRAWLFORGE_POLITENESS_LEASE_SECONDS = 60
# 429/503 are retried after Retry-After (capped), else after this base doubled per attempt.
CRAWLFORGE_RETRY_BACKOFF_BASE = 2.0
CRAWLFORGE_RETRY_AFTER_MAX = 120.0
# Drop pages whose content is unchanged since CRAWLFORGE_BASELINE (`-a since=FEED -a skip_unchanged=1`).
CRAWLFORGE_SKIP_UNCHANGED = False

# Extraction health (README "Crawl health and the report"): field fill rates in the stats
# (fields/<template>/<field>/filled|total), and a check at the end of the crawl whose alarms make
# `scrapy crawl` exit with code 3. Baseline: a file from `scrapy health FEED --save FILE` (empty:
# judge each template's required fields instead).
CRAWLFORGE_FILLRATE_ENABLED = True
CRAWLFORGE_HEALTH_ENABLED = True
CRAWLFORGE_HEALTH_BASELINE = ""
CRAWLFORGE_HEALTH_MARGIN = 0.2  # alarm when a field's fill rate drops by more than this share
CRAWLFORGE_HEALTH_REQUIRED_NULL_SHARE = 0.2  # no baseline: a required field empty in more items
CRAWLFORGE_HEALTH_MAX_BLOCKED_SHARE = 0.5  # of requested URLs answered by a block page
CRAWLFORGE_HEALTH_MAX_ERROR_SHARE = 0.5  # of requested URLs that ended as error records
CRAWLFORGE_HEALTH_MIN_URLS = 20  # shares are judged only for crawls of at least this many URLs
# A progress line (a live bar on a terminal) every this many seconds (0: off).
CRAWLFORGE_PROGRESS_INTERVAL = 30.0

# Archive (README "Archiving a crawl"): every fetched response into WARC files in this folder or
# under this s3:// prefix (`-a archive=`; empty: don't), a new file past the size limit.
# `scrapy reextract FILE...` runs the crawl's page pipeline again from them, offline.
CRAWLFORGE_ARCHIVE = ""
CRAWLFORGE_ARCHIVE_MAX_BYTES = 1024 * 1024 * 1024  # 1 GiB, compressed
CRAWLFORGE_REPLAY = []  # the WARC files a reextract serves responses from (set by the command)

# Serving agents (README "Serving agents"): `scrapy serve` (HTTP JSON API, MCP with --mcp) and
# `scrapy mcp` (stdio). Each request is a one-URL crawl through the pipeline above.
CRAWLFORGE_API_TOKEN = ""  # required as "Authorization: Bearer <token>" when set; needed off loopback
CRAWLFORGE_API_MAX_CONCURRENT = 4  # one-URL crawls at once; later requests wait their turn
CRAWLFORGE_API_DEADLINE = 60.0  # seconds a request may take, waiting for a turn included
CRAWLFORGE_API_MAX_BODY_BYTES = 256 * 1024  # 256 KiB: a request body (a JSON Schema fits)
CRAWLFORGE_API_MAX_CRAWLS = 2  # background crawls (POST /crawl) running at once
CRAWLFORGE_API_MAX_CRAWL_PAGES = 1000  # the most pages one background crawl may fetch
CRAWLFORGE_API_MAP_LIMIT = 5000  # the most URLs POST /map returns
CRAWLFORGE_API_JOBS_DIR = ""  # background crawls' JOBDIR, feed and errors (empty: a temp folder)
CRAWLFORGE_API_PAGE_SIZE = 100  # items a GET /crawl/<id> returns at once
# Run background crawls as jobs of this scrapyd (empty: in the server's process), deployed as this
# project; the scrapyd must see CRAWLFORGE_API_JOBS_DIR (set it to a folder both can reach).
CRAWLFORGE_API_SCRAPYD_URL = ""
CRAWLFORGE_API_SCRAPYD_PROJECT = "crawlforge"
