"""A page made for a logged-in person (their profile with its calendar link, their evenings,
their own row marked) is theirs alone: `Cache-Control: private, no-store`, so neither a shared
cache nor the browser's disk keeps it. Pages that say otherwise themselves keep their word."""

from django.utils.cache import patch_cache_control


class PrivatePagesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response
