"""``extract()``: page text in, data that fits the user's pydantic schema out. The page is fitted
to the model's context first; an answer that is not JSON or does not validate is sent back with
its errors; what validates is kept even when the rest does not."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import openai
from pydantic import BaseModel

from crawlforge import settings as defaults
from crawlforge.llm.budget import PageInput, estimate_tokens, fit_page, schema_query
from crawlforge.llm.chunks import merge_values, unique
from crawlforge.llm.client import Client
from crawlforge.llm.prompt import build_messages, correction_messages
from crawlforge.llm.repair import parse_json_output
from crawlforge.llm.validate import Validation, list_fields, validate_output

# the answer's share of a context when the client sets no max_tokens
ANSWER_SHARE = 8
MIN_ANSWER_TOKENS = 256
# a retry also carries the previous answer and the list of its errors (at most 800
# characters, prompt.MAX_LISTED_CHARS) and the request to fix them
ERRORS_NOTE_TOKENS = 500
# chat-template tokens a message costs when the server cannot lay the prompt out for us
MESSAGE_TOKENS = 8
# rounding between counting the parts and the server counting the whole prompt
MARGIN_TOKENS = 16
# below this the page would not say enough to answer from
MIN_PAGE_TOKENS = 64


@dataclass
class ExtractionResult:
    """``data`` fits the schema (invalid list items dropped) or is None; ``partial_items``
    are the valid items when some were invalid; ``partial`` the fields of a single-object
    answer that validated when others did not; ``errors`` carry ``path``, ``message`` and
    ``type`` (plus ``piece`` on a split page); ``raw`` is the model's text; ``usage`` counts
    ``calls``, tokens, ``repairs`` and ``corrections``; ``input`` says what was sent of the
    page (``tokens_sent``, ``tokens_dropped``, ``pieces``)."""

    data: object = None
    partial_items: list = field(default_factory=list)
    partial: dict = field(default_factory=dict)
    errors: list[dict] = field(default_factory=list)
    raw: str = ""
    usage: dict = field(default_factory=lambda: dict.fromkeys(
        ("calls", "prompt_tokens", "completion_tokens", "total_tokens", "repairs", "corrections"), 0))
    input: dict = field(default_factory=lambda: PageInput().summary())


@dataclass
class _Answer:
    validation: Validation
    raw: str


def extract(markdown: str, schema: type[BaseModel], *, client: Client, instructions: str | None = None,
            retries: int = defaults.CRAWLFORGE_LLM_RETRIES, token_budget: int | None = None,
            context_tokens: int | None = None, deadline: float | None = None) -> ExtractionResult:
    """Ask ``client``'s model to fill ``schema`` from ``markdown`` (the page's text: its
    markdown, or the whole document with its frontmatter).

    The page is fitted to the model's context: the size the server reports, else
    ``context_tokens`` (default ``CRAWLFORGE_LLM_CONTEXT_TOKENS``), less the prompt, the answer
    and a retry; ``token_budget`` caps the page's tokens further. A single-object schema gets
    the page's most relevant units; a list schema's page is split into pieces whose answers
    are merged. An answer that is not JSON or fails validation is sent back with its errors up
    to ``retries`` times. ``deadline`` (seconds) bounds the whole page: each call gets what is
    left of it, and pieces not started in time become errors of type ``deadline``. Request
    failures become errors of type ``request``; nothing is raised.
    """
    ends = None if not deadline else time.monotonic() + deadline
    context = client.context_tokens() or context_tokens or defaults.CRAWLFORGE_LLM_CONTEXT_TOKENS
    answer_tokens = client.max_tokens or max(MIN_ANSWER_TOKENS, context // ANSWER_SHARE)
    frame = build_messages("", schema, instructions)
    prompt = client.count_prompt(frame) or sum(estimate_tokens(m["content"]) + MESSAGE_TOKENS for m in frame)
    budget = context - prompt - answer_tokens - MARGIN_TOKENS
    if retries:
        budget -= answer_tokens + ERRORS_NOTE_TOKENS
    if token_budget:
        budget = min(budget, token_budget)
    if budget < MIN_PAGE_TOKENS:
        return ExtractionResult(errors=[{
            "path": "", "type": "context",
            "message": f"a context of {context} tokens leaves no room for the page: the prompt takes {prompt}, "
                       f"the answer {answer_tokens}{' twice (a retry)' if retries else ''}"}])
    page = fit_page(markdown, schema_query(schema), budget, lambda text: _count(client, text),
                    split=bool(list_fields(schema)))
    results = []
    for piece in page.pieces:
        left = None if ends is None else ends - time.monotonic()
        if left is not None and left <= 0:
            results.append(ExtractionResult(errors=[{
                "path": "", "message": f"page deadline of {deadline:g} s passed before this piece", "type": "deadline"}]))
            continue
        results.append(_extract_piece(piece, schema, client, instructions, retries, ends, answer_tokens))
        if any(error["type"] == "request" for error in results[-1].errors):
            break  # the server did not answer (after the SDK's own retries): the next piece would fare no better
    result = results[0] if len(results) == 1 else _merge(results, schema)
    result.input = page.summary()
    return result


def _count(client: Client, text: str) -> int:
    exact = client.count_tokens(text) if text else 0
    return estimate_tokens(text) if exact is None else exact


def _extract_piece(text, schema, client, instructions, retries, ends, answer_tokens) -> ExtractionResult:
    result = ExtractionResult()
    messages = build_messages(text, schema, instructions)
    answer = last = _ask(messages, schema, client, result, ends, answer_tokens)
    for _ in range(retries):
        if last is None or not last.validation.errors or (ends is not None and ends <= time.monotonic()):
            break
        result.usage["corrections"] += 1
        last = _ask(correction_messages(messages, last.raw, last.validation.errors), schema, client, result,
                    ends, answer_tokens)
        if last is not None:
            answer = _better(answer, last, schema)
    if answer is not None:
        validation, result.raw = answer.validation, answer.raw
        result.data, result.partial_items, result.errors = validation.data, validation.partial_items, validation.errors
        result.partial = validation.fields
    return result


def _ask(messages, schema, client, result: ExtractionResult, ends: float | None, answer_tokens: int) -> _Answer | None:
    """One call, parsed and validated, with the answer's text; usage lands on ``result``."""
    timeout = None if ends is None else max(0.1, ends - time.monotonic())
    try:
        completion = client.complete(messages, json_schema=schema.model_json_schema(), timeout=timeout,
                                     max_tokens=answer_tokens)
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
        return _Answer(Validation(errors=[failure]), completion.text)
    validation = validate_output(parsed.value, schema)
    usage["repairs"] += int(parsed.repaired or validation.reshaped)
    return _Answer(validation, completion.text)


def _better(first: _Answer | None, second: _Answer, schema) -> _Answer:
    """The answer to keep after a retry. Data that fits wins; a list schema keeps the answer
    with fewer errors; a single object keeps every field either answer got right (the first
    answer's where both did, as the retry was asked to fix the others) and becomes data when
    they make a whole."""
    if first is None:
        return second
    for answer in (second, first):
        if answer.validation.data is not None:
            return answer
    if list_fields(schema):
        return max((first, second), key=lambda a: (a.validation.data is not None, -len(a.validation.errors)))
    fields = {**second.validation.fields, **first.validation.fields}
    if fields:
        joined = validate_output(fields, schema)
        if joined.data is not None:
            return _Answer(joined, second.raw)
    rest = {}
    for error in second.validation.errors + first.validation.errors:
        if error["path"].split(".")[0] not in fields:
            rest.setdefault(error["path"], error)
    return _Answer(Validation(errors=list(rest.values()), fields=fields), second.raw)


def _merge(results: list[ExtractionResult], schema) -> ExtractionResult:
    merged = ExtractionResult(raw="\n\n".join(r.raw for r in results))
    data = None
    for index, result in enumerate(results):
        merged.errors += [{**error, "piece": index} for error in result.errors]
        merged.partial_items = unique([*merged.partial_items, *result.partial_items])
        merged.partial = merge_values(merged.partial, result.partial)
        for key, value in result.usage.items():
            merged.usage[key] += value
        if result.data is not None:
            data = result.data if data is None else merge_values(data, result.data)
    merged.data = None if data is None else validate_output(data, schema).data
    return merged
