# One image, two roles: the web process (default) and the worker
# (`python manage.py run_worker --loop`). Multi-stage, runs as a non-root user.
# Debian 12 (bookworm): its postgresql-client is version 15, like the database in compose.yaml
# (pg_dump must not be older than the server) for `backup_site` and `restore_site`.

FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml ./
# Install the dependencies only; the application runs from /app.
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && python -m venv /venv \
    && /venv/bin/pip install -r requirements.txt

FROM python:3.11-slim-bookworm
ENV PATH=/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=dsc_site.settings \
    PORT=8000
# The package name fixes the major version; Debian's security updates within it are welcome.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client-15 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 dsc \
    && mkdir /backups && chown 10001 /backups
COPY --from=build /venv /venv
WORKDIR /app
# The whole build context: what is not the application is left out by .dockerignore.
COPY . .
# Static files are collected and the code compiled at build time (settings need some values).
RUN SECRET_KEY=collectstatic-only-not-a-secret-and-never-used-to-sign-anything ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput \
    && python -m compileall -q /app
USER 10001
EXPOSE 8000
CMD ["sh", "-c", "exec gunicorn dsc_site.wsgi --bind 0.0.0.0:${PORT} --workers 3 --no-control-socket --access-logfile -"]
