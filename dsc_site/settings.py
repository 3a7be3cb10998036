"""Settings for the DSC club site: one module, read from the environment, safe defaults.

DEBUG is off unless asked for; with DEBUG off the site refuses to start without SECRET_KEY and
ALLOWED_HOSTS. Every variable is listed in `.env.example`.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from datetime import time, timedelta
from email.utils import formataddr, parseaddr
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from base.zone import CLUB_ZONE

BASE_DIR = Path(__file__).resolve().parent.parent

# Every configuration mistake found, said together at the end as one line (issue 38: a
# volunteer fixes them all at once); `manage.py` prints it and every process stops.
_problems: list[str] = []


def checked(read, *args, fallback=None):
    """`read(*args)`, or `fallback` with its mistake noted for the end of the module."""
    try:
        return read(*args)
    except ImproperlyConfigured as mistake:
        _problems.append(str(mistake))
        return fallback


def env_int(name: str, default: int, least: int = 0) -> int:
    """A whole number of at least `least` from the environment."""
    value = os.environ.get(name) or str(default)
    if not value.lstrip("-").isdigit() or int(value) < least:
        raise ImproperlyConfigured(
            f"{name} must be a whole number of {least} or more, not {value!r}"
        )
    return int(value)


def env_bool(name: str, default: bool = False) -> bool:
    """True/False from the environment; anything else is a configuration error."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def env_time(name: str, default: str) -> time:
    """A wall-clock time such as 18:00 from the environment."""
    value = os.environ.get(name) or default
    try:
        return time.fromisoformat(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a time such as 18:00, not {value!r}") from None


def env_weekday(name: str, default: int) -> int:
    """A weekday number, Monday = 0 to Sunday = 6."""
    value = os.environ.get(name) or str(default)
    if value not in {str(day) for day in range(7)}:
        raise ImproperlyConfigured(f"{name} must be a weekday 0 (Monday) to 6, not {value!r}")
    return int(value)


def named_address(name: str, value: str) -> str:
    """An address with the club's display name, unless it already names someone."""
    display, address = parseaddr(value)
    if not address or "@" not in address:
        raise ImproperlyConfigured(f"Not an e-mail address: {value!r}")
    return formataddr((display or name, address)) if name or display else address


def site_url(value: str, debug: bool, hosts: list[str]) -> str:
    """The site's public address for links in e-mails: SITE_URL, else the development server
    (DEBUG) or https:// and the first of ALLOWED_HOSTS."""
    if not value:
        if debug:
            return "http://127.0.0.1:8000"
        host = hosts[0].lstrip(".") if hosts else ""
        if not host or "*" in host:
            raise ImproperlyConfigured("Set SITE_URL to the site's address, such as https://…")
        return f"https://{host}"
    if not value.startswith(("https://", "http://")):
        raise ImproperlyConfigured(f"SITE_URL must start with https:// or http://, not {value!r}")
    return value.rstrip("/")


def served_host_problems(url: str, address: str, allowed: list[str]) -> list[str]:
    """The site's own hosts (SITE_URL's, and each of Caddy's SITE_ADDRESS) that ALLOWED_HOSTS
    does not allow."""
    from django.http.request import split_domain_port, validate_host

    hosts = [urlsplit(url).hostname or ""]
    for item in address.replace(",", " ").split():
        if "://" not in item:
            item = f"https://{item}"
        hosts.append(split_domain_port(urlsplit(item).netloc)[0])
    return [
        f"{host} (the site's address) is not in ALLOWED_HOSTS ({', '.join(allowed)}): every "
        "page would answer 400"
        for host in dict.fromkeys(h for h in hosts if h)
        if not validate_host(host, allowed)
    ]


DEBUG = checked(env_bool, "DEBUG", fallback=False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if DEBUG:
    SECRET_KEY = SECRET_KEY or "insecure-development-key-only-for-debug"
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost"]
elif not SECRET_KEY or not ALLOWED_HOSTS:
    _problems.append("Set SECRET_KEY and ALLOWED_HOSTS (or DEBUG=true for development).")
elif len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    # What Django's deploy check asks (security.W009), enforced: a short key signs the
    # no-password links and sessions that anyone could then forge.
    _problems.append(
        "SECRET_KEY is too short or too plain: use at least 50 random characters, e.g. the "
        "output of python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )

INSTALLED_APPS = [
    "dsc_site.apps.ClubAdminConfig",  # django.contrib.admin, its site ours
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    "club",
    "members",
    "competition",
    "absences",
    "clubweek",
    "training",
    "arbiter",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "base.input_checks.InputChecksMiddleware",  # before CSRF: its POST is read, checked
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "base.private_pages.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "dsc_site.urls"
WSGI_APPLICATION = "dsc_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "club.context_processors.club",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        # A connection is kept for a minute and checked before it is used again, so a
        # database restart costs a new connection, never a visitor's 500.
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # `make run`'s web process and worker share one SQLite file. Write-ahead logging lets
    # readers go on beside a writer; every transaction takes the write lock when it begins
    # (IMMEDIATE), so one that read first never fails with "database is locked" when it comes to
    # write (SQLite refuses that upgrade at once instead of waiting); and a writer waits up to
    # 20 s for another to finish.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", "Nederlands")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = CLUB_ZONE
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": os.environ.get(
            "STATICFILES_BACKEND", "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_REDIRECT_URL = "/"
# A session lives while it is used: every request gives it another two weeks, so an arbiter
# typing a season's results is never logged out mid-entry, and an account left alone for two
# weeks logs in again. (A form posted after all the same comes back filled: arbiter.pages.)
SESSION_COOKIE_AGE = 14 * 24 * 3600
SESSION_SAVE_EVERY_REQUEST = True
# A new password's link (members.accounts.reset_tokens) works once, for 3 days (Django's
# default), and not after the member's address changed; an invitation has its own 14 days
# (members.accounts.INVITATION_LIFETIME).
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600
# Every way of choosing a password (the invitation, the new password by e-mail, the profile, the
# admin, createsuperuser and changepassword): Django's validators, with the help under the field
# in the site's words (members/passwords.py).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "members.passwords.LongEnough", "OPTIONS": {"min_length": 10}},
    {"NAME": "members.passwords.NotCommon"},
    {"NAME": "members.passwords.NotLikeTheMember"},
    {"NAME": "members.passwords.NotOnlyDigits"},
]
LOGOUT_REDIRECT_URL = "/"

# In development whitenoise serves from the finders; production serves the collected files.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Every e-mail is first a row of the outbox, sent by the worker with the delivery backend
# (operations/outbox.py): SMTP in production (EMAIL_BACKEND in the environment), the console
# for development. Django's SMTP backend, as the environment names it, is delivered through the
# site's own subclass (operations/smtp.py), which waits for the reply to a whole message.
EMAIL_BACKEND = "operations.outbox.OutboxBackend"
EMAIL_DELIVERY_BACKEND = os.environ.get(
    "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
if EMAIL_DELIVERY_BACKEND == "django.core.mail.backends.smtp.EmailBackend":
    EMAIL_DELIVERY_BACKEND = "operations.smtp.EmailBackend"
EMAIL_TIMEOUT = 20  # seconds for connecting and each command: a dead server is noticed soon
EMAIL_DATA_REPLY_TIMEOUT = 600  # seconds for the reply to a whole message (RFC 5321 4.5.3.2.6)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = checked(env_int, "EMAIL_PORT", 25, 1, fallback=25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = checked(env_bool, "EMAIL_USE_TLS", fallback=False)
# Mail comes from the club by name: "DSC Drachten" <address> (MAIL_FROM_NAME, DEFAULT_FROM_EMAIL);
# a member who answers reaches the arbiter (operations/letters.py sets Reply-To).
MAIL_FROM_NAME = os.environ.get("MAIL_FROM_NAME", "DSC Drachten")
DEFAULT_FROM_EMAIL = checked(
    named_address,
    MAIL_FROM_NAME,
    os.environ.get("DEFAULT_FROM_EMAIL", "wedstrijdleider@dscdrachten.nl"),
    fallback="wedstrijdleider@dscdrachten.nl",
)
# DKIM (operations/signatures.py): the club's private key signs every outgoing message when a key
# file is set; the README says which DNS records go with it.
DKIM_PRIVATE_KEY_FILE = os.environ.get("DKIM_PRIVATE_KEY_FILE", "")
DKIM_SELECTOR = os.environ.get("DKIM_SELECTOR", "dsc")
DKIM_DOMAIN = os.environ.get("DKIM_DOMAIN") or parseaddr(DEFAULT_FROM_EMAIL)[1].rpartition("@")[2]
if DKIM_PRIVATE_KEY_FILE and not Path(DKIM_PRIVATE_KEY_FILE).is_file():
    _problems.append(f"DKIM_PRIVATE_KEY_FILE {DKIM_PRIVATE_KEY_FILE!r} is not a file")

# The club's week (rules section 7, DSC rule v): cancel until 18:00 on the last Friday before
# the club evening; the pairing appears at 20:00 that Friday; results are provisional until
# 23:30 on the evening. Weekday: Monday = 0. Read only by `competition.schedule.club_week()`.
CLUB_DEADLINE_WEEKDAY = checked(env_weekday, "CLUB_DEADLINE_WEEKDAY", 4, fallback=4)
CLUB_DEADLINE_TIME = checked(env_time, "CLUB_DEADLINE_TIME", "18:00", fallback=time(18))
CLUB_PUBLICATION_TIME = checked(env_time, "CLUB_PUBLICATION_TIME", "20:00", fallback=time(20))
CLUB_RESULTS_FINAL_TIME = checked(
    env_time, "CLUB_RESULTS_FINAL_TIME", "23:30", fallback=time(23, 30)
)
# From then on only the arbiter cancels.
CLUB_PLAY_TIME = checked(env_time, "CLUB_PLAY_TIME", "19:45", fallback=time(19, 45))
ARBITER_EMAIL = os.environ.get("ARBITER_EMAIL", "wedstrijdleider@dscdrachten.nl")
SITE_URL = checked(
    site_url, os.environ.get("SITE_URL", ""), DEBUG, ALLOWED_HOSTS, fallback="https://invalid"
)
# The address the proxy serves the site at (Caddy's, in the same .env): a host the site does
# not allow answers every page with 400, health checks included (issue 38, finding 2).
SITE_ADDRESS = os.environ.get("SITE_ADDRESS", "")
if not DEBUG and ALLOWED_HOSTS:
    _problems += served_host_problems(SITE_URL, SITE_ADDRESS, ALLOWED_HOSTS)

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# --- Login throttling (django-axes; what the site adds is in dsc_site/lockouts.py) ------------
# Five wrong passwords for one account from one address lock that pair out for 30 minutes, on
# /accounts/login/ and /beheer/login/ alike; a new password by e-mail or the arbiter (/beheer/,
# Inlogblokkades → Blokkade opheffen) lifts it. Only failures are stored, not every login.
INSTALLED_APPS += ["dsc_site.apps.LoginLockoutsConfig"]
MIDDLEWARE += ["axes.middleware.AxesMiddleware"]  # turns a lockout into the Dutch page
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out pair before the password
    "members.backends.MemberLoginBackend",  # a username in any case, or the member's address
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=30)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False  # no "AXES: BEGIN" line from every command and worker start
AXES_ENABLE_ADMIN = False  # dsc_site/lockouts.py registers the arbiter's Dutch one
AXES_LOCKOUT_CALLABLE = "dsc_site.lockouts.locked_out_response"
AXES_CLIENT_IP_CALLABLE = "base.clients.client_ip"
# Failures count against the account meant, however it was typed (JAN, jan, jan@…).
AXES_USERNAME_CALLABLE = "dsc_site.lockouts.account_name"
# How many proxies of our own stand in front of the site and append the address they saw to
# X-Forwarded-For (1 behind one TLS proxy). 0: the connecting address is the client's. Set it no
# higher than true, or a client can choose the address its failures are counted against.
TRUSTED_PROXIES = checked(env_int, "TRUSTED_PROXIES", 0, fallback=0)

# --- Content-Security-Policy (django-csp) and Permissions-Policy ------------------------------
# Everything from the site itself; no inline script or style anywhere, the admin included
# (Django's admin has one inline <style>, on a change list with both actions_on_top and
# actions_on_bottom off: keep one of them on). data: images are Bootstrap's SVG icons in its
# CSS (the navbar toggler, form validation). tests/browser/test_security.py walks every page.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "bluetooth",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
}


# --- Keeping the site running (operations/): health, logs, error mails, backups ---------------
INSTALLED_APPS += ["operations"]
# /gezond/ is answered before the host check, the https redirect and the session; only the
# two header middlewares come first, so that its answer carries the headers too.
MIDDLEWARE = [
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "operations.health.HealthMiddleware",
    "operations.logs.RequestContextMiddleware",  # log lines name the request's path and user
    *MIDDLEWARE,
]


# --- Public pages from a cache every web process shares (base/page_cache.py) -----------------
INSTALLED_APPS += ["base", "dsc_site"]
MIDDLEWARE.insert(
    MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1,
    "base.page_cache.PageCacheMiddleware",  # before sessions: a visitor needs none
)
# Fair use (base/fair_use.py): the limits per client address of the pages that cost work,
# counted once the page cache has not answered (an answer it has costs next to nothing).
MIDDLEWARE.insert(
    MIDDLEWARE.index("base.page_cache.PageCacheMiddleware") + 1, "base.fair_use.FairUseMiddleware"
)
_database = DATABASES["default"]
_pages_folder = Path(os.environ.get("PAGE_CACHE_DIR") or Path(tempfile.gettempdir()) / "dsc-pages")
# Two sites (or test runs) on one machine never share pages: the key names the database.
_pages_prefix = hashlib.sha256(
    "|".join(str(_database.get(part)) for part in ("ENGINE", "HOST", "PORT", "NAME")).encode()
).hexdigest()[:16]
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "pages": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": _pages_folder,
        "KEY_PREFIX": _pages_prefix,
        "TIMEOUT": 120,  # a page is found for one minute at most (the key holds the minute)
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
    # What-if's answers, one per question asked (base/page_cache.QUESTIONS): a folder inside
    # the pages' (a file cache culls only its own folder's files), with a bound of its own.
    "questions": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": _pages_folder / "questions",
        "KEY_PREFIX": _pages_prefix,
        "TIMEOUT": 120,
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
    # The fair-use counts per client address (base/fair_use.py), shared by every process.
    "limits": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("LIMITS_CACHE_DIR")
        or Path(tempfile.gettempdir()) / "dsc-limits",
        "KEY_PREFIX": "limits",
        "TIMEOUT": 1200,
    },
    # When each error was last reported to ADMINS, shared by every process (operations/reports.py):
    # files, so that it works while the database is what fails.
    "reports": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("REPORT_CACHE_DIR")
        or Path(tempfile.gettempdir()) / "dsc-reports",
        "KEY_PREFIX": "reports",
        "TIMEOUT": 24 * 3600,
    },
}


def env_admins(name: str) -> list[tuple[str, str]]:
    """ADMINS="Naam <naam@example.org>, other@example.org": who gets a mail per server error."""
    admins = []
    for entry in env_list(name):
        display, address = parseaddr(entry)
        if "@" not in address or " " in address:
            raise ImproperlyConfigured(
                f"{name} must list addresses such as Naam <a@b.nl>, not {entry!r}"
            )
        admins.append((display or address, address))
    return admins


ADMINS = checked(env_admins, "ADMINS", fallback=[])
# Error reports come from DEFAULT_FROM_EMAIL like every e-mail (operations/reports.py).
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# One line per event on stderr (beside gunicorn's; its access log goes to stdout), with the
# request's path and user id; an unhandled error also mails ADMINS (with DEBUG off).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request": {"()": "operations.logs.RequestFilter"},
        "repeats": {"()": "operations.logs.RepeatsCounted"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        "line": {
            "()": "operations.logs.OneLineFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s path=%(path)s user=%(user)s %(message)s",
        }
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request", "repeats"],
            "formatter": "line",
        },
        "mail_admins": {
            "class": "operations.reports.GroupedAdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    # An error logged anywhere (a step of the worker's pass that failed, with its traceback)
    # reaches the error reports too, as a request's does.
    "root": {"handlers": ["stderr", "mail_admins"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "django.request": {
            "handlers": ["stderr", "mail_admins"],
            "level": "INFO",
            "propagate": False,
        },
    },
}
# The worker's daily backup (operations/backups.py): into BACKUP_DIR, none when it is unset;
# the last BACKUP_KEEP daily backups are kept.
BACKUP_DIR = os.environ.get("BACKUP_DIR", "")
BACKUP_KEEP = checked(env_int, "BACKUP_KEEP", 14, 1, fallback=14)

if _problems:
    raise ImproperlyConfigured("; ".join(problem.rstrip(".") for problem in _problems))
