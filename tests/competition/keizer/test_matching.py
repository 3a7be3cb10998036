"""The incremental matching agrees with networkx on random graphs."""

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.keizer.matching import Matching
from tests.hypothesis_profiles import examples


@st.composite
def graphs(draw):
    count = draw(st.integers(1, 24))
    forbidden = [set() for _ in range(count)]
    density = draw(st.sampled_from([0.1, 0.5, 0.8, 0.95]))
    coins = draw(st.lists(st.floats(0, 1), min_size=count * count, max_size=count * count))
    for i in range(count):
        for j in range(i + 1, count):
            if coins[i * count + j] < density:
                forbidden[i].add(j)
                forbidden[j].add(i)
    removals = draw(st.lists(st.integers(0, count - 1), unique=True, max_size=count))
    return count, forbidden, removals


def maximum(count, forbidden, removed):
    graph = nx.Graph()
    alive = [v for v in range(count) if v not in removed]
    graph.add_nodes_from(alive)
    graph.add_edges_from((a, b) for a in alive for b in alive if a < b and b not in forbidden[a])
    return len(nx.max_weight_matching(graph, maxcardinality=True))


@settings(max_examples=examples(200), deadline=None)
@given(graphs())
def test_the_matching_stays_maximum_while_vertices_are_removed(graph):
    count, forbidden, removals = graph
    matching = Matching(count, forbidden)
    assert matching.pairs == maximum(count, forbidden, set())
    removed = set()
    for vertex in removals:
        matching.remove(vertex)
        matching.maximize()
        removed.add(vertex)
        assert matching.pairs == maximum(count, forbidden, removed)
        mates = [(v, matching.mate[v]) for v in range(count) if matching.mate[v] != -1]
        assert len(mates) == 2 * matching.pairs
        assert all(matching.mate[u] == v for v, u in mates)
        assert all(u not in forbidden[v] and u not in removed for v, u in mates)
