"""`python manage.py publish_due_rounds [--loop]`: the worker's old name, kept because
deployments, cron lines and older notes call it. The same command as `run_worker`
(clubweek/management/commands/run_worker.py): the same options, output and behaviour."""

from clubweek.management.commands import run_worker


class Command(run_worker.Command):
    pass
