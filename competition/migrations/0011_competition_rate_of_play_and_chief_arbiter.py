"""What the federation's rating report (TRF) says of a competition: its rate of play and chief
arbiter. DSC rule i gives the internal competition's rate; the rules give the rapid competition
none, so an existing rapid competition starts empty and the arbiter fills it in."""

from django.db import migrations, models


def no_rate_for_the_rapid_competition(apps, schema_editor):
    Competition = apps.get_model("competition", "Competition")
    Competition.objects.filter(kind="rapid").update(rate_of_play="")


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0010_round_ranking_mailed_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="chief_arbiter",
            field=models.CharField(
                blank=True,
                help_text="Name of the arbiter in charge; the federation needs it to rate the games.",
                max_length=100,
                verbose_name="chief arbiter",
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="rate_of_play",
            field=models.CharField(
                blank=True,
                default="90 min/30 zetten + 15 min",
                help_text="As the rating report to the federation states it. The internal competition's is DSC rule i; the rapid competition has its own.",
                max_length=100,
                verbose_name="rate of play",
            ),
        ),
        migrations.RunPython(no_rate_for_the_rapid_competition, migrations.RunPython.noop),
    ]
