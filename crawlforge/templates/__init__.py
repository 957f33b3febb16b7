"""Site templates: exact fields from the data a site ships, found by URL and run on a fetched body.

``TEMPLATES`` is the shipped set in registration order (the order breaks ties in ``detect``):
the ten page templates, then the job-board and government API connectors.
"""

from .amazon import AmazonProduct
from .ats import ATS_TEMPLATES
from .base import MissingApiKeyError, Template, TemplateError, TemplateRejectedError
from .github import GithubRepo
from .gov import GOV_TEMPLATES
from .hackernews import HackerNewsFrontPage
from .npm import NpmPackage
from .producthunt import ProducthuntLaunch
from .reddit import RedditThread
from .registry import TemplateRegistry
from .retired import RETIRED_TEMPLATES, retired_template
from .shopify import ShopifyCollection, ShopifyProduct
from .stackoverflow import StackoverflowQuestion
from .youtube import YoutubeVideo

PAGE_TEMPLATES = [
    ShopifyProduct(),
    ShopifyCollection(),
    AmazonProduct(),
    GithubRepo(),
    YoutubeVideo(),
    RedditThread(),
    HackerNewsFrontPage(),
    ProducthuntLaunch(),
    StackoverflowQuestion(),
    NpmPackage(),
]
TEMPLATES = PAGE_TEMPLATES + list(ATS_TEMPLATES) + list(GOV_TEMPLATES)

__all__ = [
    "MissingApiKeyError",
    "PAGE_TEMPLATES",
    "RETIRED_TEMPLATES",
    "TEMPLATES",
    "Template",
    "TemplateError",
    "TemplateRegistry",
    "TemplateRejectedError",
    "retired_template",
]
