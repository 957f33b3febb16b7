"""PDF documents from real PDFs (fixtures/pdf/, PROVENANCE.md there): text in reading order,
headings, ruled tables, a tagged PDF's structure, metadata, and bad input as records."""


import pytest

from conftest import ROOT

from crawlforge.extract.pdf import PdfProblem, read_pdf

PDFS = ROOT / "fixtures" / "pdf"


def document(name: str, **limits):
    return read_pdf((PDFS / name).read_bytes(), **limits)


@pytest.fixture(scope="module")
def notice():
    return document("federal-register-2020-17221.pdf")


def test_federal_register_headings_come_from_bold_and_large_type(notice):
    lines = notice.markdown.splitlines()
    assert lines[0] == "# Proposed Rules"  # 18 pt over a 9 pt body
    for heading in ("## Examining the AD Docket", "## Background", "## Costs of Compliance"):
        assert heading in lines


def test_federal_register_paragraphs_are_joined_across_lines_and_columns(notice):
    paragraphs = notice.markdown.split("\n\n")
    at = paragraphs.index("## Examining the AD Docket")
    # eight lines of the second column in the PDF, one paragraph here
    assert paragraphs[at + 1].startswith("You may examine the AD docket on the internet at https:// www.regulations.gov")
    assert paragraphs[at + 1].endswith("The street address for Docket Operations is listed above.")
    assert "Soekarno-Hatta" in notice.markdown  # a compound broken at a line's end keeps its hyphen


def test_federal_register_running_headers_and_page_numbers_are_dropped(notice):
    assert "Federal Register / Vol. 85" not in notice.markdown
    assert "VerDate" not in notice.markdown
    assert not [p for p in notice.markdown.split("\n\n") if p.strip().isdigit()]


def test_federal_register_metadata(notice):
    assert notice.metadata == {"title": None, "author": None, "subject": None, "created": "2020-08-06T09:51:25Z",
                               "modified": "2020-08-06T05:51:39-04:00", "pages": 15}
    assert notice.warnings == []


def test_ruled_table_is_a_markdown_table_with_its_header_row():
    markdown = document("senate-expenditures.pdf").markdown.splitlines()
    header = markdown.index("| DOCUMENT NO. | DATE POSTED | PAYEE NAME | OBLIGATION/SERVICE DATES |  "
                            "| DESCRIPTION | AMOUNT ($) |")
    assert markdown[header + 1] == "|---|---|---|---|---|---|---|"
    # the body, one cell under the ruled header in the PDF, is a row a line, under its columns
    assert "| DHAW20190001 | 05/03/2019 | CITIBANK - TRAVEL CBA CARD | 03/04/2019 | 03/06/2019 " \
           "| STAFF TRANSPORTATION | 920.68 |" in markdown
    assert "|  |  | BAIN, J MATTHEW |  |  | DISTRICT DIRECTOR | 37,499.96 |" in markdown


def test_ruled_row_of_several_records_is_one_row_a_record():
    markdown = document("nics-background-checks-2015-11.pdf").markdown.splitlines()
    # five states share each ruled row of the PDF, a line of each cell apiece
    assert "| Alabama | 18,870 | 23,022 | 22,650 | 859 | 1,178 | 0 | 14 | 15 | 0 | 2,179 | 2,307 | 11 | 0 | 0 " \
           "| 0 |  |  | 13 | 14 | 0 | 3 | 2 | 0 | 71,137 |" in markdown
    assert [line.split(" | ")[0] for line in markdown[3:6]] == ["| Alabama", "| Alaska", "| Arizona"]


def test_french_minutes_keep_their_accents():
    minutes = document("2023-06-20-PV.pdf")
    assert minutes.metadata["title"] == "Comité de démolition - Procès-verbal de la séance publique du 20 juin 2023"
    assert "COMITÉ DE DÉMOLITION" in minutes.markdown
    assert "Mme Ariane Bélanger, greffière adjointe, Service du greffe" in minutes.markdown
    assert "ATTENDU QUE le bâtiment est protégé en vertu du règlement 1274" in minutes.markdown


def test_tagged_pdf_is_read_from_its_structure_tree():
    markdown = document("word365_structure.pdf").markdown
    blocks = markdown.split("\n\n")
    assert blocks[0] == "# Titre"
    assert blocks[2:5] == ["- Liste", "- Liste 2", "- Liste 3"]
    assert "1. Liste numérotée" in blocks
    assert "| En-tête 1 | En-tête 2 | En-tête 3 |\n|---|---|---|\n| Ligne 1 | Alouette | Farfadet |" in markdown


def test_encrypted_pdf_is_a_pdf_encrypted_record():
    with pytest.raises(PdfProblem) as problem:
        document("password-example.pdf")
    assert problem.value.reason == "pdf_encrypted"


def test_truncated_pdf_is_a_pdf_error_with_the_parsers_message():
    body = (PDFS / "senate-expenditures.pdf").read_bytes()
    with pytest.raises(PdfProblem) as problem:
        read_pdf(body[: len(body) // 2])
    assert problem.value.reason == "pdf_error"
    assert "Unexpected EOF" in problem.value.detail


def test_a_page_box_of_no_numbers_is_a_pdf_error_not_a_crash():
    body = (PDFS / "senate-expenditures.pdf").read_bytes().replace(b"/MediaBox[0 0 612 792]", b"/MediaBox[0 /V 612 792]")
    with pytest.raises(PdfProblem) as problem:
        read_pdf(body)
    assert problem.value.reason == "pdf_error"
    assert problem.value.detail.startswith("cannot read the PDF: PdfminerException: float() argument")


def test_a_body_without_the_signature_is_not_pdf():
    with pytest.raises(PdfProblem) as problem:
        read_pdf((PDFS / "site" / "synthetic-index.html").read_bytes())
    assert problem.value.reason == "not_pdf"


def test_malformed_pdf_of_a_page_image_is_read_with_an_ocr_warning():
    malformed = document("malformed-from-issue-932.pdf")  # an inverted MediaBox over a scanned page
    assert malformed.markdown == "2021 3 31"
    assert "need OCR" in malformed.warnings[0]


def test_scanned_pdf_gives_empty_markdown_and_an_ocr_warning():
    scanned = document("synthetic-scanned-2023-06-20-PV.pdf")
    assert scanned.markdown == ""
    assert scanned.warnings == ["1 of the 1 pages read have no text layer but an image (scanned?): "
                                "they need OCR, which crawlforge does not do"]


def test_page_limit_reads_the_first_pages_and_says_so():
    limited = document("federal-register-2020-17221.pdf", max_pages=2)
    assert limited.pages_read == 2 and limited.metadata["pages"] == 15
    assert limited.warnings == ["only the first 2 of 15 pages were read (page limit)"]
    assert "## Examining the AD Docket" in limited.markdown and "## Costs of Compliance" not in limited.markdown


def test_time_limit_keeps_the_pages_read_by_then():
    limited = document("federal-register-2020-17221.pdf", time_limit=1e-9)
    assert limited.pages_read == 1
    assert limited.warnings == ["only the first 1 of 15 pages were read (time limit)"]
