"""Graph formats: plain text (`graph N M` + `u v` lines), TSPLIB HCP, TSPLIB tours and the bundles' one line.

Every text form numbers vertices 1..N. A repeated edge is one edge (in either direction: the
model keeps each once); a self-loop, a vertex outside 1..N or an edge count that does not match
the header is an error naming the source and line.
"""

from __future__ import annotations

import re

from harness.errors import InstanceError
from harness.kinds import Lines, nonblank_lines
from harness.kinds.graph.model import Edge, Graph, parse_order

# --- plain text ------------------------------------------------------------------------------------


def parse_body(rows: int, cols: int, lines: Lines, source: str) -> Graph:
    """The graph of a plain-text body: `cols` lines `u v` over vertices 1..`rows`; `#` lines are comments."""
    body = [(n, line) for n, line in lines if not line.startswith("#")]
    if len(body) != cols:
        where = body[cols][0] if len(body) > cols else (body[-1][0] if body else None)
        raise InstanceError(source, f"the header says {cols} edges, found {len(body)} edge lines", where)
    return Graph(rows, tuple(_pair(line.split(), rows, source, n) for n, line in body))


def body_lines(graph: Graph) -> list[str]:
    return [f"{u + 1} {v + 1}" for u, v in graph.edges]


def _pair(tokens: list[str], n: int, source: str, line: int | None) -> Edge:
    """A 0-based edge from the tokens of one `u v` line, its vertices checked against 1..n."""
    if len(tokens) != 2 or not all(t.isdecimal() for t in tokens):
        found = " ".join(tokens)
        raise InstanceError(source, f"expected an edge `u v` (two vertex numbers), found {found!r}", line)
    u, v = int(tokens[0]), int(tokens[1])
    for w in (u, v):
        if not 1 <= w <= n:
            raise InstanceError(source, f"vertex {w} is outside 1..{n}", line)
    if u == v:
        raise InstanceError(source, f"self-loop at vertex {u}", line)
    return u - 1, v - 1


# --- TSPLIB HCP ------------------------------------------------------------------------------------

_KEY = re.compile(r"([A-Za-z_]+)\s*:\s*(.*)")
HCP_KEYS = ("NAME", "COMMENT", "TYPE", "DIMENSION", "EDGE_DATA_FORMAT")


def is_hcp(text: str) -> bool:
    """Whether the text opens like a TSPLIB file: its first line is `KEY : VALUE` with a TSPLIB key."""
    for line in text.lstrip("\ufeff").splitlines():
        if line.strip():
            match = _KEY.fullmatch(line.strip())
            return bool(match) and match[1].upper() in HCP_KEYS
    return False


def read_hcp(text: str, source: str) -> Graph:
    """A graph from a TSPLIB HCP file (header, EDGE_DATA_SECTION, pairs, -1, optional EOF)."""
    lines = nonblank_lines(text)
    header: dict[str, tuple[int, str]] = {}
    i = 0
    while i < len(lines) and lines[i][1].upper().rstrip(":").strip() != "EDGE_DATA_SECTION":
        n, line = lines[i]
        match = _KEY.fullmatch(line)
        if not match:
            raise InstanceError(source, f"expected a header line `KEY : VALUE` or EDGE_DATA_SECTION, "
                                        f"found {line!r}", n)
        key, value = match[1].upper(), match[2].strip()
        if key == "TYPE" and value.upper() != "HCP":
            raise InstanceError(source, f"TYPE is {value!r}: only HCP files are graphs", n)
        if key == "DIMENSION" and (not value.isdecimal() or int(value) < 1):
            raise InstanceError(source, f"DIMENSION must be a positive whole number, found {value!r}", n)
        if key == "EDGE_DATA_FORMAT" and value.upper() != "EDGE_LIST":
            raise InstanceError(source, f"EDGE_DATA_FORMAT {value!r} is not read (only EDGE_LIST)", n)
        header[key] = (n, value)
        i += 1
    if i == len(lines):
        raise InstanceError(source, "no EDGE_DATA_SECTION", lines[-1][0] if lines else 1)
    for key, example in (("TYPE", "TYPE : HCP"), ("DIMENSION", "DIMENSION : N")):
        if key not in header:
            raise InstanceError(source, f"no `{example}` line before EDGE_DATA_SECTION", lines[i][0])
    n = int(header["DIMENSION"][1])
    edges = []
    for j in range(i + 1, len(lines)):
        line_no, line = lines[j]
        if line == "-1":
            after = lines[j + 1:]
            if after and after[0][1].upper() == "EOF":
                after = after[1:]
            if after:
                at, extra = after[0]
                raise InstanceError(source, f"unexpected {extra!r} after the edge list's -1", at)
            return Graph(n, tuple(edges))
        if line.upper() == "EOF":
            raise InstanceError(source, "EOF before the -1 that ends EDGE_DATA_SECTION", line_no)
        edges.append(_pair(line.split(), n, source, line_no))
    raise InstanceError(source, "EDGE_DATA_SECTION does not end with -1", lines[-1][0])


def write_hcp(graph: Graph, name: str = "graph", comment: str = "") -> str:
    """The graph as a TSPLIB HCP file."""
    head = [f"NAME : {name}", *([f"COMMENT : {comment}"] if comment else []), "TYPE : HCP",
            f"DIMENSION : {graph.n}", "EDGE_DATA_FORMAT : EDGE_LIST", "EDGE_DATA_SECTION"]
    return "\n".join([*head, *body_lines(graph), "-1", "EOF"]) + "\n"


# --- TSPLIB tours ----------------------------------------------------------------------------------

def write_tour(graph: Graph, solution: str, name: str = "graph") -> str:
    """A TSPLIB tour file of a solution string: TYPE : TOUR, DIMENSION, TOUR_SECTION, vertices, -1, EOF."""
    order = parse_order(graph.n, solution)
    if len(order) != graph.n:
        raise ValueError(f"a tour visits {graph.n} vertices, the solution names {len(order)}")
    head = [f"NAME : {name}.tour", f"COMMENT : Hamiltonian cycle of {name}", "TYPE : TOUR",
            f"DIMENSION : {graph.n}", "TOUR_SECTION"]
    return "\n".join([*head, *(str(v + 1) for v in order), "-1", "EOF"]) + "\n"


# --- bundles: `u-v` pairs on one line --------------------------------------------------------------

def write_compact(graph: Graph) -> str:
    return " ".join(f"{u + 1}-{v + 1}" for u, v in graph.edges)


def read_compact(text: str, rows: int, cols: int, source: str) -> Graph:
    """The graph of a bundle row: `rows` vertices, `cols` edges written `u-v` (1-based), blank-separated."""
    items = text.split()
    if len(items) != cols:
        raise InstanceError(source, f"the row says {cols} edges, found {len(items)}")
    return Graph(rows, tuple(_pair(item.split("-"), rows, source, None) for item in items))
