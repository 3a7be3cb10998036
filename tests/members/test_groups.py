"""Groups A–D by rating: sizes as equal as possible, larger groups first."""

import pytest

from members.groups import group_for_rating, split_into_groups


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (40, [10, 10, 10, 10]),
        (39, [10, 10, 10, 9]),
        (38, [10, 10, 9, 9]),
        (5, [2, 1, 1, 1]),
        (3, [1, 1, 1, 0]),
    ],
)
def test_groups_are_as_equal_as_possible_with_the_larger_first(count, sizes):
    groups = split_into_groups(list(range(count)), "ABCD")
    assert [list(groups.values()).count(g) for g in "ABCD"] == sizes
    assert groups[0] == "A" and groups[count - 1] == ("D" if count > 3 else "C")


def test_a_newcomer_joins_the_group_of_the_strongest_player_rated_at_or_below_them():
    grouped = [(2100, "A"), (1900, "A"), (1800, "B"), (1700, "C"), (1500, "D")]
    assert group_for_rating(2200, grouped) == "A"
    assert group_for_rating(1850, grouped) == "B"
    assert group_for_rating(1700, grouped) == "C"
    assert group_for_rating(1200, grouped) == "D"
    assert group_for_rating(None, grouped) == "D"
