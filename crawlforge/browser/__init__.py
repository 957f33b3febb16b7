"""Rendering pages in Debian's Chromium through scrapy-playwright, only when a page needs it.

``addon`` turns the browser on for a crawl (``CRAWLFORGE_RENDER``, ``-a render=``) and finds the
executable; ``handler`` is the bounded, guarded download handler; ``policy`` decides, without
I/O, which requests are rendered and which requests a page makes are aborted; ``guard``
applies it in the browser and ``proxy`` is the browser's only way out, vetting every request
and redirect hop before it leaves.
``crawlforge.middlewares.render`` sends the pages that need it to the browser.
"""
