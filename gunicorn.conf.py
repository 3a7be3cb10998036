"""gunicorn's settings beside its command line (it reads ./gunicorn.conf.py by itself).

The access log names the path, never the query string: the links that need no password carry
their code there (`members.links`), and a log line must not hand anyone a member's link; paths
that carry a secret themselves (a calendar feed's token) are written without it
(`operations.logs.GunicornLogger`)."""

logger_class = "operations.logs.GunicornLogger"

# The time first, with its zone, as on every other line of the site's logs (`moment`).
access_log_format = '%(t)s INFO access %(h)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)s'
