"""Stack Overflow questions, read from the Stack Exchange API (question, answers, bodies as text)."""

from __future__ import annotations

import re

from .api import parse_json
from .base import Template, TemplateRejectedError
from .common import (
    epoch_to_iso,
    first_not_none,
    html_to_text,
    is_number,
    js_string,
    js_truthy,
    path_match,
)

API_URL = "https://api.stackexchange.com/2.3/questions/{id}?site=stackoverflow&filter=!20aKG._8Oscv*6djs8Pgm"
MAX_ANSWERS = 5
ANSWER_BODY_CHARS = 500
_QUESTION_PATH = re.compile(r"\/questions\/([0-9]+)")


def _owner(item: dict) -> dict:
    return item.get("owner") if isinstance(item.get("owner"), dict) else {}


def _answer(answer: dict) -> dict:
    body = (html_to_text(answer.get("body")) or "")[:ANSWER_BODY_CHARS]
    return {
        "answer_id": answer.get("answer_id"),
        "votes": answer.get("score"),
        "accepted": js_truthy(answer.get("is_accepted")),
        "author": html_to_text(_owner(answer).get("display_name")),
        "posted": epoch_to_iso(answer.get("creation_date")),
        "body": body or None,
    }


def ranked_answers(answers: list) -> list[dict]:
    """Accepted answer first, then by score, keeping the API's order among equals."""
    answers = [a for a in answers if isinstance(a, dict)]
    return sorted(
        answers,
        key=lambda a: (not js_truthy(a.get("is_accepted")), -(a["score"] if is_number(a.get("score")) else 0)),
    )


def _question(body, url: str) -> tuple[dict, dict]:
    """The API document and its first item, or a rejection naming what came back."""
    doc = parse_json(
        body,
        TemplateRejectedError(
            f"Not a Stack Exchange API document: {url} did not return JSON. This template reads the Stack Exchange API."
        ),
    )
    doc = doc if isinstance(doc, dict) else {}
    if js_truthy(doc.get("error_id")):
        name = doc.get("error_name") or "unknown"
        message = doc.get("error_message") or "no message"
        raise TemplateRejectedError(f"Stack Exchange API error {js_string(doc['error_id'])} ({name}): {message}.")
    items = doc.get("items")
    if not isinstance(items, list) or not items or not isinstance(items[0], dict):
        raise TemplateRejectedError(f"No Stack Overflow question at {url}: the API returned no items.")
    return doc, items[0]


class StackoverflowQuestion(Template):
    id = "stackoverflow-question"
    name = "Stack Overflow Question"
    description = (
        "A Stack Overflow question, read from the Stack Exchange API: title, body as plain text, "
        "votes, views, tags, author, dates, and the top 5 answers (accepted first, then by score)."
    )
    target_pattern = re.compile(r"stackoverflow\.com\/questions\/[0-9]+", re.I)

    def resolve_url(self, url: str) -> str:
        """A question page → its Stack Exchange API record (with answers and bodies)."""
        _, match = path_match(url, _QUESTION_PATH)
        return API_URL.format(id=match.group(1)) if match else url

    def extract_raw(self, body, url: str) -> dict:
        doc, question = _question(body, url)
        answers = question.get("answers") if isinstance(question.get("answers"), list) else []
        owner = _owner(question)
        return {
            "question_id": question.get("question_id"),
            "title": html_to_text(question.get("title")),
            "body": html_to_text(question.get("body")),
            "votes": question.get("score"),
            "views": question.get("view_count"),
            "tags": question.get("tags") or [],
            "author": html_to_text(owner.get("display_name")),
            "author_reputation": owner.get("reputation"),
            "asked": epoch_to_iso(question.get("creation_date")),
            "last_activity": epoch_to_iso(question.get("last_activity_date")),
            "link": question.get("link") or None,
            "answered": js_truthy(question.get("is_answered")),
            "accepted_answer_id": question.get("accepted_answer_id"),
            "answer_count": first_not_none(question.get("answer_count"), len(answers)),
            "answers": [_answer(a) for a in ranked_answers(answers)[:MAX_ANSWERS]],
            "quota_remaining": doc.get("quota_remaining"),
        }
