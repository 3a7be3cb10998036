"""`manage.py createsuperuser` asks and answers in Dutch (issue 38: its field names were Dutch,
its own prompts and lines English: "Gebruikersnaam (leave blank to use 'root'):",
"Password:", "Superuser created successfully.")."""

import getpass
import subprocess
import sys
from io import StringIO
from pathlib import Path

from django.contrib.auth.models import User
from django.core.management import call_command

from tests.processes import production_env

__all__ = ["production_env"]  # the fixture: production settings on a migrated SQLite file

ROOT = Path(__file__).resolve().parents[2]
GOOD = "paard-toren-loper-42"
# What Django says in English, in any of its prompts or lines.
ENGLISH = ["Password", "leave blank", "Error", "Superuser", "Bypass", "taken", "match", "blank"]


class Terminal(StringIO):
    """A standard input that is a terminal: createsuperuser asks only then."""

    def isatty(self):
        return True


def session(monkeypatch, typed: list[str], passwords: list[str]) -> tuple[list[str], str]:
    """createsuperuser at a terminal: each prompt it shows, and all it wrote."""
    prompts = []
    typed, passwords = iter(typed), iter(passwords)

    def answer(source):
        return lambda prompt="": prompts.append(prompt) or next(source)

    monkeypatch.setattr("builtins.input", answer(typed))
    monkeypatch.setattr(getpass, "getpass", answer(passwords))
    out, err = StringIO(), StringIO()
    call_command("createsuperuser", interactive=True, stdin=Terminal(), stdout=out, stderr=err)
    return prompts, err.getvalue() + out.getvalue()  # the errors came first


def test_createsuperuser_asks_and_answers_in_dutch(db, monkeypatch):
    User.objects.create_user("beheer")
    prompts, said = session(
        monkeypatch,
        typed=["beheer", "beheerder", "", "n"],  # taken, then free; no address; no bypass
        passwords=["een", "twee", "", "", "dsc12345", "dsc12345", GOOD, GOOD],
    )
    default = prompts[0].split("'")[1]  # the system's user name, as Django proposes it
    assert prompts == [
        f"Gebruikersnaam (leeg laten voor '{default}'): ",
        f"Gebruikersnaam (leeg laten voor '{default}'): ",
        "E-mailadres: ",
        *["Wachtwoord: ", "Wachtwoord (nogmaals): "] * 3,
        "Het account toch aanmaken, ondanks de bezwaren tegen het wachtwoord? [j/N]: ",
        "Wachtwoord: ",
        "Wachtwoord (nogmaals): ",
    ]
    assert said.splitlines() == [
        "Fout: die gebruikersnaam is al in gebruik.",
        "Fout: de twee wachtwoorden verschillen.",
        "Fout: het wachtwoord mag niet leeg zijn.",
        "Dit wachtwoord is te kort: het moet minstens 10 tekens hebben.",
        "Beheerder (superuser) aangemaakt.",
    ]
    assert not [word for word in ENGLISH for text in [*prompts, said] if word in text]
    assert User.objects.get(username="beheerder").check_password(GOOD)


def test_a_dutch_yes_creates_the_account_despite_the_objections(db, monkeypatch):
    session(monkeypatch, typed=["beheerder", "", "j"], passwords=["dsc12345", "dsc12345"])
    assert User.objects.get(username="beheerder", is_superuser=True).check_password("dsc12345")


def test_without_a_terminal_it_says_so_in_dutch(production_env):
    """As `docker compose exec -T web python manage.py createsuperuser` runs it: the image's
    settings on a migrated database, stdin a pipe."""
    done = subprocess.run(
        [sys.executable, "manage.py", "createsuperuser"],
        cwd=ROOT,
        env=production_env,
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.startswith("Geen beheerder aangemaakt: er is geen terminal "), done
    assert not [word for word in ENGLISH if word in done.stdout + done.stderr]
