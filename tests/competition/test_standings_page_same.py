"""The standings page as a whole is the very page it was before its loops were written in
Python (issue 36): the three templates as they were then are kept here and the page rendered
with them is compared, byte for byte, with the page as it is now, for every ranking of the
demo season (its groups' races) and with the season asked for."""

from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from base import page_cache
from competition.models import Competition, Ranking

# The templates before issue 36's second pass (commit 988fb6f), as they were; with the
# competition's Keizer settings that issue 39 added below the page and the club's name from
# its row (issue 40) in the description, and nothing else.
OLD_TEMPLATES = {
    "competition/standings.html": """{% extends "base.html" %}
{% load static i18n keizer %}
{% block extra_head %}<link rel="stylesheet" href="{% static 'css/charts.css' %}">
  <script src="{% static 'js/latest_round.js' %}" defer></script>{% endblock %}
{% block main_class %} wide{% endblock %}
{% block description %}{% blocktranslate with club=club.short_name %}The standings of the {{ club }} competition with the points of every round, after each club evening.{% endblocktranslate %}{% endblock %}
{% block title %}{% translate "Standings" %}{% endblock %}
{% block content %}
<h1 class="h3">{% if competition.short_name %}{% translate "Rapid standings" %}{% else %}{% translate "Standings" %}{% endif %} {{ competition.season }}</h1>
{% include "competition/_rapid_switch.html" %}
{% include "competition/_season_picker.html" %}
{% if ranking %}
  <p>
    {% if ranking.after_round %}{% blocktranslate with number=ranking.after_round %}Ranking {{ number }}, after round {{ number }}.{% endblocktranslate %}{% else %}{% translate "Ranking 0: the initial ranking." %}{% endif %}
    {% if provisional %}<span class="badge text-bg-warning">{% blocktranslate with when=provisional.results_final_at|time:"H:i" %}provisional: results count as final after {{ when }} on the club evening{% endblocktranslate %}</span>{% endif %}
  </p>
  {% if ranking.corrected_at %}<p class="alert alert-info py-2 correction" role="note">{% blocktranslate with when=ranking.corrected_at|date:"j F Y H:i" reason=ranking.correction %}Corrected on {{ when }}: {{ reason }}.{% endblocktranslate %}</p>{% endif %}
  <nav aria-label="{% translate 'Earlier rankings' %}" class="mb-2 small">
    {% translate "Ranking" %}:
    {% for other in rankings %}
      {% if other.pk == ranking.pk %}<strong>{{ other.after_round }}</strong>{% else %}<a href="{% if competition.short_name %}{% url 'competition:rapid-standings-round' other.after_round %}{% else %}{% url 'competition:standings-round' other.after_round %}{% endif %}{% if request.GET.seizoen %}?seizoen={{ request.GET.seizoen|urlencode }}{% endif %}">{{ other.after_round }}</a>{% endif %}
    {% endfor %}
  </nav>
  {% if races %}<p class="small mb-2"><a href="#verloop">{% translate "The race in charts" %}</a></p>{% endif %}
  <p class="small mb-2 d-print-none"><a href="{% if competition.short_name %}{% url 'competition:rapid-standings-round-print' ranking.after_round %}{% else %}{% url 'competition:standings-round-print' ranking.after_round %}{% endif %}{% if request.GET.seizoen %}?seizoen={{ request.GET.seizoen|urlencode }}{% endif %}">{% translate "Print as a poster (A4 landscape)" %}</a></p>
  {% include "competition/_standings_table.html" %}
  <p class="small csv-link"><a href="{{ csv_url }}" download>{% blocktranslate with number=ranking.after_round %}Ranking {{ number }} as CSV (spreadsheet){% endblocktranslate %}</a></p>
  {% if races %}{% include "competition/_chart_races.html" %}{% endif %}
{% else %}
  <p>{% translate "There is no ranking yet." %}</p>
{% endif %}
{% keizer_settings competition %}
{% endblock %}
""",  # noqa: E501
    "competition/_standings_table.html": """{% load i18n standings %}{# Position, name and total first: on a phone they stay in view (sticky) while the rest scrolls inside the table. With `with_record`: games over the board, score and rating; on a phone the rounds' points hide behind a switch (CSS only). #}
<div class="standings-block">
{% if with_record and not compact and round_numbers %}
<div class="form-check form-switch rounds-switch">
  <input class="form-check-input" type="checkbox" role="switch" id="show-rounds">
  <label class="form-check-label" for="show-rounds">{% translate "Show the points per round" %}</label>
</div>
{% endif %}
<div class="table-responsive standings-scroll latest-round">
<table class="table table-sm table-striped standings">
  <caption class="visually-hidden">{% blocktranslate with number=ranking.after_round %}Ranking {{ number }}{% endblocktranslate %}</caption>
  <thead>
    <tr>
      <th scope="col" class="text-end pos">#</th><th scope="col" class="name"><span class="name-text">{% translate "Name" %}</span></th><th scope="col" class="text-end total">{% translate "Total" %}</th><th scope="col" title="{% translate 'group' %}">{% translate "Gr." %}</th><th scope="col" class="text-end" title="{% translate 'value' %}">{% translate "Val." %}</th>
      {% if with_record %}<th scope="col" class="text-end" title="{% translate 'KNSB rating on the evening of this ranking; * estimated' %}">{% translate "Rating" %}</th><th scope="col" class="text-end" title="{% translate 'games played over the board' %}">{% translate "Gms." %}</th><th scope="col" class="text-end" title="{% translate 'won' %}">+</th><th scope="col" class="text-end" title="{% translate 'drawn' %}">=</th><th scope="col" class="text-end" title="{% translate 'lost' %}">−</th><th scope="col" class="text-end" title="{% translate 'score in the games played' %}">%</th>{% endif %}
      {% if not compact %}{% for number in round_numbers %}<th scope="col" class="rnd" title="{% blocktranslate %}Round {{ number }}{% endblocktranslate %}">{{ number }}</th>{% endfor %}{% endif %}
      {% if with_attendance %}<th scope="col" class="text-end" title="{% blocktranslate with required=required_rounds %}rounds attended; ✓ reached {{ required }}, ✗ can no longer reach it{% endblocktranslate %}">{% translate "Att." %}</th>{% endif %}{% if ranking.after_round %}<th scope="col" class="text-end" title="{% translate 'since the previous ranking' %}">±</th>{% endif %}
    </tr>
  </thead>
  <tbody>
  {% standings_rows %}
  </tbody>
</table>
</div>
{% if with_record %}<p class="small text-body-secondary">{% translate "Gms.: games played over the board (not a forfeit, nor the bye); the percentage is the score in them. Rating: KNSB, on the evening of this ranking; * estimated by the arbiter." %}</p>{% endif %}
</div>
""",  # noqa: E501
    "competition/_chart_race.html": """{% load i18n %}{# One race chart (competition/histories.py): the SVG, its caption, the legend and the numbers as a table. #}
<figure class="chart-figure race-figure mb-1">
  {{ race.svg }}
  <figcaption class="small">{# the caption and the key: a figure has one caption #}
    <div id="race-{{ race.key }}-caption" class="text-body-secondary">{{ race.caption }}</div>
    <ol class="race-legend list-unstyled mb-1">
      {% for runner in race.runners %}<li class="race-key key-{{ runner.style }}"><svg class="race-swatch series-{{ runner.style }}" viewBox="0 0 24 8" aria-hidden="true"><line x1="1" y1="4" x2="23" y2="4"/></svg> <span class="race-position">{{ runner.position }}</span> <a href="{{ runner.url }}">{{ runner.name }}</a></li>{% endfor %}
    </ol>
  </figcaption>
</figure>
<details class="chart-table mb-2">
  <summary>{% translate "As a table" %}</summary>
  <div class="table-responsive latest-round">
    <table class="table table-sm race-table">
      <caption class="caption-top">{% translate "Position and (in brackets) total on every ranking." %}</caption>
      <thead><tr><th scope="col">{% translate "Name" %}</th>{% for number in race.rankings %}<th scope="col" class="text-end">{{ number }}</th>{% endfor %}</tr></thead>
      <tbody>
      {% for runner in race.runners %}<tr><th scope="row"><a href="{{ runner.url }}">{{ runner.name }}</a></th>{{ runner.cells }}</tr>{% endfor %}
      </tbody>
    </table>
  </div>
</details>
""",  # noqa: E501
}


def old_templates():
    """The site's template settings, the old templates found first."""
    engine = {**settings.TEMPLATES[0], "APP_DIRS": False}
    engine["OPTIONS"] = {
        **engine.get("OPTIONS", {}),
        "loaders": [
            ("django.template.loaders.locmem.Loader", OLD_TEMPLATES),
            "django.template.loaders.filesystem.Loader",
            "django.template.loaders.app_directories.Loader",
        ],
    }
    return [engine]


def page(client: Client, url: str) -> str:
    page_cache.changed()  # rendered now, not the copy stored
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_every_standings_page_is_the_page_the_old_templates_wrote(demo):
    urls = [reverse("competition:standings")]
    for competition in Competition.objects.select_related("season"):
        rapid = "rapid-" if competition.kind == Competition.Kind.RAPID else ""
        query = f"?seizoen={competition.season.name}"
        urls.append(reverse(f"competition:{rapid}standings") + query)
        urls += [
            reverse(f"competition:{rapid}standings-round", args=[number]) + query
            for number in Ranking.objects.filter(competition=competition).values_list(
                "after_round", flat=True
            )
        ]
    client = Client()
    now = {url: page(client, url) for url in urls}
    with override_settings(TEMPLATES=old_templates()):
        before = {url: page(client, url) for url in urls}
    for url in urls:
        assert now[url] == before[url], url
    # The pages compared show what the loops wrote: links to earlier rankings, round
    # headers, more than one race (the groups'), and the rapid competition's links.
    latest = now[urls[0]]
    assert latest.count('class="rnd" title=') > 1
    assert latest.count('<input type="radio" class="btn-check" name="race"') > 1
    assert latest.count('class="race-key key-') > 10
    assert any('href="/rapid/ranglijst/1/?seizoen=' in text for text in now.values())
