"""Pages of text the arbiter edits, such as the competition rules."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class Page(models.Model):
    """A page of text the arbiter edits in the admin, such as the competition rules."""

    slug = models.SlugField(_("address"), unique=True)
    title = models.CharField(_("title"), max_length=200)
    body = models.TextField(_("text"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("page")
        verbose_name_plural = _("pages")

    def __str__(self) -> str:
        return self.title
