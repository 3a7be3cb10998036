"""Hypothesis strategies that damage a valid file the way editing, copying and attackers do.

`damaged_document` changes a decoded JSON document (a value replaced by any JSON value, a key
deleted); `damaged_bytes` changes the bytes of a file (a byte flipped, a line deleted or
repeated, text inserted: control characters, long strings, JSON punctuation; the end cut off).
Pure: no database, no Django.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

# Things a broken editor, a bad copy or an attacker puts into a file.
INSERTS = [
    b"\x00",
    b"\t",
    b"\n",
    b"\r\n",
    b"\x1b[31m",
    b"\x7f",
    b"\xc2\x85",  # NEL, a C1 control character in UTF-8
    b"\\u0000",
    b"\\ud800",
    b'"',
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"-",
    b"1e999",
    b"9" * 30,
    b"B" * 500,
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b";",
    b"PK\x03\x04",
]

LONG_TEXTS = ["B" * 500, "x" * 101, "Bak\x00ker", "Bak\tker", "Bak\nker", "\u202eBakker", " "]

# Ways a text goes wrong: too long for its column, a control character, empty.
DAMAGED_TEXTS = [
    lambda text: text * 100,
    lambda text: text + "x" * 101,
    lambda text: text[:2] + "\x00" + text[2:],
    lambda text: text + "\t",
    lambda text: "\n" + text,
    lambda text: text + "\x85",
    lambda text: "",
    lambda text: " " + text + " ",
    lambda text: text.upper(),
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(LONG_TEXTS),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)


def paths(document: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in the document: tuples of keys and indexes."""
    found = [prefix] if prefix else []
    if isinstance(document, dict):
        for key, value in document.items():
            found += paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += paths(value, (*prefix, index))
    return found


@st.composite
def damaged_document(draw, document: Any, max_changes: int = 2) -> Any:
    """The document with up to `max_changes` values replaced by any JSON value, removed, or
    (a text) made long or given a control character."""
    document = copy.deepcopy(document)
    for _ in range(draw(st.integers(0, max_changes))):
        kind = draw(st.sampled_from(["text", "replace", "delete"]))
        places = paths(document)
        if kind == "text":
            places = [place for place in places if isinstance(_at(document, place), str)]
        if not places:
            break
        place = draw(st.sampled_from(places))
        parent = _at(document, place[:-1])
        if kind == "text":
            text = parent[place[-1]]
            damage = draw(st.sampled_from(DAMAGED_TEXTS))
            parent[place[-1]] = damage(text)
        elif kind == "replace":
            parent[place[-1]] = draw(json_values)
        else:
            del parent[place[-1]]
    return document


def _at(document: Any, place: tuple) -> Any:
    for step in place:
        document = document[step]
    return document


@st.composite
def damaged_bytes(draw, content: bytes, max_changes: int = 3) -> bytes:
    """The bytes with up to `max_changes` flips, line deletions or copies, inserts, cuts."""
    data = bytearray(content)
    for _ in range(draw(st.integers(0, max_changes))):
        kind = draw(st.sampled_from(["flip", "delete_line", "repeat_line", "insert", "cut"]))
        position = draw(st.integers(0, len(data)))
        if kind == "flip" and data:
            data[min(position, len(data) - 1)] = draw(st.integers(0, 255))
        elif kind in ("delete_line", "repeat_line"):
            lines = bytes(data).splitlines(keepends=True)
            if lines:
                index = draw(st.integers(0, len(lines) - 1))
                lines[index : index + 1] = [] if kind == "delete_line" else [lines[index]] * 2
                data = bytearray(b"".join(lines))
        elif kind == "insert":
            data[position:position] = draw(st.sampled_from(INSERTS))
        elif kind == "cut":
            del data[position:]
    return bytes(data)
