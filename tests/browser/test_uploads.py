"""The arbiter uploads a rating list that is too large, in a real browser at both widths."""

import pytest

from members import knsb
from members.models import ListedRating, RatingList
from tests.browser.helpers import screenshot
from tests.browser.test_arbiter import log_in_to_the_admin
from tests.members.test_knsb import deflated

pytestmark = pytest.mark.browser


def test_the_arbiter_is_told_a_rating_list_is_too_large(
    demo, live_server, page, width, tmp_path, monkeypatch
):
    monkeypatch.setattr(knsb, "MAX_CSV_BYTES", 1_000_000)  # a small bomb stands for a big one
    bomb = tmp_path / "KNSB.zip"
    bomb.write_bytes(deflated(2_000_000))
    lists, ratings = RatingList.objects.count(), ListedRating.objects.count()

    log_in_to_the_admin(page, live_server.url)
    page.goto(f"{live_server.url}/beheer/members/ratinglist/import/")
    page.get_by_label("Ratinglijst").set_input_files(str(bomb))
    page.get_by_label("Datum van de lijst").fill("1-12-2026")
    page.get_by_role("button", name="Voorbeeld tonen").click()
    error = page.locator("ul.errorlist")
    assert error.inner_text() == "Het CSV-bestand in het zipbestand is groter dan 1 MB."
    assert page.get_by_role("button", name="Deze ratings importeren").count() == 0
    screenshot(page, "rating-list-too-large", width)
    assert (RatingList.objects.count(), ListedRating.objects.count()) == (lists, ratings)
