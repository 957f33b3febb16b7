"""Query units: the sentences, table rows and code blocks of a page's markdown that
answer a question, quoted verbatim with offsets (docs/templates.md §5.7).

Every unit keeps ``markdown[offset:offset + length] == text`` (Python str indexes):
trimming moves offsets, nothing rewrites text. Ranking is BM25 written out here
because two rules do not fit a BM25 library: a unit inherits its heading's terms at
half weight, and those heading terms never count toward document frequency.
"""

from __future__ import annotations

import math
import re

import regex

from crawlforge.extract.state.jsutil import JS_WHITESPACE, WS

_FENCE = re.compile(r"^(`{3,}|~{3,})")
_FENCE_CLOSER = re.compile(r"^(?:`+|~+)$")
_HEADING = re.compile(rf"^#{{1,6}}(?:{WS}+(.*?))?{WS}*#*{WS}*$", re.S)
_TABLE_DELIMITER = re.compile(rf"^\|?(?:{WS}|[:|-])*-(?:{WS}|[:|-])*\|?$")
_NO_UNIT_LINE = re.compile(
    rf"^(?:(?:-{WS}*){{3,}}|(?:\*{WS}*){{3,}}|(?:_{WS}*){{3,}})$"  # horizontal rule
    r"|^<!--.*-->$"  # whole-line HTML comment
    r"|^!\[[^\]]*\]\([^)]*\)$",  # image-only line
    re.S,
)
_BLOCKQUOTE_MARKER = re.compile(rf">{WS}?")
_LIST_MARKER = re.compile(rf"(?:[-*+]|[0-9]{{1,9}}[.)]){WS}+")

_CJK_TERMINATORS = "。．！？；।॥"
_ASCII_TERMINATORS = ".!?"
_CLOSERS = "\"')\\]”’»*_"
_FALSE_STOPS = frozenset(
    "mr mrs ms dr prof sr jr st ave blvd vs etc inc ltd corp dept univ assn approx appt"
    " apt est min max govt lib misc natl intl jan feb mar apr jun jul aug sep oct nov dec"
    " mon tue wed thu fri sat sun fig eq ref vol no pp ed rev e i".split()
)
_MIN_UNIT_CHARS = 2


def segment_units(markdown: str) -> list[dict]:
    """Cut markdown into units (``sentence``, ``table_row``, ``code_block``).

    Headings are not units; each unit carries the text of the heading above it.
    """
    if not isinstance(markdown, str) or not markdown:
        return []
    return _Segmenter(markdown).run()


class _Segmenter:
    """One walk over the lines; holds the open paragraph, fence and heading."""

    def __init__(self, markdown: str):
        self.md = markdown
        self.units: list[dict] = []
        self.heading: str | None = None
        self.para: list[int] | None = None  # [start, end) of the open paragraph
        self.fence: tuple[str, int] | None = None  # (opening run, content start)

    def run(self) -> list[dict]:
        md, start = self.md, 0
        while start <= len(md):
            end = md.find("\n", start)
            end = len(md) if end == -1 else end
            self.line(start, end)
            start = end + 1
        if self.fence:
            self.push("code_block", self.fence[1], len(md))
        self.flush()
        return self.units

    def line(self, line_start: int, line_end: int) -> None:
        s, e = _trim(self.md, line_start, line_end)
        line = self.md[s:e]
        if self.fence:
            marker, content_start = self.fence
            if line[:1] == marker[0] and len(line) >= len(marker) and _FENCE_CLOSER.match(line):
                self.push("code_block", content_start, max(content_start, line_start))
                self.fence = None
        elif not line:
            self.flush()
        elif match := _FENCE.match(line):
            self.flush()
            self.fence = (match.group(1), min(line_end + 1, len(self.md)))
        elif match := _HEADING.match(line):
            self.flush()
            self.heading = (match.group(1) or "").strip(JS_WHITESPACE) or None
        elif line[0] == "|":
            self.flush()
            if not _TABLE_DELIMITER.match(line):
                self.push("table_row", s, e)
        elif _NO_UNIT_LINE.match(line):
            self.flush()
        else:
            self.prose(s, e)

    def prose(self, s: int, e: int) -> None:
        """Skip quote and list markers; a marker starts a new paragraph."""
        start, marked = s, False
        while match := _BLOCKQUOTE_MARKER.match(self.md, start, e):
            start, marked = match.end(), True
        if match := _LIST_MARKER.match(self.md, start, e):
            start, marked = match.end(), True
        if marked:
            self.flush()
        if self.para is None:
            self.para = [start, e]
        self.para[1] = e

    def flush(self) -> None:
        if self.para is not None:
            for start, end in _sentences(self.md, *self.para):
                self.push("sentence", start, end)
        self.para = None

    def push(self, kind: str, start: int, end: int) -> None:
        start, end = _trim(self.md, start, end)
        text = self.md[start:end]
        if sum(1 for ch in text if ch not in JS_WHITESPACE) < _MIN_UNIT_CHARS:
            return
        self.units.append(
            {"text": text, "kind": kind, "offset": start, "length": end - start, "heading": self.heading}
        )


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Move ``[start, end)`` inward past whitespace at both ends."""
    while start < end and text[start] in JS_WHITESPACE:
        start += 1
    while end > start and text[end - 1] in JS_WHITESPACE:
        end -= 1
    return start, end


def _sentences(md: str, start: int, end: int):
    """Yield sentence ranges of the paragraph ``md[start:end]``.

    CJK/Devanagari terminators split with no whitespace after them; an ASCII run
    splits only before whitespace and, for ``.``, not after a false stop.
    """
    sentence_start = i = start
    while i < end:
        ch = md[i]
        if ch in _CJK_TERMINATORS:
            yield sentence_start, i + 1
            sentence_start = i = i + 1
            continue
        if ch not in _ASCII_TERMINATORS:
            i += 1
            continue
        j = i
        while j < end and md[j] in _ASCII_TERMINATORS:
            j += 1
        while j < end and md[j] in _CLOSERS:
            j += 1
        glued = j < end and md[j] not in JS_WHITESPACE
        if not glued and not (ch == "." and _is_false_stop(md, sentence_start, i)):
            yield sentence_start, j
            sentence_start = j
        i = j
    if sentence_start < end:
        yield sentence_start, end


_WORD_DOT_WORD = re.compile(r"\w\.\w", re.ASCII)
_DIGIT_DOT_DIGIT = re.compile(r"[0-9]\.[0-9]")
_NON_AZ = re.compile(r"[^a-z]")


def _is_false_stop(md: str, sentence_start: int, dot: int) -> bool:
    """Whether the word before ``dot`` is an abbreviation, dotted word, decimal or initial."""
    word_start = dot
    while word_start > sentence_start and md[word_start - 1] not in JS_WHITESPACE:
        word_start -= 1
    word = md[word_start:dot]
    if not word:
        return False
    return bool(
        _NON_AZ.sub("", word.lower()) in _FALSE_STOPS
        or _WORD_DOT_WORD.search(word)
        or _DIGIT_DOT_DIGIT.search(word)
        or re.fullmatch("[A-Z]", word)
    )


# A CJK run (Han, Hiragana, Katakana, Hangul letters/digits by script extensions, so
# ー and 々 stay in) becomes bigrams; other letters, digits and marks form words
# (marks keep Devanagari words whole).
_CJK = r"[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]"
_TOKEN = regex.compile(rf"(?:(?={_CJK})[\p{{L}}\p{{N}}])+|(?:(?!{_CJK})[\p{{L}}\p{{N}}\p{{M}}])+")
_CJK_START = regex.compile(_CJK)
_SUFFIXES = ("ing", "ed", "es", "s")

_K1, _B = 1.2, 0.75
_PHRASE_BOOST = 1.5
_HEADING_WEIGHT = 0.5  # a heading term counts half toward a unit's tf
_MIN_DOC_LENGTH = 4  # a two-word button gains no length advantage


def _tokenize(text: str) -> list[str]:
    """Lower-cased tokens: CJK runs as character bigrams, other words lightly stemmed."""
    tokens: list[str] = []
    for run in _TOKEN.findall(text.lower()):
        if _CJK_START.match(run):
            tokens.extend([run] if len(run) == 1 else [run[k : k + 2] for k in range(len(run) - 1)])
        else:
            tokens.append(_stem(run))
    return tokens


def _stem(word: str) -> str:
    """``pricing``/``prices``/``priced``/``price`` → ``pric``; short words untouched."""
    if len(word) <= 4:
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def rank_units(units, query: str, max_units=10, **options) -> list[dict]:
    """The units that answer ``query``, best first, each a new dict with ``score``.

    BM25 over the units as the corpus, ×1.5 when a unit contains the whole query.
    Option ``min_score`` (default 0) keeps only scores above it; ``max_units`` is
    clamped to at least 1 and falls back to 10 when not a finite number.
    """
    floor = options.pop("min_score", 0)
    if options:
        raise TypeError(f"unknown rank_units options: {', '.join(sorted(options))}")
    if not isinstance(units, list) or not units or not isinstance(query, str):
        return []
    phrase = query.strip(JS_WHITESPACE).lower()
    terms = list(dict.fromkeys(_tokenize(phrase)))
    if not terms:
        return []
    limit = max(1, math.floor(max_units)) if _is_finite(max_units) else 10
    floor = floor if _is_finite(floor) else 0
    docs = [_unit_doc(unit) for unit in units]
    avgdl = sum(length for _counts, _own, length in docs) / len(docs) or 1
    idf = {term: _idf(term, docs) for term in terms}
    ranked = []
    for unit, (counts, _own, length) in zip(units, docs):
        score = sum(_bm25(counts[t], idf[t], length / avgdl) for t in terms if counts.get(t))
        if score == 0:  # dropped even under a negative min_score
            continue
        if phrase in str(unit.get("text") or "").lower():
            score *= _PHRASE_BOOST
        score = math.floor(score * 1000 + 0.5) / 1000  # JS Math.round: halves go up
        if score > floor:
            ranked.append({**unit, "score": score})
    ranked.sort(key=lambda unit: (-unit["score"], unit["offset"]))
    return ranked[:limit]


def _bm25(tf: float, idf: float, relative_length: float) -> float:
    return idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * relative_length))


def _unit_doc(unit: dict) -> tuple[dict, set, float]:
    """Term counts (own tokens, plus heading tokens at half weight), own set, length."""
    tokens = _tokenize(str(unit.get("text") or ""))
    counts: dict[str, float] = {}
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    own = set(counts)
    length = float(len(tokens))
    for token in dict.fromkeys(_tokenize(str(unit.get("heading") or ""))):
        if token not in own:
            counts[token] = _HEADING_WEIGHT
            length += _HEADING_WEIGHT
    return counts, own, max(length, _MIN_DOC_LENGTH)


def _idf(term: str, docs: list) -> float:
    df = sum(1 for _counts, own, _length in docs if term in own)
    return math.log(1 + (len(docs) - df + 0.5) / (df + 0.5))


def _is_finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
