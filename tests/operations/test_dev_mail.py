"""`make run`'s delivery (operations/dev_mail.py): a line per e-mail on the console, the whole
message in a file of its own, through the outbox as the worker sends."""

import email
from email import policy

from django.core import mail
from django.test import override_settings
from django.utils import timezone

from operations import outbox


def test_each_mail_is_a_line_and_a_file(db, tmp_path, capsys):
    with override_settings(
        EMAIL_BACKEND="operations.outbox.OutboxBackend",
        EMAIL_DELIVERY_BACKEND="operations.dev_mail.EmailBackend",
        DEV_MAIL_DIR=tmp_path,
    ):
        for name in ("jan", "piet"):
            mail.EmailMultiAlternatives(
                "DSC: je indeling voor ronde 13", f"Hallo {name},", to=[f"{name}@example.org"]
            ).send()
        assert outbox.deliver(timezone.now()) == 2
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("e-mail aan jan@example.org: DSC: je indeling voor ronde 13 (")
    files = sorted(tmp_path.glob("*.eml"))
    assert [f.name for f in files] == ["00001.eml", "00002.eml"]
    second = email.message_from_bytes(files[1].read_bytes(), policy=policy.default)
    assert second["To"] == "piet@example.org"
    assert second["Subject"] == "DSC: je indeling voor ronde 13"
    assert "Hallo piet," in second.get_body(("plain",)).get_content()
