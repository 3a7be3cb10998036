"""The club's logo (issue 40, point 1): the arbiter uploads it on the club's page, every page's
menu shows it before the club's name, /logo/ serves it; anything but a small PNG, JPEG or SVG
is refused in Dutch and changes nothing; removing it leaves the name alone."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from club.models import current

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64  # the signature is what is checked
SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'


def upload(client, data: bytes, name: str = "logo.png"):
    return client.post(
        reverse("arbiter:club-logo"), {"logo": SimpleUploadedFile(name, data)}, follow=True
    )


def test_an_uploaded_logo_is_in_every_pages_menu_and_served(arbiter_client, client):
    home = client.get("/").content.decode()
    assert "club-logo" not in home
    page = upload(arbiter_client, PNG).content.decode()
    assert "Het logo is opgeslagen." in page
    digest = current().logo_digest
    home = client.get("/").content.decode()
    assert f'<img class="club-logo" src="/logo/?v={digest}" alt="" height="32">DSC Drachten' in home
    served = client.get("/logo/")
    assert served.content == PNG and served["Content-Type"] == "image/png"
    assert served["Content-Security-Policy"].startswith("default-src 'none'")
    upload(arbiter_client, SVG, "logo.svg")
    assert client.get("/logo/")["Content-Type"] == "image/svg+xml"
    assert current().logo_digest != digest  # a new address: no browser shows the old one


def test_anything_but_a_small_image_is_refused_and_nothing_changes(arbiter_client, client):
    upload(arbiter_client, PNG)
    for data, name in (
        (b"<html><script>alert(1)</script></html>", "logo.png"),  # named so, but not one
        (PNG + b"\x00" * 200_000, "logo.png"),  # too large
    ):
        page = upload(arbiter_client, data, name).content.decode()
        assert "Een logo is een PNG-, JPEG- of SVG-bestand van hoogstens 200 kB." in page
        assert client.get("/logo/").content == PNG


def test_a_removed_logo_leaves_the_name(arbiter_client, client):
    upload(arbiter_client, PNG)
    page = arbiter_client.post(reverse("arbiter:club-logo"), {"remove": "1"}, follow=True)
    assert "Het logo is verwijderd." in page.content.decode()
    assert "club-logo" not in client.get("/").content.decode()
    assert client.get("/logo/").status_code == 404


def test_a_request_does_not_read_the_logos_bytes(db):
    assert "logo" in current().get_deferred_fields()
