"""The rule for a name, as the forms and the admin check it: text a person can read, without
control, format or separator characters (the engine's rule, `season_file.unseen_character`, so
the season file and the site refuse the same characters)."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from competition.keizer.season_file import unseen_character


def validate_name(value: str) -> None:
    character = unseen_character(value)
    if character is not None:
        raise ValidationError(
            _(
                "A name may not hold invisible or control characters (such as a line break, "
                "or a character that reverses the text); found U+%(code)s."
            ),
            code="unseen_character",
            params={"code": f"{ord(character):04X}"},
        )
