"""The KNSB rating list parser, on files in the federation's real format."""

import io
import zipfile

from members import knsb

HEADER = "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S"


def csv_bytes(*lines: str, encoding="cp1252") -> bytes:
    return "\r\n".join([HEADER, *lines, ""]).encode(encoding)


def zipped(content: bytes, name="KNSB-ratinglijst.csv") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


GOOD = csv_bytes(
    "8100001;Zeeuw, Jan de;;NED;1850;12;1975;M",
    "8100002;Hoekstra, Anne;WFM;NED;2105;30;1990;V",
    "8100003;Sánchez, José;;ESP;1702;0;2001;M",
)


def test_it_reads_the_csv_with_crlf_and_windows_characters():
    parsed = knsb.parse(GOOD)
    assert parsed.is_valid
    assert [(p.line, p.knsb_number, p.rating) for p in parsed.players] == [
        (2, 8100001, 1850),
        (3, 8100002, 2105),
        (4, 8100003, 1702),
    ]
    assert parsed.players[0].display_name == "Jan de Zeeuw"
    assert parsed.players[2].name == "Sánchez, José"


def test_the_zip_and_the_csv_give_the_same_list():
    assert knsb.parse(zipped(GOOD)) == knsb.parse(GOOD)
    assert knsb.parse(zipped(GOOD.decode("cp1252").encode("utf-8"))) == knsb.parse(GOOD)


def test_malformed_lines_are_reported_by_line_and_field():
    parsed = knsb.parse(
        csv_bytes(
            "8100001;Zeeuw, Jan de;;NED;1850;12;1975;M",
            "81000X2;Hoekstra, Anne;;NED;2105;30;1990;V",
            "8100003;;;NED;abc;0;2001;M",
            "8100004;Visser, Jelle;;NED;1850",
            "8100001;Zeeuw, Jan de;;NED;1851;12;1975;M",
            "8100005;Bakker, Piet;;NED;99999;1;1950;M",
        )
    )
    assert not parsed.is_valid
    assert [str(error) for error in parsed.errors] == [
        "regel 3, veld Relatienummer: '81000X2' is geen nummer",
        "regel 4, veld Naam: de naam ontbreekt",
        "regel 4, veld Rating: 'abc' is geen rating",
        "regel 5: 5 velden in plaats van 8",
        "regel 6, veld Relatienummer: 8100001 staat ook op regel 2",
        "regel 7, veld Rating: 99999 ligt niet tussen 100 en 3500",
    ]


def test_a_file_that_is_not_a_rating_list_says_so():
    assert [str(e) for e in knsb.parse(b"").errors] == ["regel 1: het bestand is leeg"]
    wrong = knsb.parse(b"Naam;Rating\r\nJansen;1800\r\n")
    assert [str(e) for e in wrong.errors] == [f"regel 1: de kopregel is niet {HEADER}"]
    assert [str(e) for e in knsb.parse(b"PK\x03\x04garbage").errors] == [
        "regel 0: het zipbestand is beschadigd"
    ]
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.csv", GOOD)
        archive.writestr("b.csv", GOOD)
    assert [str(e) for e in knsb.parse(two.getvalue()).errors] == [
        "regel 0: het zipbestand moet precies één CSV-bestand bevatten"
    ]
