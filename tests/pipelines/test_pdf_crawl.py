"""PDFs in a real crawl: `scrapy crawl site` against the fixture server follows a page's links
to PDFs and exports each as a document, or as an error record that says why not."""

import json
import subprocess
import sys

from conftest import FIXTURES, ROOT

from crawlforge.extract.frontmatter import parse_document

PDFS = FIXTURES / "pdf"


def test_site_crawl_follows_pdf_links_and_writes_their_documents(fixture_server, crawl, tmp_path):
    documents = tmp_path / "docs"
    result = crawl("site", args={"url": fixture_server.url("/pdf/site/synthetic-index.html"),
                                 "documents_dir": documents})
    assert result.returncode == 0, result.log[-3000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    items = {item["url"]: item for item in result.items}
    notice = items[fixture_server.url("/pdf/federal-register-2020-17221.pdf")]
    assert notice["page_type"] == "pdf" and notice["content_type"] == "application/pdf"
    assert notice["pdf"]["pages"] == 15
    frontmatter, markdown = parse_document(notice["document"])
    assert frontmatter["content_type"] == "application/pdf" and frontmatter["page_type"] == "pdf"
    assert frontmatter["content_length"] == (fixture_server.root / "pdf/federal-register-2020-17221.pdf").stat().st_size
    assert frontmatter["pdf"]["created"] == "2020-08-06T09:51:25Z"
    assert "## Examining the AD Docket" in markdown
    # served as application/octet-stream: known by its %PDF- signature
    octet = fixture_server.url("/_headers/Content-Type=application%2Foctet-stream/pdf/senate-expenditures.pdf")
    assert "| DOCUMENT NO. |" in items[octet]["markdown"]
    errors = {error["url"]: error for error in result.errors}
    assert errors[fixture_server.url("/pdf/password-example.pdf")]["reason"] == "pdf_encrypted"
    written = [parse_document(path.read_text(encoding="utf-8"))[0]["url"] for path in documents.glob("*.md")]
    assert sorted(written) == sorted(items)
    assert result.stats["pdf/documents"] == 2


def test_pdf_0_leaves_pdf_links_alone(fixture_server, crawl):
    result = crawl("site", args={"url": fixture_server.url("/pdf/site/synthetic-index.html"), "pdf": 0})
    assert result.returncode == 0, result.log[-3000:]
    assert [item["url"] for item in result.items] == [fixture_server.url("/pdf/site/synthetic-index.html")]
    assert result.errors == []


def test_scrapy_markdown_of_a_pdf_file_prints_its_document():
    process = subprocess.run([sys.executable, "-m", "scrapy", "markdown", str(PDFS / "2023-06-20-PV.pdf")], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert process.returncode == 0, process.stderr[-2000:]
    frontmatter, markdown = parse_document(process.stdout)
    assert frontmatter["content_type"] == "application/pdf" and frontmatter["page_type"] == "pdf"
    assert frontmatter["pdf"] == {"title": "Comité de démolition - Procès-verbal de la séance publique du 20 juin 2023",
                                  "author": None, "subject": None, "created": "2023-06-21T09:30:27-04:00",
                                  "modified": "2023-06-21T10:09:55-04:00", "pages": 2}
    assert frontmatter["content_length"] == (PDFS / "2023-06-20-PV.pdf").stat().st_size
    assert "Mme Ariane Bélanger, greffière adjointe" in markdown


def test_scrapy_markdown_of_an_encrypted_pdf_is_one_error_and_exit_2():
    process = subprocess.run([sys.executable, "-m", "scrapy", "markdown", str(PDFS / "password-example.pdf")],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert process.returncode == 2 and process.stdout == ""
    assert process.stderr.strip().splitlines()[-1].endswith("the PDF is encrypted and needs a password")


def test_a_pdf_served_as_html_and_a_scanned_pdf_are_items(fixture_server, crawl, tmp_path):
    mislabelled = fixture_server.url("/_headers/Content-Type=text%2Fhtml/pdf/word365_structure.pdf")
    scanned = fixture_server.url("/pdf/synthetic-scanned-2023-06-20-PV.pdf")
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{mislabelled}\n{scanned}\n")
    result = crawl("site", args={"urls_file": urls, "follow": 0})
    assert result.returncode == 0, result.log[-3000:]
    items = {item["url"]: item for item in result.items}
    assert items[mislabelled]["markdown"].startswith("# Titre")  # the charset middleware let it through
    assert items[scanned]["markdown"] == "" and items[scanned]["page_type"] == "pdf"
    assert "need OCR" in items[scanned]["extraction_warnings"][0]["message"]
    assert result.errors == []


def sitemap_site(make_server, tmp_path):
    """A folder with a PDF and a sitemap listing it, served; the sitemap's URL."""
    root = tmp_path / "site"
    root.mkdir()
    (root / "notice.pdf").write_bytes((PDFS / "word365_structure.pdf").read_bytes())
    server = make_server(root)
    (root / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<url><loc>{server.url('/notice.pdf')}</loc></url></urlset>\n")
    return server.url("/sitemap.xml"), server.url("/notice.pdf")


def test_sitemap_lists_pdfs_unless_pdf_0(make_server, crawl, tmp_path):
    sitemap, pdf = sitemap_site(make_server, tmp_path)
    listed = crawl("sitemap", args={"url": sitemap})
    assert [(item["url"], item["page_type"]) for item in listed.items] == [(pdf, "pdf")]
    skipped = crawl("sitemap", args={"url": sitemap, "pdf": 0})
    assert skipped.items == [] and skipped.stats["sitemap/skipped_pdf"] == 1


def test_archived_pdf_is_read_again_by_reextract(fixture_server, crawl, tmp_path):
    archive = tmp_path / "warc"
    url = fixture_server.url("/pdf/senate-expenditures.pdf")
    crawled = crawl("site", args={"url": url, "archive": archive})
    assert [item["page_type"] for item in crawled.items] == ["pdf"], crawled.log[-3000:]
    out = tmp_path / "again"
    done = subprocess.run([sys.executable, "-m", "scrapy", "reextract", str(archive), "-O", str(out / "items.jsonl")],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    again = [json.loads(line) for line in (out / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(item["url"], item["markdown"]) for item in again] == [(url, crawled.items[0]["markdown"])]


def test_a_long_pdf_does_not_hold_the_crawl(fixture_server, crawl, tmp_path):
    """The 16-page report takes seconds to read; pages answered a second after it are done
    meanwhile, which they could not be if it were read on the reactor thread."""
    report = fixture_server.url("/pdf/WARN-Report-for-7-1-2015-to-03-25-2016.pdf")
    pages = [fixture_server.url(f"/_slow/1/demo/news/{name}") for name in ("blog.python.org.html", "anarc.at.cdpath.html")]
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join([report, *pages]))
    result = crawl("site", args={"urls_file": urls, "follow": 0})
    assert result.returncode == 0, result.log[-3000:]
    assert [item["url"] for item in result.items][-1] == report
    assert result.stats["pdf/pages"] == 16
