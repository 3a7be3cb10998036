"""The standings page's parts written in Python (competition/templatetags/standings.py,
issue 36) are the very bytes their template loops wrote before: each loop is kept here and
rendered by Django's template engine on the same context as the tag that replaced it."""

from itertools import product
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils.safestring import mark_safe
from django.utils.translation import override

from competition.histories import RaceChart, Runner

# The loops of templates/competition/standings.html, _standings_table.html and
# _chart_race.html before issue 36, each beside the tag that replaced it.
LOOPS = {
    "ranking links": (
        """{% load i18n %}:
    {% for other in rankings %}
      {% if other.pk == ranking.pk %}<strong>{{ other.after_round }}</strong>{% else %}<a href="{% if competition.short_name %}{% url 'competition:rapid-standings-round' other.after_round %}{% else %}{% url 'competition:standings-round' other.after_round %}{% endif %}{% if request.GET.seizoen %}?seizoen={{ request.GET.seizoen|urlencode }}{% endif %}">{{ other.after_round }}</a>{% endif %}
    {% endfor %}
  </nav>""",  # noqa: E501
        """{% load standings %}:
    {% ranking_links %}
  </nav>""",
    ),
    "round headers": (
        """{% load i18n %}<tr>{% if not compact %}{% for number in round_numbers %}<th scope="col" class="rnd" title="{% blocktranslate %}Round {{ number }}{% endblocktranslate %}">{{ number }}</th>{% endfor %}{% endif %}</tr>""",  # noqa: E501
        """{% load standings %}<tr>{% if not compact %}{% round_headers %}{% endif %}</tr>""",
    ),
    "race legend": (
        """{% for race in races %}<ol>
      {% for runner in race.runners %}<li class="race-key key-{{ runner.style }}"><svg class="race-swatch series-{{ runner.style }}" viewBox="0 0 24 8" aria-hidden="true"><line x1="1" y1="4" x2="23" y2="4"/></svg> <span class="race-position">{{ runner.position }}</span> <a href="{{ runner.url }}">{{ runner.name }}</a></li>{% endfor %}
    </ol>{% endfor %}""",  # noqa: E501
        """{% load standings %}{% for race in races %}<ol>
      {% race_legend race %}
    </ol>{% endfor %}""",
    ),
    "race table": (
        """{% for race in races %}<thead><tr><th scope="col">Naam</th>{% for number in race.rankings %}<th scope="col" class="text-end">{{ number }}</th>{% endfor %}</tr></thead>
      <tbody>
      {% for runner in race.runners %}<tr><th scope="row"><a href="{{ runner.url }}">{{ runner.name }}</a></th>{{ runner.cells }}</tr>{% endfor %}
      </tbody>{% endfor %}""",  # noqa: E501
        """{% load standings %}{% for race in races %}<thead><tr><th scope="col">Naam</th>{% race_headers race %}</tr></thead>
      <tbody>
      {% race_rows race %}
      </tbody>{% endfor %}""",  # noqa: E501
    ),
}

RANKINGS = [SimpleNamespace(pk=pk, after_round=number) for pk, number in ((7, 0), (9, 1), (3, 2))]
RACES = [
    RaceChart(
        key="top",
        title="Top 10",
        caption="",
        svg=mark_safe("<svg></svg>"),
        rankings=[1, 2, 12],
        runners=[
            Runner(1, 1, "de Zeeuw", "/spelers/11/", mark_safe("<td>1 (24½)</td>")),
            Runner(2, 14, 'O\'Neil <b>&"x"', "/spelers/12/?a=1&b=2", mark_safe("<td></td>")),
        ],
    ),
    RaceChart("b", "Groep B", "", mark_safe(""), [], []),
]
SEASONS = [None, "2025-2026", "", 'a b&c"<d>/é']


@pytest.mark.parametrize(
    "part, season, shown, rapid, compact, language",
    list(product(LOOPS, SEASONS, (None, 7, 3), (False, True), (False, True), ("nl", "en"))),
)
def test_the_tag_writes_what_the_loop_wrote(part, season, shown, rapid, compact, language):
    query = {} if season is None else {"seizoen": season}
    context = {
        "request": RequestFactory().get("/ranglijst/", query),
        "rankings": RANKINGS,
        "ranking": next((r for r in RANKINGS if r.pk == shown), None),
        "competition": SimpleNamespace(short_name="Rapid" if rapid else ""),
        "round_numbers": range(1, 13),
        "compact": compact,
        "races": RACES,
    }
    old, new = (Template(text) for text in LOOPS[part])
    with override(language):
        expected = old.render(Context(context))
        written = new.render(Context(context))
    assert written == expected
    if not (compact and part == "round headers"):
        assert len(written) > 40  # the loop wrote something to compare
