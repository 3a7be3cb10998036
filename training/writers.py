"""Who writes the training articles: the board (group Bestuur) and the arbiter (group
Wedstrijdleiding), with these permissions. Migration 0002 gave both groups them; the demo uses
this module. A plain member has none of them."""

from django.contrib.auth.models import Permission

BOARD_GROUP = "Bestuur"
CODENAMES = ("view_article", "add_article", "change_article", "delete_article")


def writing_permissions():
    return Permission.objects.filter(content_type__app_label="training", codename__in=CODENAMES)
