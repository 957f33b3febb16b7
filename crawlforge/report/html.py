"""The crawl report as ONE self-contained HTML file: charts are pygal SVG embedded inline, the
outcome, the error groups, the fill-rate heatmap and the tables are plain HTML; nothing is
fetched when the page opens, and it prints.

It answers "did my crawl work, and what went wrong?" from the top down: the outcome in a few
figures and the health verdict in words, then errors grouped by reason and URL pattern, then the
charts. A chart of one bar says less than a sentence, so it is one (``<p class="small">``).
Each chart is a ``<figure id=...>``; in its SVG every bar carries its number (``desc.value``)
and its label (``desc.x_label``), so what is drawn can be read back.
"""

from __future__ import annotations

from html import escape

import pygal
from pygal.style import Style

from crawlforge.report.fillrate import FillRates
from crawlforge.report.summary import ErrorGroup, ErrorTail, Outcome, Summary, Timeline

STYLE = Style(background="white", plot_background="white", font_family="sans-serif",
              colors=("#3b6ea5", "#c0392b", "#7f8c8d"))
CSS = """
body{font-family:sans-serif;margin:2rem auto;max-width:1180px;padding:0 1rem;color:#222}
h1{margin-bottom:.2rem} .lead{color:#555;margin-top:0}
#outcome dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.5rem;margin:0}
#outcome dl div{border:1px solid #ddd;border-radius:4px;padding:.4rem .6rem}
#outcome dt{color:#555;font-size:.8rem} #outcome dd{margin:0;font-size:1.3rem;font-weight:bold}
.verdict{padding:.5rem .8rem;border-radius:4px;margin:.8rem 0} .verdict.ok{background:#e3f4e1}
.verdict.bad{background:#fbe3e1} .verdict ul{margin:.3rem 0 0}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
figure{margin:0;border:1px solid #ddd;padding:.5rem;break-inside:avoid} figcaption{font-weight:bold}
figure.small{grid-column:auto} p.small{margin:.3rem 0}
table{border-collapse:collapse;width:100%;font-size:.85rem}
td,th{border:1px solid #ddd;padding:.25rem .4rem;text-align:left;vertical-align:top}
td.num{text-align:right} td a{word-break:break-all}
.heat th{width:12rem;vertical-align:top} .cell{display:inline-block;margin:2px;padding:2px 6px;border-radius:3px}
.none{color:#888} details{margin-top:.5rem}
@media print{body{margin:0;max-width:none}.grid{grid-template-columns:1fr 1fr}details>*{display:block}}
"""
# "Pages over time" shows at most this many time labels; the bars in between carry none.
TIME_LABELS = 6


def count_ticks(top: int) -> list[int]:
    """Whole-number ticks: a count axis has no 0.2."""
    step = max(1, -(-top // 8))
    return list(range(0, top + step, step))


def empty_figure(chart_id: str, title: str, note: str = "nothing to show") -> str:
    return (f'<figure id="{chart_id}"><figcaption>{escape(title)}</figcaption>'
            f'<p class="none">{escape(note)}</p></figure>')


def sentence_figure(chart_id: str, title: str, labels: list[str], series: dict[str, list[int]]) -> str:
    """The one bar of a chart, said in words."""
    [(name, values)] = series.items()
    return (f'<figure id="{chart_id}" class="small"><figcaption>{escape(title)}</figcaption>'
            f'<p class="small">{escape(labels[0])}: <b>{values[0]}</b> {escape(name)}</p></figure>')


def chart(chart_id: str, title: str, labels: list[str], series: dict[str, list[int]], kind=pygal.Bar,
          **options) -> str:
    """A pygal bar chart as inline SVG (``js=[]``: no script from pygal's CDN); one bar is a sentence."""
    if not labels:
        return empty_figure(chart_id, title)
    if len(labels) == 1 and len(series) == 1:
        return sentence_figure(chart_id, title, labels, series)
    top = max(max(values, default=0) for values in series.values())
    if kind is pygal.StackedBar:
        top = max(map(sum, zip(*series.values())), default=0)
    options = {"x_label_rotation": 30 if len(labels) > 6 else 0, **options}
    graph = kind(js=[], disable_xml_declaration=True, style=STYLE, width=540, height=300, truncate_label=24,
                 y_labels=count_ticks(top), show_legend=len(series) > 1, legend_at_bottom=True, **options)
    graph.x_labels = labels
    for name, values in series.items():
        graph.add(name, values)
    return f'<figure id="{chart_id}"><figcaption>{escape(title)}</figcaption>{graph.render(is_unicode=True)}</figure>'


def counts_chart(chart_id: str, title: str, counts: dict[str, int], series: str) -> str:
    """Horizontal bars, each with its number beside it: a bar of 1 beside one of 400 is a sliver."""
    return chart(chart_id, title, list(counts), {series: list(counts.values())}, kind=pygal.HorizontalBar,
                 print_values=True)


def timeline_chart(line: Timeline) -> str:
    """Items and errors stacked per interval, with a handful of readable time labels."""
    fmt = "%H:%M:%S" if line.bucket_seconds < 3600 else "%m-%d %H:%M"
    title = f"Pages over time (per {line.bucket_seconds} s)"
    labels = [t.strftime(fmt) for t in line.starts]
    if len(labels) == 1:  # one interval: a stacked bar still says how the crawl split
        labels.append("")
        line = Timeline(line.bucket_seconds, line.starts, line.items + [0], line.errors + [0])
    every = max(1, -(-len(labels) // TIME_LABELS))
    return chart("pages-over-time", title, labels, {"items": line.items, "errors": line.errors},
                 kind=pygal.StackedBar, x_labels_major=labels[::every], show_minor_x_labels=False,
                 x_label_rotation=0)


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
    """The items with the fewest of their group's fields (failed URLs are in the error groups)."""
    pages = [p for p in summary.worst_pages if p.fill > 0 or p.detail.startswith("empty")]
    if not pages:
        return ""
    rows = "".join(
        f"<tr><td>{link(p.url)}</td><td>{escape(p.outcome)}</td><td>{'' if p.status is None else p.status}</td>"
        f"<td>{p.fill:.0%}</td><td>{escape(p.detail)}</td></tr>" for p in pages)
    return ('<section id="worst-pages"><h2>Least filled pages</h2><table><tr><th>page</th><th>template or site</th>'
            f'<th>status</th><th>fields filled</th><th>empty fields</th></tr>{rows}</table></section>')


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def duration_text(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    minutes = seconds / 60
    return f"{minutes:.0f} min" if minutes < 120 else f"{minutes / 60:.1f} h"


def size_text(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return ""


def figure_cell(name: str, label: str, value) -> str:
    return f'<div data-figure="{name}"><dt>{escape(label)}</dt><dd>{escape(str(value))}</dd></div>'


def verdict_text(outcome: Outcome, summary: Summary) -> str:
    """The crawl's verdict in words, with the exit code it led to."""
    code = f"<code>scrapy crawl</code> exit code {outcome.exit_code}"
    if outcome.health_alarms:
        reasons = "".join(f"<li>{escape(message)}</li>" for message in outcome.health_alarms)
        return (f'<div class="verdict bad" id="verdict"><b>Health check failed</b> ({code}):'
                f"<ul>{reasons}</ul></div>")
    if outcome.exit_code == 1:
        why = ", ".join(f"{count} {reason}" for reason, count in summary.reasons.items())
        return f'<div class="verdict bad" id="verdict"><b>No page became an item</b> ({code}): {escape(why)}.</div>'
    checked = "health check passed" if outcome.health_alarms is not None else "no stats file: health not known"
    share = f"{outcome.errors / max(outcome.requested, 1):.0%} of requested URLs ended as errors"
    return f'<div class="verdict ok" id="verdict"><b>Crawl done</b> ({code}; {checked}); {share}.</div>'


def outcome_section(summary: Summary) -> str:
    outcome = summary.outcome
    cells = [figure_cell("requested", "URLs requested", outcome.requested),
             figure_cell("items", "items", outcome.items),
             figure_cell("errors", "URLs without an item", outcome.errors)]
    cells += [figure_cell(f"reason-{reason}", f"errors: {reason}", count) for reason, count in summary.reasons.items()]
    if summary.vendors:
        cells.append(figure_cell("blocked", "block pages: " + ", ".join(summary.vendors), sum(summary.vendors.values())))
    if outcome.duration_seconds is not None:
        cells.append(figure_cell("duration", "duration", duration_text(outcome.duration_seconds)))
    if outcome.pages_per_minute is not None:
        cells.append(figure_cell("pages-per-minute", "URLs per minute", f"{outcome.pages_per_minute:.1f}"))
    if outcome.bytes_downloaded is not None:
        cells.append(figure_cell("bytes", "downloaded", size_text(outcome.bytes_downloaded)))
    if outcome.rendered:
        cells.append(figure_cell("rendered", "rendered in the browser", outcome.rendered))
    if outcome.llm_calls:
        cells.append(figure_cell("llm", "LLM calls (tokens)", f"{outcome.llm_calls} ({outcome.llm_tokens or 0})"))
    if summary.page_types:
        kinds = ", ".join(f"{kind} {count}" for kind, count in summary.page_types.items())
        cells.append(figure_cell("page-types", "page types", kinds))
    return f'<section id="outcome"><dl>{"".join(cells)}</dl>{verdict_text(outcome, summary)}</section>'


def group_row(group: ErrorGroup) -> str:
    examples = "<br>".join(link(url) for url in group.examples)
    return (f'<tr data-reason="{escape(group.reason)}" data-pattern="{escape(group.pattern)}" data-count="{group.count}">'
            f"<td>{escape(group.reason)}</td><td>{escape(group.pattern)}</td><td class=num>{group.count}</td>"
            f"<td class=num>{group.share:.0%}</td><td>{escape(group.detail)}</td><td>{examples}</td></tr>")


def tail_row(tail: ErrorTail) -> str:
    """``384 more URLs in 384 folders``: the small groups of a reason, listed behind a ``<details>``."""
    place = "folder" if all(group.pattern.endswith("/") for group in tail.groups) else "place"
    where = f"{plural(tail.count, 'more URL' if tail.after_head else 'URL')} in {plural(len(tail.groups), place)}"
    listed = "".join(f"<li>{escape(group.pattern)}: {', '.join(link(url) for url in group.examples)}"
                     f"{' ...' if group.count > len(group.examples) else ''}</li>" for group in tail.groups)
    return (f'<tr class="tail" data-tail="{escape(tail.reason)}" data-count="{tail.count}" '
            f'data-groups="{len(tail.groups)}"><td>{escape(tail.reason)}</td><td>{escape(where)}</td>'
            f"<td class=num>{tail.count}</td><td class=num>{tail.share:.0%}</td><td>{escape(tail.detail)}</td>"
            f"<td><details><summary>{plural(len(tail.groups), place)}</summary><ul>{listed}</ul></details></td></tr>")


def errors_section(summary: Summary, errors: list[dict]) -> str:
    """Errors grouped by reason and URL pattern, the long tail folded a row a reason; every
    record behind a ``<details>``."""
    if not summary.error_groups and not summary.error_tail:
        return '<section id="error-groups"><h2>What went wrong</h2><p class="none">no URL ended without an item</p></section>'
    rows = "".join(map(group_row, summary.error_groups)) + "".join(map(tail_row, summary.error_tail))
    every = "".join(f"<tr><td>{link(str(e.get('url', '')))}</td><td>{escape(str(e.get('reason', '')))}</td>"
                    f"<td>{escape(str(e.get('status') or ''))}</td><td>{escape(str(e.get('detail', '')))}</td></tr>"
                    for e in sorted(errors, key=lambda e: (str(e.get("reason", "")), str(e.get("url", "")))))
    return ('<section id="error-groups"><h2>What went wrong</h2><table><tr><th>reason</th><th>where</th>'
            f'<th>URLs</th><th>share</th><th>detail</th><th>examples</th></tr>{rows}</table>'
            f'<details id="all-errors"><summary>All {plural(len(errors), "error record")}</summary>'
            f"<table><tr><th>URL</th><th>reason</th><th>status</th><th>detail</th></tr>{every}</table></details></section>")


def product_section(summary: Summary) -> str:
    if not summary.product_fill:
        return ""
    rows = "".join(f'<tr><th>{escape(group)}</th>' + "".join(
        f'<td data-group="{escape(group)}" data-field="{name}" style="background:{heat_colour(rate)}">'
        f"{name} <b>{rate:.0%}</b></td>" for name, rate in fields.items()) + "</tr>"
        for group, fields in summary.product_fill.items())
    return f'<section id="product-fill"><h2>Product pages: fields found</h2><table>{rows}</table></section>'



def hosts_chart(summary: Summary) -> str:
    hosts = summary.slowest_hosts
    if not hosts:
        return empty_figure("slowest-hosts", "Slowest hosts", "the items carry no download_latency")
    labels = [f"{host} ({pages} pages)" for host, _, pages in hosts]
    return chart("slowest-hosts", "Slowest hosts (mean download latency, ms)", labels,
                 {"ms": [round(mean * 1000) for _, mean, _ in hosts]}, kind=pygal.HorizontalBar, print_values=True)


def render(summary: Summary, title: str = "Crawl report", errors: list[dict] | None = None) -> str:
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
            f"{outcome_section(summary)}{errors_section(summary, errors or [])}"
            f'<div class="grid">{"".join(charts)}</div>{heatmap(summary.fill_rates)}{product_section(summary)}'
            f"{worst_table(summary)}</body></html>")
