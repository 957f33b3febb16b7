"""``extract()``: page markdown in, data that fits the user's pydantic schema out, keeping
every valid item when the model's answer is partly broken."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import openai
from pydantic import BaseModel

from crawlforge.llm.chunks import merge_values, split_markdown, unique
from crawlforge.llm.client import Client
from crawlforge.llm.prompt import build_messages, correction_messages
from crawlforge.llm.repair import parse_json_output
from crawlforge.llm.validate import Validation, validate_output


@dataclass
class ExtractionResult:
    """``data`` fits the schema (invalid list items dropped) or is None; ``partial_items``
    are the valid items when some were invalid; ``errors`` carry ``path``, ``message`` and
    ``type`` (plus ``piece`` on a split page); ``raw`` is the model's text; ``usage`` counts
    ``calls``, tokens, ``repairs`` and ``corrections``."""

    data: object = None
    partial_items: list = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    raw: str = ""
    usage: dict = field(default_factory=lambda: dict.fromkeys(
        ("calls", "prompt_tokens", "completion_tokens", "total_tokens", "repairs", "corrections"), 0))


def extract(markdown: str, schema: type[BaseModel], *, client: Client, instructions: str | None = None,
            self_correct: bool = False, token_budget: int | None = None,
            deadline: float | None = None) -> ExtractionResult:
    """Ask ``client``'s model to fill ``schema`` from ``markdown`` (the page's text: its
    markdown, or the whole document with its frontmatter).

    ``self_correct`` sends the validation errors back once and keeps the better answer.
    Over ``token_budget`` (estimated tokens), the page is split on headings, each piece is
    asked separately, and the answers are merged: never truncated. ``deadline`` (seconds)
    bounds the whole page: each call gets what is left of it, and pieces not started in
    time become errors of type ``deadline``. Request failures become errors of type
    ``request``; nothing is raised.
    """
    pieces = split_markdown(markdown, token_budget or 0)
    ends = None if not deadline else time.monotonic() + deadline
    results = []
    for piece in pieces:
        left = None if ends is None else ends - time.monotonic()
        if left is not None and left <= 0:
            results.append(ExtractionResult(errors=[{
                "path": "", "message": f"page deadline of {deadline:g} s passed before this piece", "type": "deadline"}]))
            continue
        results.append(_extract_piece(piece, schema, client, instructions, self_correct, ends))
    if len(results) == 1:
        return results[0]
    return _merge(results, schema)


def _extract_piece(markdown, schema, client, instructions, self_correct, ends) -> ExtractionResult:
    result = ExtractionResult()
    messages = build_messages(markdown, schema, instructions)
    answer = _ask(messages, schema, client, result, ends)
    if self_correct and answer is not None and answer[0].errors and (ends is None or ends > time.monotonic()):
        retry = _ask(correction_messages(messages, answer[1], answer[0].errors), schema, client, result, ends)
        result.usage["corrections"] += 1
        if retry is not None and _rank(retry[0]) > _rank(answer[0]):
            answer = retry
    if answer is not None:
        validation, result.raw = answer
        result.data, result.partial_items, result.errors = validation.data, validation.partial_items, validation.errors
    return result


def _ask(messages, schema, client, result: ExtractionResult, ends: float | None) -> tuple[Validation, str] | None:
    """One call, parsed and validated, with the answer's text; usage lands on ``result``."""
    timeout = None if ends is None else max(0.1, ends - time.monotonic())
    try:
        completion = client.complete(messages, json_schema=schema.model_json_schema(), timeout=timeout)
    except openai.OpenAIError as error:
        result.errors = [{"path": "", "message": f"{type(error).__name__}: {error}", "type": "request"}]
        return None
    usage = result.usage
    usage["calls"] += 1
    usage["prompt_tokens"] += completion.usage.get("prompt_tokens", 0)
    usage["completion_tokens"] += completion.usage.get("completion_tokens", 0)
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    parsed = parse_json_output(completion.text)
    if parsed.value is None:
        failure = {"path": "", "message": "no JSON object or array in the answer", "type": "parse"}
        return Validation(errors=[failure]), completion.text
    validation = validate_output(parsed.value, schema)
    usage["repairs"] += int(parsed.repaired or validation.reshaped)
    return validation, completion.text


def _rank(validation: Validation) -> tuple:
    """Data that fits the schema first, then fewer errors."""
    return (validation.data is not None, -len(validation.errors))


def _merge(results: list[ExtractionResult], schema) -> ExtractionResult:
    merged = ExtractionResult(raw="\n\n".join(r.raw for r in results))
    data = None
    for index, result in enumerate(results):
        merged.errors += [{**error, "piece": index} for error in result.errors]
        merged.partial_items = unique([*merged.partial_items, *result.partial_items])
        for key, value in result.usage.items():
            merged.usage[key] += value
        if result.data is not None:
            data = result.data if data is None else merge_values(data, result.data)
    merged.data = None if data is None else validate_output(data, schema).data
    return merged
