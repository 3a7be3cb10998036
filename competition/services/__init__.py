"""The workflows that write a competition's rows, each one transaction with its checks.

Games, results, absences, draft pairings and ranking snapshots are written here and nowhere
else: the arbiter's pages, the absences app, the worker and the commands call these functions
(as `services.make_pairing`, …). A refused workflow raises `CompetitionError` and changes
nothing. The engine is reached through `exchange`. Every write here to a model a public page
shows makes the cached pages old by itself (`base.page_cache`): no workflow has to say so.

One module per job: `guards` (refusals, closed seasons, locks), `keizer` (the competition's
Keizer variant), `rankings`, `pairing` (and publication), `round_page`, `absences`, `results`
(the arbiter's and the players'), `rapid` (the rapid evening), `season_files`.
"""

from competition.services.absences import (
    decide_team_claim,
    record_absence,
    record_forfeit,
    remove_absence,
)
from competition.services.club_week import change_club
from competition.services.guards import (
    CompetitionError,
    OutOfDate,
    closed_season_problems,
    refuse_if_closed,
)
from competition.services.keizer import choose_keizer
from competition.services.pairing import (
    RECENT_GAMES,
    Basis,
    Board,
    discard_draft,
    make_pairing,
    pairing_basis,
    pairing_problems,
    pairing_warning_texts,
    publication_problems,
    publish,
    publish_due,
)
from competition.services.rankings import (
    claim_correction_mail,
    correct_rankings,
    ranking_changes,
    recompute_rankings,
    refresh_rankings,
)
from competition.services.rapid import (
    finish_rapid_round,
    next_rapid_round_number,
    pair_rapid_round,
    rapid_evening_problems,
    refuse_final_changes,
    save_rapid_results,
    unfinished_boards,
    withdraw_rapid_round,
)
from competition.services.results import (
    decide_result,
    enter_results,
    report_problems,
    report_result,
)
from competition.services.round_page import (
    ROUND_PAGE_FIELDS,
    absence_problems,
    board_problems,
    save_round,
    unseated_without_absence,
)
from competition.services.season_files import import_season, load_season, season_import_rows

__all__ = [
    "RECENT_GAMES",
    "ROUND_PAGE_FIELDS",
    "Basis",
    "Board",
    "CompetitionError",
    "OutOfDate",
    "absence_problems",
    "board_problems",
    "change_club",
    "choose_keizer",
    "claim_correction_mail",
    "closed_season_problems",
    "correct_rankings",
    "decide_result",
    "decide_team_claim",
    "discard_draft",
    "enter_results",
    "finish_rapid_round",
    "import_season",
    "load_season",
    "make_pairing",
    "next_rapid_round_number",
    "pair_rapid_round",
    "pairing_basis",
    "pairing_problems",
    "pairing_warning_texts",
    "publication_problems",
    "publish",
    "publish_due",
    "ranking_changes",
    "rapid_evening_problems",
    "recompute_rankings",
    "record_absence",
    "record_forfeit",
    "refresh_rankings",
    "refuse_final_changes",
    "refuse_if_closed",
    "remove_absence",
    "report_problems",
    "report_result",
    "save_rapid_results",
    "save_round",
    "season_import_rows",
    "unfinished_boards",
    "unseated_without_absence",
    "withdraw_rapid_round",
]
