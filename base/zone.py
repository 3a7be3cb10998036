"""The club's time zone: the site's clock (settings.TIME_ZONE) and every log line's
(`operations.logs.moment`), which must be written even when the settings cannot be read."""

CLUB_ZONE = "Europe/Amsterdam"
