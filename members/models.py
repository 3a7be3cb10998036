"""Club members: who plays, and how strong they are."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class MemberQuerySet(models.QuerySet):
    def active(self):
        return self.filter(is_active=True)


class Member(models.Model):
    name = models.CharField(_("name"), max_length=100)
    knsb_number = models.PositiveIntegerField(
        _("KNSB relation number"), unique=True, null=True, blank=True
    )
    email = models.EmailField(_("e-mail"), blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="member",
    )
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    rating_is_estimate = models.BooleanField(
        _("estimated rating"), default=False, help_text=_("Estimated by the arbiter.")
    )

    objects = MemberQuerySet.as_manager()

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
