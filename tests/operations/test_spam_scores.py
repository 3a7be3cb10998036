"""Every kind of e-mail the site sends scores below 2.0 with SpamAssassin (Debian's, local rules
only: `-L`, no network tests), read as it arrived at a real SMTP server. A known spam message
scored in the same run proves the rules are there and counting."""

import mailbox
import shutil
import subprocess

import pytest

from tests.mail_samples import one_of_each, smtp_server

__all__ = ["one_of_each", "smtp_server"]

SPAMASSASSIN = shutil.which("spamassassin")
LIMIT = 2.0
SPAM = (  # what a spam filter is for: no date, no id, shouting, HTML only, a drug
    b"From: prijs@example.com\nTo: lid@example.org\nSubject: FREE MONEY NOW\n"
    b"MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n"
    b"<html><body><p>CLICK HERE <a href='http://198.51.100.7/x'>now</a>, 100% free viagra"
    b"</p></body></html>\n"
)


def scores(messages: dict[str, bytes], folder) -> dict[str, float]:
    """Each message's SpamAssassin score, by name, from one run over an mbox."""
    box = mailbox.mbox(folder / "in.mbox")
    for name, data in messages.items():
        message = mailbox.mboxMessage(data)
        message["X-Sample"] = name
        box.add(message)
    box.close()
    with open(folder / "in.mbox", "rb") as given:
        result = subprocess.run(
            [SPAMASSASSIN, "-L", "--mbox", "--cf", "report_safe 0"],
            stdin=given,
            capture_output=True,
            check=True,
            env={"HOME": str(folder), "PATH": "/usr/bin:/bin"},
        )
    (folder / "out.mbox").write_bytes(result.stdout)
    found = {}
    scored = mailbox.mbox(folder / "out.mbox")
    for message in scored:
        status = " ".join(message["X-Spam-Status"].split())
        found[message["X-Sample"]] = float(status.split("score=")[1].split()[0])
    scored.close()
    return found


@pytest.mark.skipif(
    SPAMASSASSIN is None,
    reason="Debian's SpamAssassin is not installed (apt-get install spamassassin); .ci/run has it",
)
def test_every_kind_of_email_scores_below_two(one_of_each, tmp_path):
    messages = {str(kind): arrived.data for kind, arrived in one_of_each.items()}
    found = scores({**messages, "spam": SPAM}, tmp_path)
    print("SpamAssassin scores:", found)
    assert found.pop("spam") >= 5.0  # the rules are loaded and count
    assert sorted(found) == sorted(messages)
    assert {kind: score for kind, score in found.items() if score >= LIMIT} == {}
