"""A database restart costs no visitor a 500 (issue 26, point 5): a kept connection that the
server ended (`pg_terminate_backend`, as a restart does) is noticed at the next request's first
query and replaced (`CONN_HEALTH_CHECKS`). Without the check the same steps fail: the control."""

import psycopg
import pytest
from django.db import OperationalError, close_old_connections, connection

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="ends a server connection with pg_terminate_backend: runs on PostgreSQL (CI)",
)


def end_the_kept_connection() -> None:
    """What a restart does to the web process's kept connection, then what Django does when
    the next request starts."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    close_old_connections()  # Django's request_started handler


def first_query() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone()[0]


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_connection_ended_by_a_restart_is_replaced_at_the_next_request():
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    first_query()
    end_the_kept_connection()
    assert first_query() == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_without_the_health_check_the_next_request_would_fail(monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", False)
    first_query()
    end_the_kept_connection()
    with pytest.raises(OperationalError):
        first_query()
    connection.close()
