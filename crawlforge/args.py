"""Spider arguments and settings arrive as strings: one table of the arguments every crawlforge
spider takes for a setting, one reading of each kind of value, and one error for a bad one.

``-a NAME=VALUE`` of the table sets its setting at ``cmdline`` priority when the spider is
created, after ``-s``, so ``-a`` beats ``-s`` (as users expect) and components read settings
only. A value that does not parse stops the crawl before any request, with an ``ArgumentError``
naming the argument (or setting) and the values it accepts.

``ArgumentError`` is the one exception that means "the user gave a bad value": the commands
print it as one line and exit 2. Any other exception at start-up is a bug and keeps its
traceback.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from scrapy.exceptions import UsageError

YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")
PRIORITY = "cmdline"  # the same as -s, applied after it


class ArgumentError(UsageError, ValueError):
    """A spider argument, setting or command input crawlforge cannot use. A ``UsageError`` so that
    one escaping a command still exits 2 without a traceback; a ``ValueError`` because it is one."""

    def __init__(self, message: str):
        super().__init__(message, print_help=False)


def as_flag(value, name: str = "value") -> bool:
    """``1/true/yes/on`` and ``0/false/no/off`` (any case), or a bool; anything else is a
    mistake worth stopping for, named in the error."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in YES:
        return True
    if text in NO:
        return False
    raise ArgumentError(f"{name} must be one of {'/'.join(YES)} or {'/'.join(NO)}, not {value!r}")


def as_count(value, name: str = "value") -> int:
    """A whole number, 0 or more."""
    try:
        number = int(str(value).strip())
    except ValueError:
        number = -1
    if number < 0:
        raise ArgumentError(f"{name} must be a whole number, 0 or more, not {value!r}")
    return number


def as_choice(value, name: str, choices: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    if text not in choices:
        raise ArgumentError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return text


def as_text(value, name: str = "value") -> str:
    return str(value).strip()


def as_regex(value, name: str = "value") -> str:
    """A regular expression, checked here so that a typo stops the crawl, not its first link."""
    text = str(value)
    try:
        re.compile(text)
    except re.error as error:
        raise ArgumentError(f"{name} must be a regular expression, not {value!r} ({error})") from None
    return text


RELATIVE_DAYS = re.compile(r"(\d+)\s*(?:d|days?)(?:\s+ago)?")


def as_date(value, name: str = "value", today: date | None = None) -> str:
    """An ISO day (``2026-01-31``, a longer ISO timestamp is cut to its day), ``today``,
    ``yesterday`` or ``N days`` / ``Nd`` ago (UTC), as ``YYYY-MM-DD``: the form sitemap
    ``lastmod`` values are compared in."""
    text = str(value).strip().lower()
    today = today or datetime.now(timezone.utc).date()
    if text in ("today", "yesterday"):
        return (today - timedelta(days=text == "yesterday")).isoformat()
    if match := RELATIVE_DAYS.fullmatch(text):
        return (today - timedelta(days=int(match[1]))).isoformat()
    try:
        return date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        raise ArgumentError(f"{name} must be a date such as 2026-01-31, today, yesterday or 7d (days ago), "
                            f"not {value!r}") from None


def as_folder(value, name: str = "value") -> str:
    """A local folder crawlforge can write into (made now, so that a typo stops the crawl before
    any request), or a remote prefix such as ``s3://bucket/docs`` left to its storage."""
    text = str(value).strip()
    if not text or ("://" in text and not text.startswith("file://")):
        return text
    folder = Path(text.removeprefix("file://"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ArgumentError(f"{name}: cannot write into {str(folder)!r} ({error.strerror or error})") from None
    return text


def writable_file(path: str | Path, what: str) -> None:
    """Stop now when a file the crawl will write cannot be: its folder cannot be made or written."""
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ArgumentError(f"cannot write {what} {str(path)!r} ({error.strerror or error})") from None
    if not os.access(folder, os.W_OK):
        raise ArgumentError(f"cannot write {what} {str(path)!r} (its folder is not writable)")


@dataclass(frozen=True)
class Argument:
    setting: str
    parse: Callable[[Any, str], Any]


def choice(*choices: str) -> Callable[[Any, str], str]:
    return lambda value, name: as_choice(value, name, choices)


RENDER_MODES = ("never", "auto", "always")
SITEMAP_MODES = ("never", "also", "only")

# argument -> the setting it sets, and how its value is read (which says what it accepts)
SPIDER_ARGUMENTS = {
    "render": Argument("CRAWLFORGE_RENDER", choice(*RENDER_MODES)),
    "wait_for": Argument("CRAWLFORGE_RENDER_WAIT_FOR", as_text),
    "query": Argument("CRAWLFORGE_QUERY", as_text),
    "schema": Argument("CRAWLFORGE_LLM_SCHEMA", as_text),
    "since": Argument("CRAWLFORGE_BASELINE", as_text),
    "skip_unchanged": Argument("CRAWLFORGE_SKIP_UNCHANGED", as_flag),
    "main_content": Argument("CRAWLFORGE_MARKDOWN_MAIN_CONTENT", as_flag),
    "images": Argument("CRAWLFORGE_MARKDOWN_IMAGES", as_flag),
    "links": Argument("CRAWLFORGE_MARKDOWN_LINKS", as_flag),
    "documents_dir": Argument("CRAWLFORGE_DOCUMENTS_DIR", as_folder),
    "archive": Argument("CRAWLFORGE_ARCHIVE", as_text),
    "pdf": Argument("CRAWLFORGE_PDF", as_flag),
    "max_pages": Argument("CRAWLFORGE_MAX_PAGES", as_count),
    "max_depth": Argument("CRAWLFORGE_MAX_DEPTH", as_count),
    "follow": Argument("CRAWLFORGE_FOLLOW", as_flag),
    "allow": Argument("CRAWLFORGE_ALLOW", as_regex),
    "sitemap": Argument("CRAWLFORGE_SITEMAP", choice(*SITEMAP_MODES)),
    "lastmod_after": Argument("CRAWLFORGE_LASTMOD_AFTER", as_date),
}


def as_number(value, name: str = "value") -> str:
    """A number, left as given: a default of 0 does not say whether 0.5 is welcome
    (``DOWNLOAD_DELAY``), so the component's own getint/getfloat reads it."""
    try:
        float(str(value).strip())
    except ValueError:
        raise ArgumentError(f"{name} must be a number, not {value!r}") from None
    return value


# settings whose default is a flag that also take a word: their component reads them
WORDS_TOO = frozenset({"CRAWLFORGE_LLM_JSON_MODE"})  # "schema"


def default_kinds() -> dict[str, Callable[[Any, str], Any]]:
    """How each setting with a yes/no or number default is read: a ``-s`` value of another kind
    is a mistake to stop for before the component that reads it raises deep in the crawl."""
    from scrapy.settings import default_settings

    from crawlforge import settings as project

    kinds = {}
    for module in (default_settings, project):
        for name, value in vars(module).items():
            if not name.isupper() or name in WORDS_TOO:
                continue
            if isinstance(value, bool):
                kinds[name] = as_flag
            elif isinstance(value, (int, float)):
                kinds[name] = as_number
            else:
                kinds.pop(name, None)
    return kinds


def apply_arguments(kwargs: dict, settings) -> None:
    """The table's arguments among a spider's ``kwargs`` into ``settings`` (not frozen yet),
    checking the table's settings given with ``-s`` too, and every ``-s`` value of a setting
    whose default is yes/no or a number."""
    for arg, spec in SPIDER_ARGUMENTS.items():
        if arg in kwargs:
            settings.set(spec.setting, spec.parse(kwargs[arg], f"-a {arg}"), priority=PRIORITY)
        elif isinstance(value := settings.get(spec.setting), str) and value:
            parsed = spec.parse(value, spec.setting)
            if parsed != value and not settings.frozen:  # "yes" -> True, which getbool reads
                settings.set(spec.setting, parsed, priority=settings.getpriority(spec.setting))
    table = {spec.setting for spec in SPIDER_ARGUMENTS.values()}
    for name, parse in default_kinds().items():
        value = settings.get(name)
        if name in table or not isinstance(value, str) or settings.getpriority(name) != settings_priority(PRIORITY):
            continue
        parsed = parse(value, name)
        if parsed is not value and not settings.frozen:  # "yes" -> True, which getbool reads
            settings.set(name, parsed, priority=PRIORITY)


def settings_priority(name: str) -> int:
    from scrapy.settings import SETTINGS_PRIORITIES

    return SETTINGS_PRIORITIES[name]


def flag_or_text(value):
    """A template parameter: the words true/false are a flag, anything else stays as given
    (``limit=1`` is a number, not a yes)."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return as_flag(value)
    return value
