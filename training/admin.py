"""Articles in the admin: the arbiter and the board write them in Markdown, look at a preview
(drafts too) and publish them by giving a date. The history pages are the competition's Dutch
ones."""

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from base.history import HistoryAdmin
from training.models import Article


class ArticleForm(forms.ModelForm):
    class Meta:
        model = Article
        fields = ["title", "slug", "summary", "body", "author", "published_on"]
        widgets = {
            "summary": forms.Textarea(attrs={"rows": 3}),
            "body": forms.Textarea(attrs={"rows": 24}),
        }


@admin.register(Article)
class ArticleAdmin(HistoryAdmin):
    revert_allowed = True  # a text: an old version is simply saved again
    form = ArticleForm
    list_display = ("title", "publication", "updated_at", "preview_link")
    search_fields = ("title",)
    prepopulated_fields = {"slug": ("title",)}
    change_form_template = "admin/training/article/change_form.html"

    @admin.display(description=_("published on"), ordering="published_on")
    def publication(self, article: Article) -> str:
        if article.published_on is None:
            return _("Draft")
        return date_format(article.published_on, "j F Y")

    @admin.display(description=_("preview"))
    def preview_link(self, article: Article) -> str:
        url = reverse("admin:training_article_preview", args=[article.pk])
        return format_html('<a href="{}">{}</a>', url, _("Preview"))

    def view_on_site(self, article: Article) -> str | None:
        """Only a published article has a page on the site (a draft's, or one dated later,
        would be a 404)."""
        if not article.is_published(timezone.localdate()):
            return None  # a draft, or dated later: its page is a 404 until then
        return article.get_absolute_url()

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        return {"author": request.user.get_full_name(), **initial}

    def get_urls(self):
        return [
            path(
                "<int:object_id>/voorbeeld/",
                self.admin_site.admin_view(self.preview_view),
                name="training_article_preview",
            ),
            *super().get_urls(),
        ]

    def preview_view(self, request, object_id: int):
        """The article as a visitor will read it, drafts included (never cached: personal)."""
        article = get_object_or_404(Article, pk=object_id)
        if not self.has_view_or_change_permission(request, article):
            raise PermissionDenied
        return render(
            request,
            "training/article.html",
            {
                "article": article,
                "preview": True,
                "published": article.is_published(timezone.localdate()),
                "change_url": reverse("admin:training_article_change", args=[article.pk]),
            },
        )
