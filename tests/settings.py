"""The site's own settings with test values for what production must set itself.

The suite runs with these values whatever the shell that starts it has exported: every variable
dsc_site/settings.py reads is dropped first. Only DATABASE_URL (read by dj-database-url) comes
from outside: it chooses the database the suite runs on (PostgreSQL in CI). An ALLOWED_HOSTS=*
left in the shell made the page cache's test of a foreign host get a page instead of a 400."""

import os
import re
from pathlib import Path


def drop_the_site_variables() -> None:
    """Every variable dsc_site/settings.py reads, removed from this process's environment."""
    site_settings = Path(__file__).resolve().parents[1] / "dsc_site" / "settings.py"
    read = r'(?:environ\.get\(|env_\w+\(|checked\(\s*env_\w+,)\s*"([A-Z][A-Z0-9_]*)"'
    for name in set(re.findall(read, site_settings.read_text(encoding="utf-8"))):
        os.environ.pop(name, None)


drop_the_site_variables()
os.environ.update(
    SECRET_KEY="test-secret-key-not-for-production-but-long-enough-0123456789",
    ALLOWED_HOSTS="testserver,localhost,127.0.0.1",
    SECURE_SSL_REDIRECT="false",
    SITE_URL="http://127.0.0.1:8000",
    STATICFILES_BACKEND="django.contrib.staticfiles.storage.StaticFilesStorage",
)

from dsc_site.settings import *  # noqa: E402, F403
from dsc_site.settings import DATABASES  # noqa: E402

# Static files straight from the finders: no collectstatic before the tests.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Passwords hash quickly in tests (the lockout tests type dozens); production keeps Django's.
# django-axes stays on: the tests log in with force_login, which does not authenticate, and
# the lockout tests post the login forms.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Daily backups only where a test asks for them (override_settings(BACKUP_DIR=...)).
BACKUP_DIR = ""

# Each test process keeps its pages in memory (the live server runs in a thread beside it).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "TIMEOUT": 120},
    "questions": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "questions",
        "TIMEOUT": 120,
    },
    "limits": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits"},
    "reports": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "reports",
        "TIMEOUT": 24 * 3600,
    },
}

# The tests that commit empty the tables with a DELETE each, not one TRUNCATE of them all: the
# same empty tables in a tenth of the time (tests/postgresql/base.py).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "tests.postgresql"
