"""`createsuperuser` in Dutch. Django writes the field names through gettext ("Gebruikersnaam",
"E-mailadres"), but its own prompts and messages are plain English strings inside its
`handle()` ("Password: ", "leave blank to use …", "Superuser created successfully."), so a
volunteer got half of each. This command is Django's, with every one of those strings said in
the site's language on the way in and out: its questions, its answers' "j", its lines.

MembersConfig.ready() puts it in the place of Django's: a command of an app listed after
django.contrib.auth cannot override it by name.
"""

from __future__ import annotations

import builtins
import contextlib
import getpass
import re

from django.contrib.auth.management.commands import createsuperuser
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

BYPASS = "Bypass password validation and create user anyway? [y/N]: "


def dutch(text: str) -> str:
    """Django's English line (a prompt, an error, a report) in the site's language; any other
    text as it is (validators' messages are translated already)."""
    fixed = {
        "Password: ": _("Password: "),
        "Password (again): ": _("Password (again): "),
        BYPASS: _("Create the account anyway, despite the objections to the password? [y/N]: "),
        "Error: Your passwords didn't match.": _("Error: the two passwords differ."),
        "Error: Blank passwords aren't allowed.": _("Error: the password cannot be blank."),
        "Error: This field cannot be blank.": _("Error: this field cannot be blank."),
        "Superuser created successfully.": _("Superuser created."),
        "\nOperation cancelled.": "\n" + _("Cancelled."),
        "Superuser creation skipped due to not running in a TTY. You can run `manage.py "
        "createsuperuser` in your project to create one manually.": _(
            "No superuser created: there is no terminal to ask the questions at. Run `python "
            "manage.py createsuperuser` in a terminal (with Docker: `docker compose exec web "
            "python manage.py createsuperuser`)."
        ),
    }
    if text in fixed:
        return fixed[text]
    if match := re.fullmatch(r"(.*) \(leave blank to use '(.*)'\)(.*): ", text, re.S):
        name, default, rest = match.groups()
        return _("%(name)s (leave blank for '%(default)s')%(rest)s: ") % {
            "name": name,
            "default": default,
            "rest": rest,
        }
    if match := re.fullmatch(r"Error: That (.*) is already taken\.", text):
        return _("Error: that %(name)s is taken already.") % {"name": match[1]}
    if match := re.fullmatch(r"(.*) cannot be blank\.", text):
        return _("%(name)s cannot be blank.") % {"name": match[1]}
    if match := re.fullmatch(r"You must use --(\S+) with --noinput\.", text):
        return _("Give --%(option)s with --noinput.") % {"option": match[1]}
    if text.startswith("Error: "):
        return _("Error: %(reason)s") % {"reason": text.removeprefix("Error: ")}
    return text


class DutchOutput:
    """The command's stdout or stderr, each line said in Dutch."""

    def __init__(self, output):
        self.output = output

    def write(self, msg="", style_func=None, ending=None):
        self.output.write(dutch(msg), style_func, ending)

    def __getattr__(self, name):
        return getattr(self.output, name)


@contextlib.contextmanager
def dutch_questions():
    """Django's handle() asks with getpass.getpass() and input(): in Dutch while it runs, and a
    Dutch "j" (ja) to the bypass question counts as its "y"."""
    ask_password, ask = getpass.getpass, builtins.input

    def password(prompt="Password: ", *args, **kwargs):
        return ask_password(dutch(prompt), *args, **kwargs)

    def question(prompt=""):
        answer = ask(dutch(prompt))
        if prompt == BYPASS:
            return "y" if answer.strip().lower() in ("j", "ja", "y", "yes") else "n"
        return answer

    getpass.getpass, builtins.input = password, question
    try:
        yield
    finally:
        getpass.getpass, builtins.input = ask_password, ask


class Command(createsuperuser.Command):
    help = "Used to create a superuser (the questions and answers in the site's language)."

    def handle(self, *args, **options):
        self.stdout, self.stderr = DutchOutput(self.stdout), DutchOutput(self.stderr)
        try:
            with dutch_questions():
                return super().handle(*args, **options)
        except CommandError as error:
            raise CommandError(dutch(str(error))) from None
