"""The browser add-on: settings that depend on the render mode and on the machine.

Scrapy runs add-ons after the spider exists and before settings freeze, so ``-a render=`` is
``CRAWLFORGE_RENDER`` by now (``crawlforge.args``). Only when
pages can be rendered (mode ``auto``/``always`` and a Chromium found) does it install the
browser download handler and its launch options; with ``never`` scrapy-playwright is not
loaded. Without Chromium, ``auto`` falls back to plain fetching with a warning and
``always`` stops the crawl.
"""

from __future__ import annotations

import logging

from scrapy.settings import SETTINGS_PRIORITIES

from crawlforge.browser.chromium import ChromiumNotFoundError, find_chromium, launch_options
from crawlforge.browser.policy import render_mode

logger = logging.getLogger(__name__)
HANDLER = "crawlforge.browser.handler.BrowserDownloadHandler"
ADDON_PRIORITY = SETTINGS_PRIORITIES["addon"]


class BrowserAddon:
    """In ``ADDONS``; reads the render mode and the machine, sets the browser settings."""

    def update_settings(self, settings) -> None:
        mode = render_mode(settings.get("CRAWLFORGE_RENDER"))
        chromium = find_chromium(settings.get("CRAWLFORGE_CHROMIUM_PATH") or "") if mode != "never" else None
        if mode == "always" and not chromium:
            raise ChromiumNotFoundError("render=always needs Chromium: apt-get install chromium, "
                                        "or set CRAWLFORGE_CHROMIUM_PATH")
        if not chromium:
            self.plain_only(settings, mode)
            return
        for scheme in ("http", "https"):
            settings["DOWNLOAD_HANDLERS"][scheme] = HANDLER
        options = {**launch_options(chromium), **settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")}
        settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", options,
                     priority=max(settings.getpriority("PLAYWRIGHT_LAUNCH_OPTIONS") or 0, ADDON_PRIORITY))
        settings.set("PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT",
                     settings.getfloat("CRAWLFORGE_RENDER_TIMEOUT") * 1000, priority="addon")
        if mode == "auto":  # a wall may let a real browser through; the project default is off
            settings.set("CRAWLFORGE_BROWSER_RETRY_BLOCKED", True, priority="project")

    def plain_only(self, settings, mode: str) -> None:
        if mode == "auto":
            logger.warning("No Chromium found (apt-get install chromium, or set CRAWLFORGE_CHROMIUM_PATH): "
                           "pages that need JavaScript are kept as fetched")
        settings.set("CRAWLFORGE_RENDER", "never", priority="cmdline")
        settings.set("CRAWLFORGE_BROWSER_RETRY_BLOCKED", False, priority="cmdline")
