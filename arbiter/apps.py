"""The arbiter's application: the pages of the wedstrijdleider's week in /beheer/ (the start
page, a round's steps, the rapid evening, a season's and a competition's steps), beside the
admin's model lists. Plain function views: `urls.py` is the one table of addresses, `pages.py`
the one access helper; every change goes through `competition.services` or the domain modules
it names."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArbiterConfig(AppConfig):
    name = "arbiter"
    verbose_name = _("Arbiter")
