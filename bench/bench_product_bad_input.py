"""CPU time of ``extract_product`` on bad input a shop page can hold (no price, a range, a bare
number, a megabyte of digits, of price tags or of priced buy buttons): each must stay well under a second.

    .venv/bin/python bench/bench_product_bad_input.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawlforge.extract.product import extract_product  # noqa: E402

MEGABYTE = 1024 * 1024


def page(body: str) -> str:
    return f"<html><head><title>Widget</title></head><body><h1>Widget</h1>{body}</body></html>"


CASES = {
    "call for price": page('<span class="price">Call for price</span><button>Add to cart</button>'),
    "range": page('<p class="price">From 9.99 to 19.99</p><button>Add to cart</button>'),
    "bare number": page("<p>1999</p><button>Add to cart</button>"),
    "1 MB of digits": page("<span class='price'>" + "9" * MEGABYTE + "</span>"),
    "1 MB of price tags": page("<span class='price'>$9.99</span> " * (MEGABYTE // 36) + "<button>Add to cart</button>"),
    "1 MB of buttons": page("<button>Add to cart</button>" * (MEGABYTE // 28)),
    "1 MB of priced buttons": page("".join(f"<div><b>${n % 90 + 1}.99</b><button>Add to cart</button></div>"
                                           for n in range(MEGABYTE // 50))),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="passes; the fastest counts")
    args = parser.parse_args()
    extract_product(page("<p>warm up</p>"), "https://shop.example/")  # imports and word lists: once a process
    for name, html in CASES.items():
        best = float("inf")
        for run in range(args.repeat):
            fresh = f"{html}<!-- pass {run} -->"  # a new page each pass: a page's result is remembered
            start = time.process_time()
            record = extract_product(fresh, "https://shop.example/widget")
            best = min(best, time.process_time() - start)
        print(f"{name:22} {1000 * best:8.1f} ms  price={record['price']!r}  is_product={record['is_product']}")


if __name__ == "__main__":
    main()
