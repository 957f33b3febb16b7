"""Pure code behind crawl health and the crawl report: fill rates, health alarms, progress lines
and the HTML report, computed from plain dicts (items, error records, stats). No Scrapy here."""
