"""The club's week: what happens at its time around a club evening, and how members follow it.

The worker (`worker.py`, run by `manage.py run_worker`) publishes the pairing at Friday 20:00,
tells the arbiter when it waits, e-mails the pairing (`pairing_mail.py`), keeps the rankings
up to date and e-mails the new one once the evening's results are final (`ranking_mail.py`);
the calendar feeds (`calendar.py` builds them, `feeds.py` serves them) show the same evenings.

It sits above `absences`: the worker applies rule k (`absences.services.apply_no_show_rule`)
and the member's feed reads the member's evenings (`absences.services.season_evenings`), so
this app imports `absences` and never the other way round.
"""

from django.apps import AppConfig


class ClubWeekConfig(AppConfig):
    name = "clubweek"
