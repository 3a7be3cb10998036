"""The site's own settings with test values for what production must set itself."""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("SITE_URL", "http://127.0.0.1:8000")
os.environ.setdefault(
    "STATICFILES_BACKEND", "django.contrib.staticfiles.storage.StaticFilesStorage"
)

from dsc_site.settings import *  # noqa: F403

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
}
