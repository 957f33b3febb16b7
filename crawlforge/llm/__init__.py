"""Schema-guided extraction with any OpenAI-compatible model, robust to broken answers."""

from crawlforge.llm.client import Client
from crawlforge.llm.extract import ExtractionResult, extract

__all__ = ["Client", "ExtractionResult", "extract"]
