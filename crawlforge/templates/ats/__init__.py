"""Job-board connectors: a company's whole board from the ATS platform's own public API.

One module per platform on the shared ``base.JobBoard``; every board lands on the one job
shape of ``jobs.py`` (``crawlforge.items.Job``), so boards from different platforms
concatenate without a mapping step.
"""

from .ashby import AshbyJobs
from .greenhouse import GreenhouseJobs
from .lever import LeverPostings
from .recruitee import RecruiteeOffers
from .teamtailor import TeamtailorJobs
from .workable import WorkableJobs

ATS_TEMPLATES = [
    GreenhouseJobs(), LeverPostings(), AshbyJobs(), WorkableJobs(), RecruiteeOffers(), TeamtailorJobs(),
]

__all__ = [
    "ATS_TEMPLATES", "AshbyJobs", "GreenhouseJobs", "LeverPostings", "RecruiteeOffers", "TeamtailorJobs",
    "WorkableJobs",
]
