"""A competition keeps another club's Keizer (issue 39, point 3): every setting of the
variants, stored in DSC's columns and the `variant` object, reads back as it was given."""

import pytest
from hypothesis import given, settings

from competition.keizer import settings_file
from competition.keizer.season import Settings
from competition.models import Competition
from tests.competition.keizer.test_variants import variant_settings


@settings(max_examples=200, deadline=None)
@given(variant_settings())
def test_every_setting_is_kept_by_a_competition(keizer_settings):
    competition = Competition(**Competition.values_of(keizer_settings))
    assert competition.engine_settings() == keizer_settings


def test_dscs_keizer_is_the_columns_alone():
    assert Competition.values_of(Settings())["variant"] == {}
    assert Competition().engine_settings() == Settings()


@pytest.mark.parametrize("profile", ["keizerforclubs", "sharly-chess", "chesspairing"])
def test_a_preset_is_kept_by_a_competition(profile):
    preset = settings_file.settings_from_document({"profile": profile})
    competition = Competition(**Competition.values_of(preset))
    assert competition.engine_settings() == preset
    assert competition.variant["profile"] == profile
