"""Articles the club publishes for its members (the training corner): written in Markdown by the
arbiter or a board member in the admin, shown at /training/ once their publication date has
come."""

from __future__ import annotations

from datetime import date

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

SUMMARY_MAX_LENGTH = 400


class ArticleQuerySet(models.QuerySet):
    def published(self, today: date):
        """What a visitor may read: articles whose publication date has come, newest first."""
        return self.filter(published_on__lte=today).order_by("-published_on", "-pk")


class Article(models.Model):
    title = models.CharField(_("title"), max_length=200)
    slug = models.SlugField(
        _("address"),
        max_length=100,
        unique=True,
        help_text=_(
            "The last part of the article's address on the site, as in "
            "/training/schaakregels-remise/."
        ),
        error_messages={"unique": _("There is already an article with this address.")},
    )
    summary = models.TextField(
        _("introduction"),
        max_length=SUMMARY_MAX_LENGTH,
        help_text=_("One or two sentences for the list of articles (plain text)."),
    )
    body = models.TextField(
        _("text"),
        help_text=_(
            "Markdown: ## heading, - list item, 1. numbered item, **bold**, *italic*, "
            "[text](https://…) for a link, a blank line between paragraphs. "
            "HTML is shown as text."
        ),
    )
    author = models.CharField(
        _("author"),
        max_length=100,
        blank=True,
        help_text=_("The name shown under the title (may be left empty)."),
    )
    published_on = models.DateField(
        _("published on"),
        null=True,
        blank=True,
        help_text=_(
            "Empty: a draft, seen only in the management pages. From this date on the article "
            "is on the site."
        ),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords()

    objects = ArticleQuerySet.as_manager()

    class Meta:
        verbose_name = _("article")
        verbose_name_plural = _("articles")
        ordering = [models.F("published_on").desc(nulls_first=True), "title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("training:article", args=[self.slug])

    def is_published(self, today: date) -> bool:
        return self.published_on is not None and self.published_on <= today
