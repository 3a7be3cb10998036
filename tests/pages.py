"""The site's public pages, as the accessibility and markup checks visit them (a player page is
added by each check, since its address needs a key of the demo)."""

PUBLIC_PAGES = [
    "/",
    "/ranglijst/",
    "/indeling/",
    "/prijzen/",
    "/reglement/",
    "/teamspelers/",
    "/training/",
    "/wat-als/",
    "/rapid/ranglijst/",
    "/rapid/indeling/",
    "/accounts/login/",
    "/accounts/password_reset/",
    "/toegankelijkheid/",
]
