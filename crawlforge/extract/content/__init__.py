"""Main content: which part of a page a reader came for (maincontent, by steps: prune, pagetype,
score, widen, clean), what around it is chrome (chrome, hidden, threads), and the helpers that
turn it into text: cards, lines, URLs, the product header."""
