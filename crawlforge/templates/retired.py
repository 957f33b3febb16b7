"""Templates that were withdrawn, kept so a URL for them gets the reason instead of silence."""

from __future__ import annotations

import re

RETIRED_TEMPLATES: dict[str, dict] = {
    "linkedin-profile": {
        "target_pattern": re.compile(r"linkedin\.com\/in\/", re.I),
        "reason": (
            "Retired: linkedin.com/robots.txt disallows every agent except LinkedIn's own crawler, "
            "and profile pages sit behind an authentication wall for logged-out visitors, so "
            "there is no public page to read."
        ),
    },
    "tweet": {
        "target_pattern": re.compile(r"(?:twitter|x)\.com\/[^/]+\/status\/", re.I),
        "reason": (
            "Retired: x.com/robots.txt disallows crawling posts, the keyless embed endpoints "
            "(cdn.syndication.twimg.com, publish.x.com/oembed) are undocumented and unreliable, "
            "and the supported route is the X API with your own X API credentials."
        ),
    },
}


def retired_template(id_or_url) -> dict | None:
    """``{id, reason}`` for a retired template id, or for a URL one of them used to claim."""
    if not isinstance(id_or_url, str):
        return None
    if id_or_url in RETIRED_TEMPLATES:
        return {"id": id_or_url, "reason": RETIRED_TEMPLATES[id_or_url]["reason"]}
    for template_id, entry in RETIRED_TEMPLATES.items():
        if entry["target_pattern"].search(id_or_url):
            return {"id": template_id, "reason": entry["reason"]}
    return None
