"""The FIDE TRF-16 export: every column where TRF-16 puts it, read back by the `trf` package and
by the tests' own reader of the columns (tests/trf16.py); byes, forfeits and absences with their
codes and points; the header's arbiter, rate of play and round dates."""

from datetime import date, datetime
from fractions import Fraction
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import trf
from django.core.management import CommandError, call_command
from django.urls import reverse

from club.models import current
from competition import seasons, services, trf_export
from competition.keizer.season import Absence as Reason
from competition.keizer.season import Result, Settings
from competition.models import Competition, Participant
from competition.trf_export import bye_points, trf_text
from members.models import ListedRating, Member, RatingList
from tests import trf16
from tests.factories import make_played_competition, worked_example_season

NOW = datetime(2026, 11, 22, 12, tzinfo=ZoneInfo("Europe/Amsterdam"))
RULE_I = "90 min/30 zetten + 15 min"  # DSC rule i: 1:30 for 30 moves, then 15 minutes


def member(competition, name: str) -> Member:
    return competition.participants.get(member__name=name).member


@pytest.fixture
def reported(example_competition):
    """The worked example with what the report needs: a chief arbiter, and the records of
    three members as the arbiter filled them in (Bakker's left empty)."""
    example_competition.chief_arbiter = "Hendrik Postma"
    example_competition.save()
    jansen = member(example_competition, "Jansen")
    jansen.knsb_number = 8123456
    jansen.sex = Member.Sex.MALE
    jansen.birth_date = date(1961, 4, 9)
    jansen.save()
    june = RatingList.objects.create(date=date(2026, 6, 1))
    ListedRating.objects.create(rating_list=june, member=jansen, rating=1834)
    de_zeeuw = member(example_competition, "de Zeeuw")
    de_zeeuw.knsb_number = 7654321
    de_zeeuw.sex = Member.Sex.FEMALE
    de_zeeuw.save()
    return example_competition


def test_every_column_of_a_player_line_is_where_trf16_puts_it(reported):
    text = trf_text(reported)
    lines = {line[14:47].strip(): line for line in text.splitlines() if line.startswith("001")}
    # Jansen, start rank 1 (ranking 0): won against Pietersen (2) with white, lost to de Zeeuw
    # (6) with black, beat Slager (4) with white: 2 points, third in ranking 3.
    assert lines["Jansen"] == (
        "001"
        + " "
        + "   1"  # 5-8 start rank
        + " "
        + "m"  # 10 sex
        + "   "  # 11-13 title
        + " "
        + "Jansen".ljust(33)  # 15-47 name
        + " "
        + "1834"  # 49-52 rating (KNSB list of 1 June)
        + " "
        + "NED"  # 54-56 federation
        + " "
        + "    8123456"  # 58-68 the player's id: the KNSB relation number
        + " "
        + "1961/04/09"  # 70-79 birth date
        + " "
        + " 2.0"  # 81-84 points
        + " "
        + "   3"  # 86-89 rank
        + "  "
        + "   2 w 1"  # 92-99 round 1
        + "  "
        + "   6 b 0"  # 102-109 round 2
        + "  "
        + "   4 w 1"  # 112-119 round 3
    )
    by_columns = {p.name: p for p in trf16.players(text)}
    de_zeeuw = by_columns["de Zeeuw"]
    assert (de_zeeuw.start_rank, de_zeeuw.sex, de_zeeuw.player_id, de_zeeuw.birth_date) == (
        6,
        "w",  # TRF-16's letter for a woman
        "7654321",
        "",  # not known: left blank
    )
    # Beat de Vries (5) with black, Jansen (1) with white, drew with de Bruin (10) with white.
    assert de_zeeuw.rounds == (
        trf16.Cell(5, "b", "1"),
        trf16.Cell(1, "w", "1"),
        trf16.Cell(10, "w", "="),
    )
    assert (de_zeeuw.points, de_zeeuw.rank, de_zeeuw.rating) == ("2.5", "1", "")
    bakker = by_columns["Bakker"]  # nothing known: sex, id and birth date blank
    assert (bakker.sex, bakker.player_id, bakker.birth_date) == (" ", "", "")
    assert (bakker.points, bakker.rank) == ("0.5", "10")  # a draw and two losses; last
    assert [p.start_rank for p in by_columns.values()] == list(range(1, 11))
    # The `trf` package reads the same.
    parsed = {p.name: p for p in trf.loads(text).players}
    assert (parsed["Jansen"].id, parsed["Jansen"].birthdate, parsed["Jansen"].sex) == (
        8123456,
        "1961/04/09",
        "m",
    )
    assert parsed["de Zeeuw"].sex == "w" and parsed["de Zeeuw"].points == 2.5
    assert [(g.startrank, g.color, g.result) for g in parsed["Jansen"].games] == [
        (2, "w", "1"),
        (6, "b", "0"),
        (4, "w", "1"),
    ]


def test_the_header_names_the_arbiter_the_rate_of_play_and_the_round_dates(reported):
    text = trf_text(reported)
    assert text.endswith("\r\n") and text.count("\n") == text.count("\r\n")  # CR ends a line
    head = trf16.headers(text)
    assert head["012"] == "DSC interne competitie 2026-2027"
    assert (head["022"], head["032"]) == ("Drachten", "NED")
    assert (head["042"], head["052"]) == ("2026/09/03", "2026/09/17")  # YYYY/MM/DD
    assert (head["062"], head["072"]) == ("10", "1")  # ten players, Jansen rated
    assert head["102"] == "Hendrik Postma"
    assert head["122"] == RULE_I
    # Round r's date stands above round r's cells: columns 92-99, 102-109, 112-119.
    assert trf16.round_dates(text) == ["26/09/03", "26/09/10", "26/09/17"]
    line_132 = next(line for line in text.splitlines() if line.startswith("132"))
    assert line_132[91:99] == "26/09/03" and line_132[111:119] == "26/09/17"
    parsed = trf.loads(text)
    assert (parsed.chiefarbiter, parsed.rateofplay) == ("Hendrik Postma", RULE_I)
    assert parsed.rounddates == ["26/09/03", "26/09/10", "26/09/17"]


def two_rounds_with_byes_forfeits_and_absences():
    """Round 1: Jansen wins by forfeit against Pietersen, de Bruin has the bye, de Wit
    cancelled in time. Round 2: Jansen and Pietersen both forfeit; the rest absent for every
    reason there is."""
    season = worked_example_season(1)
    first = season.rounds[0]
    forfeit = first.games[0]._replace(result=Result.WHITE_WINS_BY_FORFEIT)
    round_1 = first._replace(
        games=(forfeit, *first.games[1:4]),
        bye="de-bruin",
        absent={"de-wit": Reason.EXCUSED},
    )
    round_2 = first._replace(
        games=(first.games[0]._replace(result=Result.DOUBLE_FORFEIT),),
        bye=None,
        absent={
            "bakker": Reason.UNEXCUSED,
            "slager": Reason.EXCUSED,
            "de-vries": Reason.LATE,
            "de-zeeuw": Reason.TEAM,
            "de-jonge": Reason.AUTO,
            "de-oude": Reason.EXCUSED,
            "de-wit": Reason.EXCUSED,
            "de-bruin": Reason.TEAM,
        },
    )
    return season._replace(rounds=(round_1, round_2))


def test_another_clubs_report_names_it_and_its_place(reported, arbiter_client):
    club = current()
    club.short_name, club.place = "Het Paard", "Paardstad"
    club.save()
    head = trf16.headers(trf_text(reported))
    assert (head["012"], head["022"]) == ("Het Paard interne competitie 2026-2027", "Paardstad")
    response = arbiter_client.get(reverse("arbiter:trf", args=[reported.pk]))
    assert 'filename="het-paard-2026-2027-classical.trf"' in response["Content-Disposition"]


def test_forfeits_byes_and_absences_have_their_codes_and_points(db):
    competition, _ = make_played_competition(
        two_rounds_with_byes_forfeits_and_absences(), chief_arbiter="Hendrik Postma"
    )
    players = {p.name: p for p in trf16.players(trf_text(competition))}
    # A forfeit names the opponent, gives no colour, and counts a win for who came.
    assert players["Jansen"].rounds == (trf16.Cell(2, "-", "+"), trf16.Cell(2, "-", "-"))
    assert players["Pietersen"].rounds == (trf16.Cell(1, "-", "-"), trf16.Cell(1, "-", "-"))
    assert (players["Jansen"].points, players["Pietersen"].points) == ("1.0", "0.0")
    # The Keizer bye (own value: a win against an equal) is a pairing-allocated bye, 1 point.
    assert players["de Bruin"].rounds == (trf16.Cell(0, "-", "U"), trf16.Cell(0, "-", "Z"))
    assert players["de Bruin"].points == "1.0"
    # Absences, whatever their Keizer share (⅓, ⅔, 0), are zero-point byes: no chess result.
    assert players["de Wit"].rounds == (trf16.Cell(0, "-", "Z"), trf16.Cell(0, "-", "Z"))
    assert players["de Wit"].points == "0.0"
    for name in ("Bakker", "Slager", "de Vries", "de Zeeuw", "de Jonge", "de Oude"):
        assert players[name].rounds[1] == trf16.Cell(0, "-", "Z")
    # Round 1's played games are there as before: Bakker ½ Slager with white.
    assert players["Bakker"].rounds[0] == trf16.Cell(4, "w", "=")
    parsed = {p.name: p for p in trf.loads(trf_text(competition)).players}
    assert [(g.startrank, g.result) for g in parsed["de Bruin"].games] == [(0, "U"), (0, "Z")]


@pytest.mark.parametrize(
    ("share", "points"),
    [
        (Fraction(1), Fraction(1)),  # DSC: the own value, a win against an equal
        (Fraction(1, 2), Fraction(1, 2)),
        (Fraction(0), Fraction(0)),
        (Fraction(2, 3), Fraction(1, 2)),  # 0.67 is nearer ½ than 1
        (Fraction(5, 6), Fraction(1)),  # 0.83 is nearer 1
        (Fraction(1, 4), Fraction(1, 2)),  # halfway: a half up
        (Fraction(1, 5), Fraction(0)),
        (Fraction(3, 2), Fraction(1)),  # never more than a win
    ],
)
def test_the_bye_is_worth_its_share_of_a_win_in_half_points(share, points):
    assert bye_points(Settings(bye_fraction=share)) == points


def test_a_bye_worth_half_a_win_is_a_half_point_bye(db):
    season = worked_example_season(1)
    first = season.rounds[0]
    round_1 = first._replace(
        games=first.games[:4], bye="de-bruin", absent={"de-wit": Reason.EXCUSED}
    )
    competition, _ = make_played_competition(
        season._replace(rounds=(round_1,)), bye_fraction=Fraction(1, 2), chief_arbiter="X"
    )
    de_bruin = next(p for p in trf16.players(trf_text(competition)) if p.name == "de Bruin")
    assert (de_bruin.rounds, de_bruin.points) == ((trf16.Cell(0, "-", "H"),), "0.5")


def test_the_command_and_the_admin_download(arbiter_client, reported):
    out = StringIO()
    call_command("export_trf", "--season", "2026-2027", stdout=out)
    assert out.getvalue() == trf_text(reported)
    response = arbiter_client.get(reverse("arbiter:trf", args=[reported.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="dsc-2026-2027-classical.trf"'
    assert response.content.decode() == out.getvalue()


def test_without_a_chief_arbiter_there_is_no_report_and_the_arbiter_is_told(
    arbiter_client, example_competition
):
    url = reverse("arbiter:trf", args=[example_competition.pk])
    response = arbiter_client.get(url, follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse(
        "admin:competition_competition_change", args=[example_competition.pk]
    )
    assert "Vul eerst de hoofdwedstrijdleider in" in page
    assert "attachment" not in response.get("Content-Disposition", "")
    with pytest.raises(CommandError, match="hoofdwedstrijdleider"):
        call_command("export_trf", "--season", "2026-2027", stdout=StringIO())


def test_the_arbiter_fills_in_the_rate_of_play_and_the_chief_arbiter(
    arbiter_client, example_competition
):
    url = reverse("admin:competition_competition_change", args=[example_competition.pk])
    page = arbiter_client.get(url).content.decode()
    assert "Ratingrapport (TRF)" in page and "Hoofdwedstrijdleider" in page
    assert RULE_I in page  # DSC rule i's rate by default
    example_competition.refresh_from_db()
    assert example_competition.rate_of_play == RULE_I


def test_a_new_season_keeps_the_rate_of_play_and_the_chief_arbiter(reported):
    reported.rate_of_play = "90 min + 30 s per zet"
    reported.save()
    new = seasons.create_season("2027-2028", [date(2027, 9, 2)])
    assert (new.rate_of_play, new.chief_arbiter) == ("90 min + 30 s per zet", "Hendrik Postma")


def test_an_imported_rapid_competition_has_no_rate_of_play_until_the_arbiter_gives_one(db):
    rapid = services.import_season(
        "2026-2027", Competition.Kind.RAPID, worked_example_season(1), date(2026, 9, 8), NOW
    )
    classical = services.import_season(
        "2026-2027", Competition.Kind.CLASSICAL, worked_example_season(1), date(2026, 9, 3), NOW
    )
    assert (rapid.rate_of_play, classical.rate_of_play) == ("", RULE_I)


def test_a_competition_added_in_the_admin_starts_without_a_rate_and_is_not_reported_so(
    arbiter_client, reported
):
    """A rapid competition added in the admin must not carry the internal competition's
    rate into the federation's file: the field starts empty, and the report is refused until
    the arbiter fills it in."""
    assert Competition(kind=Competition.Kind.RAPID).rate_of_play == ""
    reported.rate_of_play = ""
    reported.save()
    assert trf_export.problems(reported) == [
        "Vul eerst het speeltempo in: de bond heeft het nodig om de partijen te raten."
    ]


def test_the_demo_season_reads_back_column_by_column(demo):
    competition = Competition.objects.get(season__name="2026-2027", kind="classical")
    text = trf_text(competition)
    lines = trf16.players(text)
    assert len(lines) == 40 and sorted(int(p.rank) for p in lines) == list(range(1, 41))
    assert trf16.round_dates(text) == [
        r.date.strftime("%y/%m/%d") for r in competition.rounds.filter(number__lte=12)
    ]
    head = trf16.headers(text)
    assert (head["102"], head["122"]) == ("Gerrit Smit", RULE_I)
    by_rank = {p.start_rank: p for p in lines}
    worth = {"1": 1, "=": 0.5, "+": 1, "U": 1, "0": 0, "-": 0, "Z": 0}
    opposite = {"w": "b", "b": "w", "-": "-"}
    answer = {"1": {"0"}, "0": {"1"}, "=": {"="}, "+": {"-"}, "-": {"+", "-"}}
    for player in lines:
        assert len(player.rounds) == 12
        # The points are the sum of the cells, as a reader of the file adds them up.
        assert float(player.points) == sum(worth[cell.result] for cell in player.rounds)
        for number, cell in enumerate(player.rounds, start=1):
            if cell.opponent:  # the opponent's cell tells the same game
                theirs = by_rank[cell.opponent].rounds[number - 1]
                assert theirs.opponent == player.start_rank
                assert theirs.colour == opposite[cell.colour]
                assert theirs.result in answer[cell.result]
            else:
                assert (cell.colour, cell.result) in {("-", "U"), ("-", "Z")}
    for number in range(12):
        assert sum(p.rounds[number].result == "U" for p in lines) <= 1  # one bye a round
    assert {p.rounds[number].result for p in lines for number in range(12)} >= {"U", "+", "-"}
    # Every member's record as the arbiter keeps it; the newcomer of round 6 has Z before.
    participants = Participant.objects.filter(competition=competition).select_related("member")
    start = {p.pk: rank for rank, p in enumerate(participants.order_by("initial_position"), 1)}
    for participant in participants:
        line = by_rank[start[participant.pk]]
        record = participant.member
        assert line.name == record.name
        assert line.player_id == (str(record.knsb_number) if record.knsb_number else "")
        assert line.sex == {"male": "m", "female": "w", "": " "}[record.sex]
        assert line.birth_date == (f"{record.birth_date:%Y/%m/%d}" if record.birth_date else "")
        if participant.joined_round == 6:
            assert line.rounds[:5] == (trf16.Cell(0, "-", "Z"),) * 5
    assert sum(1 for p in lines if p.birth_date) == 32 and {p.sex for p in lines} == {"m", "w", " "}
    assert sum(1 for p in lines if not p.player_id) == 2  # the two with estimated ratings
    assert trf.loads(text).numplayers == 40


def test_the_rapid_report_has_its_own_rate_and_guests_without_an_id(demo):
    rapid = Competition.objects.get(season__name="2026-2027", kind="rapid")
    text = trf_text(rapid)
    assert trf16.headers(text)["122"] == "15 min + 5 s per zet"
    guests = [p for p in trf16.players(text) if p.name in ("Piet Oosterhuis", "Klaas Bosch")]
    assert len(guests) == 2
    assert all((g.player_id, g.sex, g.birth_date) == ("", " ", "") for g in guests)
    assert trf16.round_dates(text).count("26/09/08") == 3  # three rounds on one evening
