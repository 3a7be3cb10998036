"""Who runs the competition: the group Wedstrijdleiding and what it may do (the arbiter's
pages and the models of the competition, the members and the cancellations, the login lockouts,
the e-mails that did not arrive, the training articles, the club's name and week). One
definition: the demo's arbiter and the tests' have it; a club gives its arbiter's account staff
status and this group."""

from django.contrib.auth.models import Group, Permission

from training import writers

ARBITER_GROUP = "Wedstrijdleiding"
ARBITER_APPS = ("competition", "members", "absences")
# Login lockouts: see them and lift one.
LOCKOUT_PERMISSIONS = ("view_accessattempt", "delete_accessattempt")
# The outbox: see an e-mail that did not arrive and send it again (the start page).
MAIL_PERMISSIONS = ("view_outgoingmail", "change_outgoingmail")
# The club's row (issue 40): its name, sender and week, seen and changed, never added or deleted.
CLUB_PERMISSIONS = ("view_club", "change_club")


def arbiter_permissions():
    return (
        Permission.objects.filter(content_type__app_label__in=ARBITER_APPS)
        | Permission.objects.filter(
            content_type__app_label="axes", codename__in=LOCKOUT_PERMISSIONS
        )
        | Permission.objects.filter(
            content_type__app_label="operations", codename__in=MAIL_PERMISSIONS
        )
        | club_permissions()
        | writers.writing_permissions()
    )


def club_permissions():
    return Permission.objects.filter(content_type__app_label="club", codename__in=CLUB_PERMISSIONS)


def board_permissions():
    """The board (group Bestuur): the training articles and the club's page."""
    return writers.writing_permissions() | club_permissions()


def arbiter_group() -> Group:
    """The group, made if needed, with exactly the arbiter's permissions."""
    group, _created = Group.objects.get_or_create(name=ARBITER_GROUP)
    group.permissions.set(arbiter_permissions())
    return group
