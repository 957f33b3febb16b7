"""Embedded JavaScript state: the data a page's app ships in its scripts (``__NEXT_DATA__``,
Nuxt payloads, React flight rows, assignments to ``window``), read without running any script:
a tolerant JavaScript tokenizer and literal evaluator, JSON path selection and search."""
