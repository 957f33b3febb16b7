"""Main content: which part of a page a reader came for (maincontent), what around it is chrome
(chrome), and the helpers that turn it into text: tables, links, URLs, page text, PII redaction."""
