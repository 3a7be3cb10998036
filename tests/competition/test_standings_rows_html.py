"""The standings table's rows written in Python (`tables.standings_body`, issue 36) are the
very bytes the template loop wrote before: the loop is kept here, rendered by Django's template
engine on the same rows, for every choice the table makes."""

from itertools import product
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils.safestring import mark_safe
from django.utils.translation import override

from competition.tables import StandingRow, standings_body

# The loop of templates/competition/_standings_table.html before issue 36 (its rows only).
TEMPLATE_LOOP = Template(
    """{% load i18n keizer %}<tbody>
  {% for row in rows %}
    <tr{% if row.participant_id == own_participant_id %} class="own" aria-current="true"{% endif %}>
      <td class="text-end pos">{{ row.position }}</td>
      <th scope="row" class="name"><a class="name-text" href="{{ row.participant_id|player_url }}">{{ row.name }}</a>{% if row.participant_id == own_participant_id %}<span class="visually-hidden"> {% translate "(you)" %}</span>{% endif %}</th>
      <td class="text-end fw-bold total">{{ row.total }}</td>
      <td>{{ row.group }}</td>
      <td class="text-end">{{ row.value }}</td>
      {% if with_record %}{{ row.record_cells }}{% endif %}
      {% if not compact %}{{ row.points_cells }}{% endif %}
      {% if with_attendance %}<td class="text-end">{{ row.attended }}{% if row.reached %} ✓{% elif not row.reachable %} ✗{% endif %}</td>{% endif %}
      {% if ranking.after_round %}<td class="text-end {% if row.movement > 0 %}movement-up{% elif row.movement < 0 %}movement-down{% endif %}">{{ row.movement|movement }}</td>{% endif %}
    </tr>
  {% endfor %}
  </tbody>"""  # noqa: E501
)

ROWS = [
    StandingRow(
        1,
        11,
        "de Zeeuw",
        "A",
        50,
        mark_safe('<td class="rnd">24½</td>'),
        "164½",
        3,
        attended=9,
        reached=True,
        reachable=True,
        record_cells=mark_safe('<td class="text-end">1650</td>'),
    ),
    StandingRow(
        2,
        12,
        'O\'Neil <b>&"x"',
        "",
        49,
        mark_safe(""),
        "−3⅓",
        -2,
        attended=1,
        reached=False,
        reachable=False,
    ),
    StandingRow(
        3,
        13,
        "Bakker",
        "B",
        48,
        mark_safe('<td class="rnd">0</td>'),
        "0",
        0,
        attended=4,
        reached=False,
        reachable=True,
    ),
    StandingRow(1000, 1014, "Nieuw", "D", 1, mark_safe(""), "1", None),
]


@pytest.mark.parametrize(
    "own, with_record, with_attendance, compact, after_round",
    list(product([None, 12, 13], [True, False], [True, False], [True, False], [0, 5])),
)
def test_the_rows_are_the_bytes_the_template_loop_wrote(
    own, with_record, with_attendance, compact, after_round
):
    choices = {
        "own_participant_id": own,
        "with_record": with_record,
        "with_attendance": with_attendance,
        "compact": compact,
    }
    with override("nl"):
        expected = TEMPLATE_LOOP.render(
            Context({"rows": ROWS, "ranking": SimpleNamespace(after_round=after_round), **choices})
        )
        written = standings_body(
            ROWS,
            own,
            with_record=with_record,
            with_attendance=with_attendance,
            compact=compact,
            with_movement=bool(after_round),
        )
    assert f"<tbody>\n  {written}\n  </tbody>" == expected
    assert "&lt;b&gt;&amp;&quot;x&quot;" in written  # the name escaped
