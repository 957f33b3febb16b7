"""Finding and launching Debian's Chromium (``playwright install`` cannot download browsers here)."""

from __future__ import annotations

import os
import shutil

# /usr/lib/chromium/chromium is the binary Debian's /usr/bin/chromium wrapper execs; launching it
# directly avoids the wrapper's warning.
CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "chromium", "chromium-browser",
              "google-chrome", "google-chrome-stable")

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--disable-extensions", "--mute-audio"]


class ChromiumNotFoundError(FileNotFoundError):
    """No Chromium executable: install Debian's ``chromium`` or set CRAWLFORGE_CHROMIUM_PATH."""


def executable(path: str) -> str | None:
    """``path`` (or the PATH entry of that name) when it is an executable file."""
    found = path if os.sep in path else shutil.which(path)
    return found if found and os.path.isfile(found) and os.access(found, os.X_OK) else None


def find_chromium(configured: str = "") -> str | None:
    """The configured executable (an error when it is missing: a typo must not silently fall
    back to another browser), else the first installed candidate, else None."""
    if configured:
        if found := executable(configured):
            return found
        raise ChromiumNotFoundError(f"CRAWLFORGE_CHROMIUM_PATH={configured!r} is not an executable file")
    return next((found for name in CANDIDATES if (found := executable(name))), None)


def launch_options(path: str) -> dict:
    """PLAYWRIGHT_LAUNCH_OPTIONS for a headless Chromium at ``path``."""
    return {"executable_path": path, "headless": True, "args": list(LAUNCH_ARGS)}
