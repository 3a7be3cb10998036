import os

from django.core.wsgi import get_wsgi_application

from operations.configuration import settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dsc_site.settings")
# A configuration mistake: one line, and the exit status by which gunicorn's master knows a
# worker that cannot boot (it stops, instead of starting one worker after another).
settings_or_exit(status=3)
application = get_wsgi_application()
