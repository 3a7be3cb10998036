"""Issue 37: a draft pairing the arbiter can read (arbiter/rounds.py `review_rows`): each
board's players with place, value and last colours, the round's own fields folded away, no
delete link beside the save button, and Wijzigen per board with the same checks as before."""

import re
from html.parser import HTMLParser

from django.urls import reverse

from competition.models import Game, Ranking

COLOUR = {"white": "wit", "black": "zwart"}


class FormFields(HTMLParser):
    """What a browser sends for the page's form `round_form`: its inputs and the chosen
    option of each select (submit buttons left out)."""

    def __init__(self):
        super().__init__()
        self.data, self.select, self.inside = {}, None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("id") == "round_form"
        if not self.inside:
            return
        if tag == "input" and attrs.get("type") not in ("submit", "checkbox") and "name" in attrs:
            self.data[attrs["name"]] = attrs.get("value", "")
        elif tag == "input" and attrs.get("type") == "checkbox" and "checked" in attrs:
            self.data[attrs["name"]] = "on"
        elif tag == "select":
            self.select = attrs["name"]
            self.data.setdefault(self.select, "")
        elif tag == "option" and self.select and "selected" in attrs:
            self.data[self.select] = attrs.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def sent(page: str) -> dict:
    parser = FormFields()
    parser.feed(page)
    return parser.data


def row_of(page: str, board: int) -> str:
    match = re.search(rf'<tr [^>]*id="bord-{board}".*?</tr>', page, re.S)
    assert match, f"no row for board {board}"
    return match.group(0)


def expected_colours(game_rows, participant_id) -> str:
    """The player's colours in their last three games played over the board, latest last,
    read from the stored games (forfeits give no colour)."""
    colours = [
        "white" if white == participant_id else "black"
        for white, black in game_rows
        if participant_id in (white, black)
    ]
    return ", ".join(COLOUR[c] for c in colours[-3:]) or "nog geen partij"


def test_the_draft_lists_each_boards_players_with_place_value_and_last_colours(
    arbiter_client, paired_round_4
):
    round_4 = paired_round_4
    page = arbiter_client.get(reverse("arbiter:round", args=[round_4.pk])).content.decode()
    ranking = Ranking.objects.get(competition=round_4.competition, after_round=3)
    standing = {s.participant_id: s for s in ranking.standings.all()}
    played = list(
        Game.objects.filter(round__competition=round_4.competition, round__number__lt=4)
        .exclude(result__in=["", "1-0F", "0-1F", "0-0F"])
        .order_by("round__number")
        .values_list("white_id", "black_id")
    )
    games = list(round_4.games.order_by("board").select_related("white__member", "black__member"))
    assert games
    for game in games:
        row = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row_of(page, game.board)))
        for player in (game.white, game.black):
            s = standing[player.pk]
            assert player.name in row
            assert f"plaats {s.position} · waarde {s.value}" in row, row
            assert expected_colours(played, player.pk) in row, row
        assert "Wijzigen" in row
    assert "Plaats en waarde uit ranglijst 3" in page
    # Nothing to choose until a board is asked for: the boards are read, not edited.
    assert not re.search(r'<select name="games-\d+-(white|black)"', page)

    # The round's own fields are folded away (closed), with the delete link inside.
    folded = re.search(r'<details class="round-fields">(.*?)</details>', page, re.S)
    assert folded, "the round's fields are not in a closed <details>"
    outside = page.replace(folded.group(0), "")
    for name in ("competition", "number", "date", "publish_at_0", "bye"):
        assert f'name="{name}"' in folded.group(1)
        assert f'name="{name}"' not in outside
    submit_row = re.search(r'<div class="submit-row">(.*?)</div>', page, re.S).group(1)
    assert "deletelink" not in submit_row and "verwijderen" not in submit_row.lower()


def test_wijzigen_changes_exactly_that_board_and_refuses_a_player_twice(
    arbiter_client, paired_round_4
):
    round_4 = paired_round_4
    url = reverse("arbiter:round", args=[round_4.pk])
    before = {g.board: (g.white_id, g.black_id) for g in round_4.games.all()}
    page = arbiter_client.get(url).content.decode()
    link = re.search(r'<a href="(\?bord=2#bord-2)"', row_of(page, 2)).group(1)

    page = arbiter_client.get(url + link.split("#")[0]).content.decode()
    assert len(re.findall(r'<select name="games-\d+-white"', page)) == 1
    assert '<select name="games-1-white"' in row_of(page, 2)

    # A player twice: refused as before, nothing saved, board 2 still open to change.
    data = sent(page) | {"games-1-white": str(before[1][0])}
    response = arbiter_client.post(url + "?bord=2", data)
    refused = response.content.decode()
    assert response.status_code == 200
    assert "is meer dan één keer ingedeeld." in refused
    assert '<select name="games-1-white"' in row_of(refused, 2)
    assert {g.board: (g.white_id, g.black_id) for g in round_4.games.all()} == before

    # Swapping board 2's colours is saved, and only board 2 changes.
    white, black = before[2]
    data = sent(page) | {"games-1-white": str(black), "games-1-black": str(white)}
    response = arbiter_client.post(url + "?bord=2", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert {g.board: (g.white_id, g.black_id) for g in round_4.games.all()} == {
        **before,
        2: (black, white),
    }
