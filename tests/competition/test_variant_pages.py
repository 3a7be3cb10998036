"""The player page explains each round in the words of the competition's Keizer (issue 39,
point 3): the values a sentence names are the ones the round's points were counted with, also
when a frozen valuation counts each round with the ranking before it."""

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from competition.keizer import settings_file
from competition.keizer_form import KeizerForm
from competition.models import Competition
from tests.factories import make_played_competition, worked_example_season

# "won van X, waarde 47 → 47 punten", "remise tegen X, de helft van waarde 47 → 23½ punten"
GAME = re.compile(r"<td>(won van|remise tegen) [^<]*?(de helft van )?waarde (\d+) → ([^ ]+) punten")


def half_points(text: str) -> Fraction:
    """ "23½" as 47/2: a win or a half of an integer value."""
    whole, half = (text[:-1], Fraction(1, 2)) if text.endswith("½") else (text, 0)
    return int(whole or 0) + half


def lines(client, participant_id):
    page = client.get(reverse("competition:player", args=[participant_id])).content.decode()
    return GAME.findall(page)


@pytest.mark.parametrize(
    "document",
    [
        {"revaluation": "dsc"},
        {"revaluation": "frozen"},
        {"revaluation": "cascade"},
        # Values that follow the field's size (ratio:3): the stored valuation values too.
        {"profile": "keizerforclubs", "game_shares": {"loss": "0"}},
        {"profile": "keizerforclubs", "revaluation": "frozen", "game_shares": {"loss": "0"}},
    ],
)
def test_every_game_sentence_adds_up_with_the_values_it_names(client, db, document):
    keizer = settings_file.settings_from_document(document)
    _competition, pk = make_played_competition(
        worked_example_season(3), **Competition.values_of(keizer)
    )
    checked = 0
    for participant_id in pk.values():
        for what, half, value, points in lines(client, participant_id):
            share = Fraction(1, 2) if half else Fraction(1)
            assert share * int(value) == half_points(points), (what, value, points)
            checked += 1
    assert checked > 20  # the worked example's three rounds: every played game, both sides


SUMMARY = re.compile(r'<details class="keizer-settings-summary.*?</details>', re.S)
ROW = re.compile(r"<dt[^>]*>([^<]*)</dt><dd[^>]*>([^<]*)</dd>")


def test_the_public_pages_name_every_setting_of_the_competitions_keizer(client, db):
    chesspairing = settings_file.settings_from_document({"profile": "chesspairing"})
    _competition, pk = make_played_competition(
        worked_example_season(2), **Competition.values_of(chesspairing)
    )
    pages = [
        reverse("competition:standings"),
        reverse("competition:player", args=[pk["de-wit"]]),
        reverse("competition:what-if"),
    ]
    for url in pages:
        found = SUMMARY.search(client.get(url).content.decode())
        assert found, url
        summary = found.group(0)
        assert "Keizer volgens chesspairing" in summary
        rows = dict(ROW.findall(summary))
        assert len(rows) == len(KeizerForm.base_fields) - 1  # every setting but the preset
        # The preset's settings as the spec's table gives them, in the form's words.
        assert rows["Waardecijfer van nummer 1"] == "N"
        assert rows["Hoogste aantal afwezigheden dat punten geeft"] == "5"
        assert rows["Afwezigheden die meetellen voor de grens"] == (
            "op tijd afgemeld; afwezig zonder afmelding"
        )
        assert rows["Eigen redenen van de club"] == "half bye ½; zero bye 0"
        assert rows["Afronding"] == "elk bedrag op een halve punt"
        assert rows["Kleurverhouding"] == "zoals het Nederlandse Zwitserse systeem"
