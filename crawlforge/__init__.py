"""crawlforge: web pages into structured data and clean markdown with YAML frontmatter."""

__version__ = "0.1.0"
