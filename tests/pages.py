"""The site's pages, for the checks that visit them all (axe, the HTML checker, the layout
check, the fuzz test): read from the URL configuration itself, the admin's included, with an
existing object's key where an address takes one. A new page is visited without being listed."""

import re

from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

# Paths the arbiter's pages take, by their first part: an object of that model, so the page
# behind the address is reached (a missing object is only a 404).
MODEL_OF_PART = {
    "ronde": "competition.Round",
    "partij": "competition.Game",
    "afwezigheid": "competition.Absence",
    "e-mail": "operations.OutgoingMail",
    "leden": "members.Member",
    "seizoen": "competition.Season",
    "competitie": "competition.Competition",
    "spelers": "competition.Participant",
}
SKIPPED = {"accounts/logout/"}  # logs the role out: the rest would be asked anonymously
# The admin's confirmation before deleting a season or a competition lists every row it would
# take with it (seconds on the demo); the same page of Django's is visited for the other models.
SLOW_TO_VISIT = (
    "beheer/competition/season/<path:object_id>/delete/",
    "beheer/competition/competition/<path:object_id>/delete/",
)

# The pages that show a member something of their own (their row, their game, the prizes they
# are in the running for, their evenings and profile), besides the home page: the other public
# pages differ from a visitor's only in the menu, which these show too.
MEMBERS_OWN = ("/ranglijst/", "/indeling/", "/prijzen/", "/afmelden/", "/profiel/", "/partij/")


def members_own(path: str) -> bool:
    return path == "/" or path.startswith(MEMBERS_OWN)


# The admin's pages that are one template for every model (a history, the confirmation before a
# deletion): visited for the first model of each kind of admin.
ONE_FOR_ALL_MODELS = (".history_view", ".delete_view")


def addresses() -> list[tuple[str, str]]:
    """Every route of the site: (pattern, the view's dotted name)."""

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.lookup_str

    found = dict.fromkeys(walk(get_resolver().url_patterns))
    return [route for route in found if route[0] not in SKIPPED and "(?P" not in route[0]]


def filled(route: str, value: str | None) -> str:
    """The route with its parameters filled: an existing object's key (or round number) when
    `value` is None, else the hostile value where the converter lets it through."""
    parts = route.split("/")

    def existing(index: int, converter: str) -> str:
        before = parts[index - 1] if index else ""
        admin_model = re.match(r"beheer/(\w+)/(\w+)/<", route)
        if admin_model:
            model = apps.get_model(admin_model[1], admin_model[2])
        elif before in MODEL_OF_PART:
            model = apps.get_model(MODEL_OF_PART[before])
        else:
            return "1" if converter != "slug" else first_article_slug()
        first = model._default_manager.order_by("pk").first()
        return str(first.pk) if first else "1"

    out = []
    for index, part in enumerate(parts):

        def fill(match, index=index):
            converter = match[1] or "str"
            if value is None:
                return existing(index, converter)
            if converter == "int":
                return value if value.isdigit() else "99999999999999999999"
            return re.sub(r"[/\x00-\x1f]", "", value) or "x"

        out.append(re.sub(r"<(?:(\w+):)?\w+>", fill, part))
    return "/" + "/".join(out)


def first_article_slug() -> str:
    first = apps.get_model("training.Article").objects.order_by("pk").first()
    return first.slug if first else "eerste-artikel"


def client_for(account: tuple[str, str] | None) -> Client:
    """A test client logged in as `account` (None: a visitor)."""
    client = Client(raise_request_exception=False)
    if account:
        client.force_login(get_user_model().objects.get(username=account[0]))
    return client


def pages_of(
    account: tuple[str, str] | None,
    admin: bool = False,
    public: bool = True,
    extra: tuple[str, ...] = (),
    one_per_view: bool = False,
) -> list[str]:
    """Every page (an HTML answer 200) that `account` (None: a visitor) opens at the site's
    addresses, filled with existing keys, and at `extra`: the paths of states the demo does not
    show at its first objects (a draft pairing, say). The arbiter's pages (/beheer/) only with
    `admin`; without, of those only the admin's login page; the others only with `public`.
    The admin's history and deletion pages once per kind of admin (ONE_FOR_ALL_MODELS). With
    `one_per_view`, a public view's first page only: the same template for other data (an
    earlier ranking, the rapid competition's) is left out."""
    client = client_for(account)
    found, represented = [], set()
    for route, view in addresses():
        arbiters = route.startswith("beheer/") and route != "beheer/login/"
        wanted = admin if arbiters else public
        if route in SLOW_TO_VISIT or not wanted or view in represented:
            continue
        if view.endswith(ONE_FOR_ALL_MODELS) or (one_per_view and not arbiters):
            represented.add(view)
        path = filled(route, None)
        response = client.get(path)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            found.append(path)
    return list(dict.fromkeys([*found, *extra]))
