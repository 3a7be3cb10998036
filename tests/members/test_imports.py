"""Importing a rating list: report, refusal of malformed files, idempotence, command, admin."""

from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from members import imports, knsb
from members.models import ListedRating, Member, RatingList
from tests.members.test_knsb import GOOD, csv_bytes, deflated, zipped
from tests.rows import row_counts

JUNE = date(2026, 6, 1)


@pytest.fixture
def club(db):
    return {
        "jan": Member.objects.create(name="Jan de Zeeuw", knsb_number=8100001),
        "anne": Member.objects.create(name="Anne Hoekstra", knsb_number=8100002),
        "klaas": Member.objects.create(name="Klaas Jansen", knsb_number=8100099),
        "guest": Member.objects.create(name="Zonder Nummer", estimated_rating=1400),
    }


def test_the_report_names_new_ratings_and_members_not_on_the_list(club):
    may = RatingList.objects.create(date=date(2026, 5, 1))
    ListedRating.objects.create(rating_list=may, member=club["jan"], rating=1840)
    report = imports.apply(knsb.parse(GOOD), JUNE, "juni.csv")
    assert [(m.name, old, new) for m, old, new in report.new_ratings] == [
        ("Anne Hoekstra", None, 2105),
        ("Jan de Zeeuw", 1840, 1850),
    ]
    assert [m.name for m in report.not_on_list] == ["Klaas Jansen"]
    assert report.players_on_list == 3
    june = RatingList.objects.get(date=JUNE)
    assert dict(june.ratings.values_list("member__name", "rating")) == {
        "Jan de Zeeuw": 1850,
        "Anne Hoekstra": 2105,
    }
    club["jan"].refresh_from_db()
    assert (
        str(Member.objects.with_ratings().get(pk=club["jan"].pk).rating) == "1850 (KNSB 01-06-2026)"
    )
    assert str(Member.objects.with_ratings().get(pk=club["guest"].pk).rating) == "1400 (geschat)"
    assert Member.objects.with_ratings(may).get(pk=club["jan"].pk).rating.value == 1840


def test_importing_the_same_list_twice_changes_nothing_the_second_time(club):
    imports.apply(knsb.parse(GOOD), JUNE)
    before = list(ListedRating.objects.values_list("pk", "member_id", "rating"))
    report = imports.apply(knsb.parse(GOOD), JUNE)
    assert report.new_ratings == [] and len(report.unchanged) == 2
    assert list(ListedRating.objects.values_list("pk", "member_id", "rating")) == before
    assert RatingList.objects.count() == 1


def test_a_malformed_file_changes_nothing(club):
    bad = csv_bytes("8100001;Zeeuw, Jan de;;NED;1850;12;1975;M", "8100002;Hoekstra, Anne;;NED")
    with pytest.raises(imports.ImportRefused) as refused:
        imports.apply(knsb.parse(bad), JUNE)
    assert refused.value.messages[1] == "regel 3: 4 velden in plaats van 8"
    assert not RatingList.objects.exists() and not ListedRating.objects.exists()


def test_the_command_imports_a_zip_and_reports(club, tmp_path):
    path = tmp_path / "KNSB.zip"
    path.write_bytes(zipped(GOOD))
    out = StringIO()
    call_command("import_knsb_ratings", str(path), "--date", "2026-06-01", stdout=out)
    text = out.getvalue()
    assert "new rating: Jan de Zeeuw: - -> 1850" in text
    assert "not on the list: Klaas Jansen (8100099)" in text
    assert ListedRating.objects.count() == 2


def test_the_command_refuses_a_malformed_file_and_names_the_lines(club, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(csv_bytes("8100001;Zeeuw, Jan de;;NED;veel;12;1975;M"))
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_knsb_ratings", str(path), "--date", "2026-06-01", stderr=err)
    assert "malformed: regel 2, veld Rating: 'veel' is geen rating" in err.getvalue()
    assert not RatingList.objects.exists()


def test_the_command_refuses_a_file_over_the_limit_by_its_size(club, tmp_path):
    path = tmp_path / "KNSB.zip"
    with open(path, "wb") as file:
        file.truncate(knsb.MAX_FILE_BYTES + 1)  # sparse: refused by its size, never read
    before = row_counts()
    with pytest.raises(CommandError) as error:
        call_command("import_knsb_ratings", str(path), "--date", "2026-06-01")
    assert str(error.value) == (
        f"{path}: het bestand is groter dan 10 MB; een KNSB-ratinglijst is een paar MB"
    )
    assert row_counts() == before


def test_the_command_refuses_a_zip_bomb_in_one_line(club, tmp_path, monkeypatch):
    monkeypatch.setattr(knsb, "MAX_CSV_BYTES", 1_000_000)
    path = tmp_path / "KNSB.zip"
    path.write_bytes(deflated(2_000_000))
    before = row_counts()
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import_knsb_ratings", str(path), "--date", "2026-06-01", stdout=out)
    assert str(error.value) == f"{path}: het CSV-bestand in het zipbestand is groter dan 1 MB"
    assert out.getvalue() == ""
    assert row_counts() == before


def test_a_long_or_strange_file_name_is_kept_as_its_column_allows(club):
    imports.apply(knsb.parse(GOOD), JUNE, "juni\x00\n" + "x" * 300 + ".csv")
    assert RatingList.objects.get().file_name == "juni" + "x" * 196


def test_the_admin_shows_a_preview_before_anything_is_saved(arbiter_client, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("admin:members_ratinglist_import")
    upload = SimpleUploadedFile("KNSB.zip", zipped(GOOD), content_type="application/zip")
    preview = arbiter_client.post(url, {"file": upload, "date": "1-6-2026"})
    page = preview.content.decode()
    assert "Voorbeeld: de lijst van 1 juni 2026 met 3 spelers" in page
    assert "Klaas Jansen (8100099)" in page
    assert not RatingList.objects.exists()
    confirmed = arbiter_client.post(url, {"confirm": "1"}, follow=True)
    assert "Ratinglijst geïmporteerd: 2 nieuwe rating(s)." in confirmed.content.decode()
    assert ListedRating.objects.count() == 2


def test_the_admin_refuses_a_malformed_file_with_its_lines(arbiter_client, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    bad = SimpleUploadedFile("bad.csv", csv_bytes("8100001;;;NED;1850;12;1975;M"))
    page = arbiter_client.post(
        reverse("admin:members_ratinglist_import"), {"file": bad, "date": "1-6-2026"}
    ).content.decode()
    assert "regel 2, veld Naam: de naam ontbreekt" in page
    assert "Deze ratings importeren" not in page
    assert (
        arbiter_client.post(
            reverse("admin:members_ratinglist_import"), {"confirm": "1"}
        ).status_code
        == 302
    )
    assert not RatingList.objects.exists()


def test_the_admin_refuses_an_upload_over_the_limit_before_reading_it(
    arbiter_client, club, monkeypatch
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    monkeypatch.setattr(knsb, "MAX_FILE_BYTES", 1_000_000)
    read = []
    monkeypatch.setattr(knsb, "parse", lambda content: read.append(content))
    upload = SimpleUploadedFile("KNSB.csv", b"x" * 1_000_001)
    page = arbiter_client.post(
        reverse("admin:members_ratinglist_import"), {"file": upload, "date": "1-6-2026"}
    ).content.decode()
    assert "Het bestand is groter dan 1 MB; een KNSB-ratinglijst is een paar MB." in page
    assert read == []
    assert "Deze ratings importeren" not in page


def test_the_admin_refuses_a_zip_bomb_and_stores_nothing(arbiter_client, club, monkeypatch):
    from django.core.files.uploadedfile import SimpleUploadedFile

    monkeypatch.setattr(knsb, "MAX_CSV_BYTES", 1_000_000)
    upload = SimpleUploadedFile("KNSB.zip", deflated(2_000_000))
    before = row_counts()
    url = reverse("admin:members_ratinglist_import")
    page = arbiter_client.post(url, {"file": upload, "date": "1-6-2026"}).content.decode()
    assert "Het CSV-bestand in het zipbestand is groter dan 1 MB." in page
    assert "Deze ratings importeren" not in page
    assert arbiter_client.post(url, {"confirm": "1"}).status_code == 302  # no preview kept
    assert row_counts() == before
