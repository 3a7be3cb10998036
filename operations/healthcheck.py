"""The web container's health check (compose.yaml): `python -m operations.healthcheck
[--port 8000]` asks the web process for `/gezond/` as the proxy asks for a visitor's page,
with the site's own host (SITE_URL's) and marked https, so a host the site does not serve or a
proxy header it does not read fails the check (`operations.health.served`). Exit 0 and "ok"
when healthy, else 1 and the reason. A redirect is not followed: it is the answer."""

from __future__ import annotations

import argparse
import os
import sys
import urllib.error
import urllib.request
from urllib.parse import urlsplit


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    port = parser.parse_args(argv).port
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dsc_site.settings")
    from django.conf import settings

    from operations.configuration import settings_or_exit

    settings_or_exit()  # the module alone: no apps, no database
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/gezond/",
        headers={"Host": urlsplit(settings.SITE_URL).netloc, "X-Forwarded-Proto": "https"},
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            print(response.read().decode().strip())
            return 0
    except urllib.error.HTTPError as error:
        print(f"{error.code}: {error.read().decode(errors='replace').strip()[:300]}")
    except OSError as error:
        print(f"no answer on port {port}: {error}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
