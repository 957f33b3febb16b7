"""Spider arguments and settings arrive as strings: one table of the arguments every crawlforge
spider takes for a setting, one reading of each kind of value, and one error for a bad one.

``-a NAME=VALUE`` of the table sets its setting at ``cmdline`` priority when the spider is
created, after ``-s``, so ``-a`` beats ``-s`` (as users expect) and components read settings
only. A value that does not parse stops the crawl before any request, with an ``ArgumentError``
naming the argument (or setting) and the values it accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off")
PRIORITY = "cmdline"  # the same as -s, applied after it


class ArgumentError(ValueError):
    """A spider argument or setting with a value crawlforge cannot use."""


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


@dataclass(frozen=True)
class Argument:
    setting: str
    parse: Callable[[Any, str], Any]


def choice(*choices: str) -> Callable[[Any, str], str]:
    return lambda value, name: as_choice(value, name, choices)


RENDER_MODES = ("never", "auto", "always")

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
    "documents_dir": Argument("CRAWLFORGE_DOCUMENTS_DIR", as_text),
    "archive": Argument("CRAWLFORGE_ARCHIVE", as_text),
    "pdf": Argument("CRAWLFORGE_PDF", as_flag),
}


def apply_arguments(kwargs: dict, settings) -> None:
    """The table's arguments among a spider's ``kwargs`` into ``settings`` (not frozen yet),
    checking the table's settings given with ``-s`` too."""
    for arg, spec in SPIDER_ARGUMENTS.items():
        if arg in kwargs:
            settings.set(spec.setting, spec.parse(kwargs[arg], f"-a {arg}"), priority=PRIORITY)
        elif isinstance(value := settings.get(spec.setting), str) and value:
            parsed = spec.parse(value, spec.setting)
            if parsed != value and not settings.frozen:  # "yes" -> True, which getbool reads
                settings.set(spec.setting, parsed, priority=settings.getpriority(spec.setting))


def flag_or_text(value):
    """A template parameter: the words true/false are a flag, anything else stays as given
    (``limit=1`` is a number, not a yes)."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return as_flag(value)
    return value
