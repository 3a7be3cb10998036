"""The KNSB rating list parser, on files in the federation's real format."""

import io
import tracemalloc
import zipfile

import pytest

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
        "het zipbestand is beschadigd"
    ]
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.csv", GOOD)
        archive.writestr("b.csv", GOOD)
    assert [str(e) for e in knsb.parse(two.getvalue()).errors] == [
        "het zipbestand moet precies één CSV-bestand bevatten"
    ]


def deflated(size: int, name="KNSB-ratinglijst.csv", chunk=b"0" * 1_000_000) -> bytes:
    """A zip holding `size` bytes of zeros, written in chunks: the test stays cheap."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open(name, "w", force_zip64=True) as member,
    ):
        for start in range(0, size, len(chunk)):
            member.write(chunk[: size - start])
    return buffer.getvalue()


def lying_about_its_size(content: bytes, claimed: int) -> bytes:
    """The zip with its central directory claiming `claimed` bytes unpacked (one member)."""
    central = content.rindex(b"PK\x01\x02")
    data = bytearray(content)
    data[central + 24 : central + 28] = claimed.to_bytes(4, "little")
    return bytes(data)


def problems(content: bytes) -> list[str]:
    return [str(error) for error in knsb.parse(content).errors]


def test_a_file_over_the_limit_is_refused_unread(monkeypatch):
    monkeypatch.setattr(knsb, "MAX_FILE_BYTES", len(GOOD) - 1)
    assert problems(GOOD) == ["het bestand is groter dan 0 MB; een KNSB-ratinglijst is een paar MB"]
    assert knsb.parse(GOOD).refused == problems(GOOD)[0]


def test_an_archive_that_unpacks_beyond_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(knsb, "MAX_CSV_BYTES", 2_000_000)
    assert problems(deflated(2_000_001)) == ["het CSV-bestand in het zipbestand is groter dan 2 MB"]
    assert problems(zipped(GOOD)) == []


def test_an_archive_claiming_less_than_it_holds_is_refused_after_what_it_claims():
    bomb = lying_about_its_size(deflated(60_000_000), claimed=1000)
    assert len(bomb) < 100_000
    assert zipfile.ZipFile(io.BytesIO(bomb)).infolist()[0].file_size == 1000
    tracemalloc.start()
    try:
        assert problems(bomb) == ["het zipbestand is beschadigd"]
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


def test_a_truthful_bomb_is_refused_by_its_declared_size_with_little_memory():
    bomb = deflated(knsb.MAX_CSV_BYTES + 1_000_000)  # 21 MB unpacked, 20 kB zipped
    tracemalloc.start()
    try:
        assert problems(bomb) == ["het CSV-bestand in het zipbestand is groter dan 20 MB"]
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


def test_reading_stops_at_the_limit_whatever_the_stream_claims():
    with pytest.raises(ValueError, match="too much"):
        knsb.read_at_most(io.BytesIO(b"x" * 3_000_001), 3_000_000, "too much")
    assert knsb.read_at_most(io.BytesIO(b"x" * 3_000_000), 3_000_000, "too much") == (
        b"x" * 3_000_000
    )


def test_an_archive_must_hold_one_csv_and_nothing_else():
    inner = zipped(GOOD)
    assert problems(zipped(inner, name="KNSB.csv")) == [
        "het zipbestand moet het CSV-bestand zelf bevatten, geen ander zipbestand"
    ]
    nested = io.BytesIO()
    with zipfile.ZipFile(nested, "w") as archive:
        archive.writestr("KNSB.zip", inner)
    assert problems(nested.getvalue()) == ["het zipbestand moet precies één CSV-bestand bevatten"]
    extra = io.BytesIO()
    with zipfile.ZipFile(extra, "w") as archive:
        archive.writestr("KNSB.csv", GOOD)
        archive.writestr("lees-mij.pdf", b"%PDF")
    assert problems(extra.getvalue()) == ["het zipbestand moet precies één CSV-bestand bevatten"]
    with zipfile.ZipFile(empty := io.BytesIO(), "w"):
        pass
    assert problems(b"PK\x03\x04" + empty.getvalue()) == [
        "het zipbestand moet precies één CSV-bestand bevatten"
    ]
    assert problems(zipped(b"")) == ["regel 1: het bestand is leeg"]


def test_a_quoted_field_that_never_ends_is_a_malformed_line():
    endless = csv_bytes('8100001;"Zeeuw, Jan de' + "x" * 200_000)
    assert problems(endless) == [
        "regel 2: het bestand is geen lijst van velden: field larger than field limit (131072)"
    ]
