"""The club for every template (`{{ club.name }}`), read when a template first asks for it:
once per request (`club.current()`)."""

from django.utils.functional import SimpleLazyObject

from club.models import current


def club(request) -> dict:
    return {"club": SimpleLazyObject(current)}
