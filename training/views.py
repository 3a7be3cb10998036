"""The training corner for visitors: the list of articles and an article. Both public pages (the
same for everybody), so visitors get them from the page cache."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from base.page_cache import public_page
from training.models import Article


@public_page
def article_list(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    articles = Article.objects.published(today).defer("body")
    return render(request, "training/article_list.html", {"articles": articles})


@public_page
def article(request: HttpRequest, slug: str) -> HttpResponse:
    """A published article; a draft or one whose date has not come is not found (404)."""
    today = timezone.localdate()
    found = get_object_or_404(Article.objects.published(today), slug=slug)
    return render(request, "training/article.html", {"article": found})
