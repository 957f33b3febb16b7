"""The crawl report as ONE self-contained HTML file: charts are pygal SVG embedded inline, the
fill-rate heatmap and the tables are plain HTML; nothing is fetched when the page opens.

Each chart is a ``<figure id=...>``; in its SVG every bar carries its number
(``desc.value``) and its label (``desc.x_label``), so what is drawn can be read back.
"""

from __future__ import annotations

from html import escape

import pygal
from pygal.style import Style

from crawlforge.report.fillrate import FillRates
from crawlforge.report.summary import Summary, Timeline

STYLE = Style(background="white", plot_background="white", font_family="sans-serif",
              colors=("#3b6ea5", "#c0392b", "#7f8c8d"))
CSS = """
body{font-family:sans-serif;margin:2rem auto;max-width:1100px;color:#222}
h1{margin-bottom:.2rem} .lead{color:#555;margin-top:0}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
figure{margin:0;border:1px solid #ddd;padding:.5rem} figcaption{font-weight:bold}
table{border-collapse:collapse;width:100%;font-size:.85rem}
td,th{border:1px solid #ddd;padding:.25rem .4rem;text-align:left}
.heat th{width:12rem;vertical-align:top} .cell{display:inline-block;margin:2px;padding:2px 6px;border-radius:3px}
.none{color:#888}
"""


def count_ticks(top: int) -> list[int]:
    """Whole-number ticks: a count axis has no 0.2."""
    step = max(1, -(-top // 8))
    return list(range(0, top + step, step))


def empty_figure(chart_id: str, title: str, note: str = "nothing to show") -> str:
    return (f'<figure id="{chart_id}"><figcaption>{escape(title)}</figcaption>'
            f'<p class="none">{escape(note)}</p></figure>')


def chart(chart_id: str, title: str, labels: list[str], series: dict[str, list[int]], kind=pygal.Bar) -> str:
    """A pygal bar chart as inline SVG (``js=[]``: no script from pygal's CDN)."""
    if not labels:
        return empty_figure(chart_id, title)
    top = max(max(values, default=0) for values in series.values())
    graph = kind(js=[], disable_xml_declaration=True, style=STYLE, width=540, height=300, truncate_label=24,
                 y_labels=count_ticks(top), show_legend=len(series) > 1, legend_at_bottom=True,
                 x_label_rotation=30 if len(labels) > 6 else 0)
    graph.x_labels = labels
    for name, values in series.items():
        graph.add(name, values)
    return f'<figure id="{chart_id}"><figcaption>{escape(title)}</figcaption>{graph.render(is_unicode=True)}</figure>'


def counts_chart(chart_id: str, title: str, counts: dict[str, int], series: str) -> str:
    return chart(chart_id, title, list(counts), {series: list(counts.values())}, kind=pygal.HorizontalBar)


def timeline_chart(line: Timeline) -> str:
    fmt = "%H:%M:%S" if line.bucket_seconds < 3600 else "%m-%d %H:%M"
    title = f"Pages over time (per {line.bucket_seconds} s)"
    return chart("pages-over-time", title, [t.strftime(fmt) for t in line.starts],
                 {"items": line.items, "errors": line.errors})


def heat_colour(rate: float) -> str:
    """Red (empty) to green (always filled)."""
    return f"hsl({round(rate * 120)},70%,{85 - round(rate * 10)}%)"


def heatmap(rates: FillRates) -> str:
    """One row of coloured cells per template (or site), one cell per field."""
    rows = []
    for group, counts in sorted(rates.groups.items()):
        cells = "".join(
            f'<span class="cell" data-group="{escape(group)}" data-field="{escape(name)}" '
            f'style="background:{heat_colour(counts.rate(name))}" title="{counts.filled[name]}/{counts.items}">'
            f'{escape(name)} <b>{counts.rate(name):.0%}</b></span>' for name in sorted(counts.filled))
        rows.append(f'<tr><th>{escape(group)}<br><small>{counts.items} items</small></th><td>{cells}</td></tr>')
    body = f'<table class="heat">{"".join(rows)}</table>' if rows else '<p class="none">no item with fields</p>'
    return f'<section id="fill-rates"><h2>Fill rates per template and site</h2>{body}</section>'


def link(url: str) -> str:
    if url.startswith(("http://", "https://")):
        return f'<a href="{escape(url)}" rel="noopener noreferrer" target="_blank">{escape(url)}</a>'
    return escape(url)


def worst_table(summary: Summary) -> str:
    rows = "".join(
        f"<tr><td>{link(p.url)}</td><td>{escape(p.outcome)}</td><td>{'' if p.status is None else p.status}</td>"
        f"<td>{p.fill:.0%}</td><td>{escape(p.detail)}</td></tr>" for p in summary.worst_pages)
    return ('<section id="worst-pages"><h2>Worst pages</h2><table><tr><th>page</th><th>outcome</th>'
            f'<th>status</th><th>fields filled</th><th>detail</th></tr>{rows}</table></section>')


def hosts_chart(summary: Summary) -> str:
    hosts = summary.slowest_hosts
    if not hosts:
        return empty_figure("slowest-hosts", "Slowest hosts", "the items carry no download_latency")
    labels = [f"{host} ({pages} pages)" for host, _, pages in hosts]
    return chart("slowest-hosts", "Slowest hosts (mean download latency, ms)", labels,
                 {"ms": [round(mean * 1000) for _, mean, _ in hosts]}, kind=pygal.HorizontalBar)


def render(summary: Summary, title: str = "Crawl report") -> str:
    charts = [
        timeline_chart(summary.timeline),
        counts_chart("status-codes", "Status codes", summary.status_codes, "pages"),
        counts_chart("ledger-reasons", "Why URLs ended without an item", summary.reasons, "URLs"),
        counts_chart("verdict-vendors", "Block pages by vendor", summary.vendors, "pages"),
        hosts_chart(summary),
    ]
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{CSS}</style></head><body><h1>{escape(title)}</h1>"
            f'<p class="lead" id="totals">{summary.items} items, {summary.errors} URLs without an item</p>'
            f'<div class="grid">{"".join(charts)}</div>{heatmap(summary.fill_rates)}{worst_table(summary)}'
            "</body></html>")
