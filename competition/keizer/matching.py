"""A maximum matching on a shrinking set of players, kept up to date (Edmonds' blossom).

The pairing asks, again and again, "if these two play each other, can the rest still be paired
with no more repeats than before?". Recomputing a matching from scratch for every question
would cost O(n³) each time. Instead this class keeps one maximum matching of the graph of
allowed meetings and, when two players are taken out, repairs it by searching for augmenting
paths from the vertices that lost their partner: by Berge's theorem the matching is maximum
again when no exposed vertex has an augmenting path. One search is O(n²) in the worst case
and, in the usual dense graph of a club, finds its partner in the first scan.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence, Set


class Matching:
    def __init__(self, size: int, forbidden: Sequence[Set[int]]):
        """Vertices 0..size-1; `forbidden[v]` holds the vertices v may not be matched with."""
        self.n = size
        self.forbidden = forbidden
        self.active = [True] * size
        self.active_count = size
        self.mate = [-1] * size
        self.pairs = 0
        self._allowed: dict[int, list[int]] = {}
        self._greedy()
        self.maximize()

    # -- queries ---------------------------------------------------------------------------

    @property
    def missing_pairs(self) -> int:
        """How many pairs of the active vertices cannot be formed from allowed meetings."""
        return (self.active_count - 2 * self.pairs) // 2

    def state(self) -> tuple[list[int], list[bool], int, int]:
        return list(self.mate), list(self.active), self.active_count, self.pairs

    def restore(self, state: tuple[list[int], list[bool], int, int]) -> None:
        mate, active, self.active_count, self.pairs = state
        self.mate, self.active = list(mate), list(active)

    def partners_keeping_perfect(self, vertex: int) -> set[int]:
        """With a perfect matching: the vertices q for which the graph without `vertex` and q
        still has a perfect matching.

        One search answers for every q (Gallai–Edmonds): without `vertex`, its partner is the
        only exposed vertex, and q can be left out exactly when an even alternating path leads
        from that partner to q, which is what the search labels "outer".
        """
        assert self.missing_pairs == 0 and self.mate[vertex] != -1
        state = self.state()
        partner = self.mate[vertex]
        self.remove(vertex)
        outer = self._search(partner)
        self.restore(state)
        assert outer is not None  # no other exposed vertex, so no augmenting path
        return {q for q in range(self.n) if outer[q]}

    # -- changes ---------------------------------------------------------------------------

    def remove(self, vertex: int) -> None:
        """Take a vertex out of the graph; its partner, if any, becomes exposed."""
        partner = self.mate[vertex]
        if partner != -1:
            self.mate[partner] = -1
            self.mate[vertex] = -1
            self.pairs -= 1
        self.active[vertex] = False
        self.active_count -= 1

    def maximize(self) -> None:
        """Augment from every exposed active vertex until the matching is maximum."""
        for vertex in range(self.n):
            if self.active[vertex] and self.mate[vertex] == -1 and self._augment_from(vertex):
                self.pairs += 1

    # -- internals -------------------------------------------------------------------------

    def _neighbours(self, vertex: int) -> list[int]:
        """Allowed active partners, nearest in the ranking first: repairs then stay local."""
        allowed = self._allowed.get(vertex)
        if allowed is None:
            forbidden = self.forbidden[vertex]
            nearest_first = sorted(range(self.n), key=lambda u: (abs(u - vertex), u))
            allowed = [u for u in nearest_first if u != vertex and u not in forbidden]
            self._allowed[vertex] = allowed
        active = self.active
        return [u for u in allowed if active[u]]

    def _greedy(self) -> None:
        for v in range(self.n):
            if self.mate[v] == -1:
                for u in self._neighbours(v):
                    if u > v and self.mate[u] == -1:
                        self.mate[u], self.mate[v] = v, u
                        self.pairs += 1
                        break

    def _augment_from(self, root: int) -> bool:
        """Search an augmenting path from the exposed `root`; flip it and return True if found."""
        return self._search(root) is None

    def _search(self, root: int) -> list[bool] | None:
        """Edmonds' search from the exposed `root`.

        Flips the first augmenting path found and returns None; when there is none, returns the
        even ("outer") labels: the vertices reachable from `root` by an even alternating path.
        """
        mate = self.mate
        parent = [-1] * self.n
        base = list(range(self.n))
        outer = [False] * self.n
        outer[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            neighbours = self._neighbours(v)
            # Any order of examining edges is correct; an exposed neighbour first ends the search
            # before costly blossom contractions (in a club's dense graph it nearly always exists).
            for to in neighbours:
                if mate[to] == -1 and to != root and parent[to] == -1 and base[v] != base[to]:
                    parent[to] = v
                    self._flip(to, parent)
                    return None
            for to in neighbours:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    self._contract(v, to, base, parent, outer, queue)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        self._flip(to, parent)
                        return None
                    outer[mate[to]] = True
                    queue.append(mate[to])
        return outer

    def _flip(self, end: int, parent: list[int]) -> None:
        mate = self.mate
        while end != -1:
            previous = parent[end]
            next_end = mate[previous]
            mate[end], mate[previous] = previous, end
            end = next_end

    def _contract(self, v, to, base, parent, outer, queue) -> None:
        """Shrink the odd cycle closed by the edge v–to into its base."""
        mate = self.mate
        seen = [False] * self.n
        a = v
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        b = to
        while True:
            b = base[b]
            if seen[b]:
                break
            b = parent[mate[b]]
        common = b
        in_blossom = [False] * self.n

        def mark(x: int, child: int) -> None:
            while base[x] != common:
                in_blossom[base[x]] = in_blossom[base[mate[x]]] = True
                parent[x] = child
                child = mate[x]
                x = parent[mate[x]]

        mark(v, to)
        mark(to, v)
        for i in range(self.n):
            if in_blossom[base[i]]:
                base[i] = common
                if not outer[i]:
                    outer[i] = True
                    queue.append(i)
