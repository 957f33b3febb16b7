"""The messages sent to the model: the schema (with its field descriptions) and the page's
text (its document: frontmatter and markdown), plus rules that make a missing value null instead of an invented one."""

from __future__ import annotations

import json

from pydantic import BaseModel

SYSTEM = """You extract data from web pages into JSON.
Rules:
- Answer with one JSON value that matches the JSON Schema given, and nothing else: no prose, no code fences.
- Use only facts stated in the page. Never invent, guess or compute a value.
- When the page does not state a value, use null for it (or omit it when it is optional).
- For a list, include every matching entry on the page once, in page order; an empty list when there is none.
- Copy names and text as written on the page; write numbers as JSON numbers without currency symbols or thousands separators."""


def schema_json(schema: type[BaseModel]) -> str:
    """The model's JSON schema: pydantic carries each ``Field(description=...)`` into it."""
    return json.dumps(schema.model_json_schema(), ensure_ascii=False, indent=1)


def build_messages(markdown: str, schema: type[BaseModel], instructions: str | None = None) -> list[dict]:
    """System rules, then one user message holding the schema, any instructions and the page."""
    parts = [f"JSON Schema of the answer:\n{schema_json(schema)}"]
    if instructions:
        parts.append(f"Instructions:\n{instructions.strip()}")
    parts.append(f"Page (markdown, after the page's own structured data as YAML frontmatter when present):\n"
                 f"<<<PAGE\n{markdown}\nPAGE>>>")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(parts)}]


# the retry's room in the context is reserved before the first call: its error list is bounded
MAX_LISTED_ERRORS = 10
MAX_ERROR_CHARS = 100
MAX_LISTED_CHARS = 800


def correction_messages(messages: list[dict], raw: str, errors: list[dict]) -> list[dict]:
    """The conversation again, with the model's answer and what was wrong with it."""
    lines = [f"- {e['path'] or '(top level)'}: {e['message'][:MAX_ERROR_CHARS]}" for e in errors[:MAX_LISTED_ERRORS]]
    while len(lines) > 1 and sum(len(line) + 1 for line in lines) > MAX_LISTED_CHARS:
        lines.pop()
    listed = "\n".join(lines)
    request = (f"Your answer did not match the schema:\n{listed}\n"
               "Answer again with the whole corrected JSON only. Use null where the page has no value.")
    return [*messages, {"role": "assistant", "content": raw}, {"role": "user", "content": request}]
