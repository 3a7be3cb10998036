"""Django's PostgreSQL backend, as production runs it, but for the statement that empties the
tables after each test that commits (pytest-django's `transactional_db`: the browser tests, the
worker's and the live server's). Django writes one TRUNCATE of every table: PostgreSQL then
gives each of some fifty tables and their indexes new files, 0.22–0.26 s a test and as much
again in the server's own CPU (issue 36: the suite's time with both cores busy). A DELETE of
each table's few thousand rows takes 0.03 s. Both leave every table empty and the sequences
where they were (`reset_sequences=False`, pytest-django's default); the foreign keys Django
makes are checked at commit, so the order of the tables does not matter. Where a caller asks
for more (sequences reset, CASCADE), Django's own TRUNCATE runs."""

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        delete = style.SQL_KEYWORD("DELETE FROM")
        return [f"{delete} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
