"""Graph formats: plain text (`graph N M` + `u v` lines), TSPLIB HCP, DIMACS, TSPLIB tours, bundles' one line.

Every text form numbers vertices 1..N. A repeated edge is one edge (in either direction: the
model keeps each once); a self-loop, a vertex outside 1..N or an edge count that does not match
the header is an error naming the source and line.
"""

from __future__ import annotations

import re

from harness.errors import InstanceError, cut
from harness.kinds import Lines, nonblank_lines
from harness.kinds.bounds import DIGITS, limits, number, past, shown
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
    if len(tokens) != 2 or not all(t.isascii() and t.isdecimal() for t in tokens):
        found = " ".join(tokens[:3])
        raise InstanceError(source, f"expected an edge `u v` (two vertex numbers), found {shown(found)}",
                            line)
    u, v = (_vertex(t, n, source, line) + 1 for t in tokens)
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
    """A graph from a TSPLIB HCP file: header, EDGE_DATA_SECTION, the edges, then `-1` and `EOF`.

    As files come in the wild: EDGE_DATA_FORMAT EDGE_LIST (the default; pairs `u v`, several to a
    line) or ADJ_LIST (`u` then its neighbours then `-1`, per vertex), the closing `-1` and `EOF`
    each optional.
    """
    lines = nonblank_lines(text)
    header: dict[str, tuple[int, str]] = {}
    i = 0
    while i < len(lines) and lines[i][1].upper().rstrip(":").strip() != "EDGE_DATA_SECTION":
        n, line = lines[i]
        match = _KEY.fullmatch(line)
        if not match:
            raise InstanceError(source, f"expected a header line `KEY : VALUE` or EDGE_DATA_SECTION, "
                                        f"found {shown(line)}", n)
        key, value = match[1].upper(), match[2].strip()
        if key in header and key != "COMMENT":  # a second DIMENSION must not silently win
            raise InstanceError(source, f"a second {key} line (the first is line {header[key][0]})", n)
        if key == "TYPE" and value.upper() != "HCP":
            raise InstanceError(source, f"TYPE is {shown(value)}: only HCP files are graphs", n)
        if key == "DIMENSION":
            number(value, "DIMENSION", source, n, least=1)
        if key == "EDGE_DATA_FORMAT" and value.upper() not in EDGE_FORMATS:
            raise InstanceError(source, f"EDGE_DATA_FORMAT {shown(value)} is not read "
                                        f"(only {' or '.join(EDGE_FORMATS)})", n)
        header[key] = (n, value)
        i += 1
    if i == len(lines):
        raise InstanceError(source, "no EDGE_DATA_SECTION", lines[-1][0] if lines else 1)
    for key, example in (("TYPE", "TYPE : HCP"), ("DIMENSION", "DIMENSION : N")):
        if key not in header:
            raise InstanceError(source, f"no `{example}` line before EDGE_DATA_SECTION", lines[i][0])
    n = int(header["DIMENSION"][1])
    body, rest = _section(lines[i + 1:], source)
    if rest:
        at, extra = rest[0]
        raise InstanceError(source, f"unexpected {shown(extra)} after the edge list's -1", at)
    adjacency = header.get("EDGE_DATA_FORMAT", (0, "EDGE_LIST"))[1].upper() == "ADJ_LIST"
    return Graph(n, tuple(_adj_list(body, n, source) if adjacency else _edge_list(body, n, source)))


EDGE_FORMATS = ("EDGE_LIST", "ADJ_LIST")
Tokens = list[tuple[int, str]]  # (line number, token) of a data section


def _section(lines: Lines, source: str) -> tuple[Tokens, Lines]:
    """The data section's tokens up to an EOF line (or the end), and the lines after that EOF.

    Where the closing `-1` is, is the readers' to find: an ADJ_LIST's `-1` also ends each vertex's list.
    """
    tokens: Tokens = []
    most = 3 * limits().count + 2  # an ADJ_LIST of `count` edges on `count` vertices, each list closed
    for j, (line_no, line) in enumerate(lines):
        if line.upper() == "EOF":
            return tokens, lines[j + 1:]
        tokens += [(line_no, token) for token in line.split()]
        if len(tokens) > most:
            raise past(source, f"more than {most:,} numbers in the edge data (3 x the count + 2)", "count",
                       line_no)
    return tokens, []


def _vertex(token: str, n: int, source: str, line: int) -> int:
    """A 0-based vertex from a 1-based token, checked against 1..n."""
    if not (token.isascii() and token.isdecimal()):
        raise InstanceError(source, f"expected a vertex number, found {shown(token)}", line)
    if len(token.lstrip("0")) > DIGITS or not 1 <= int(token) <= n:
        raise InstanceError(source, f"vertex {cut(token, 24)} is outside 1..{n}", line)
    return int(token) - 1


def _edge(u: int, v: int, source: str, line: int) -> Edge:
    if u == v:
        raise InstanceError(source, f"self-loop at vertex {u + 1}", line)
    return u, v


def _closing(tokens: Tokens, k: int, source: str) -> None:
    """Nothing may follow the `-1` at `k` that ends the section (an EOF line was cut off before)."""
    if k + 1 < len(tokens):
        at, extra = tokens[k + 1]
        raise InstanceError(source, f"unexpected {shown(extra)} after the edge list's -1", at)


def _edge_list(tokens: Tokens, n: int, source: str) -> list[Edge]:
    """EDGE_LIST: pairs `u v`, any number to a line, until a `-1` where a pair would start."""
    edges = []
    k = 0
    while k < len(tokens):
        line, token = tokens[k]
        if token == "-1":
            _closing(tokens, k, source)
            break
        if k + 1 == len(tokens) or tokens[k + 1][1] == "-1" or tokens[k + 1][0] != line:
            raise InstanceError(source, f"an edge needs two vertices: {shown(token)} stands alone", line)
        u, v = _vertex(token, n, source, line), _vertex(tokens[k + 1][1], n, source, line)
        edges.append(_edge(u, v, source, line))
        k += 2
    return edges


def _adj_list(tokens: Tokens, n: int, source: str) -> list[Edge]:
    """ADJ_LIST: per vertex `u w1 w2 ... -1`, until a `-1` where a vertex would start."""
    edges = []
    k = 0
    while k < len(tokens):
        line, token = tokens[k]
        if token == "-1":
            _closing(tokens, k, source)
            break
        u = _vertex(token, n, source, line)
        k += 1
        while k < len(tokens) and tokens[k][1] != "-1":
            edges.append(_edge(u, _vertex(tokens[k][1], n, source, tokens[k][0]), source, tokens[k][0]))
            k += 1
        if k == len(tokens):
            raise InstanceError(source, f"the adjacency list of vertex {u + 1} does not end with -1",
                                tokens[-1][0])
        k += 1  # the -1 closing u's list
    return edges


# --- DIMACS graphs ---------------------------------------------------------------------------------

def is_dimacs(text: str) -> bool:
    """Whether the text opens like a DIMACS graph: its first line a `c` comment or a `p` line."""
    for line in text.lstrip("\ufeff").splitlines():
        words = line.split()
        if words:
            return words[0] == "c" or (words[0] == "p" and len(words) in (3, 4))
    return False


def read_dimacs(text: str, source: str) -> Graph:
    """A graph from a DIMACS file: `c` comments, `p edge N M` (or `p N M`), then `e u v` lines.

    The `e` lines may list each edge once or in both directions: M must be one of the two counts.
    """
    n = m = p_line = -1
    edges: list[Edge] = []
    lines = nonblank_lines(text)
    for line_no, line in lines:
        words = line.split()
        if words[0] == "c":
            continue
        if words[0] == "p":
            if p_line >= 0:
                raise InstanceError(source, f"a second `p` line (the first is line {p_line})", line_no)
            counts = words[2:] if len(words) == 4 else words[1:]
            if len(counts) != 2 or not all(c.isascii() and c.isdecimal() for c in counts):
                raise InstanceError(source, f"expected `p edge N M` or `p N M` (N >= 1), found {shown(line)}",
                                    line_no)
            n = number(counts[0], "the `p` line's vertex count", source, line_no, least=1)
            m = number(counts[1], "the `p` line's edge count", source, line_no)
            p_line = line_no
        elif words[0] == "e":
            if p_line < 0:
                raise InstanceError(source, "an `e` line before the `p` line", line_no)
            edges.append(_pair(words[1:], n, source, line_no))
        else:
            raise InstanceError(source, f"expected a `c`, `p` or `e` line, found {shown(line)}", line_no)
    if p_line < 0:
        raise InstanceError(source, "no `p edge N M` line", lines[-1][0] if lines else 1)
    graph = Graph(n, tuple(edges))
    if m not in (len(edges), len(graph.edges)):
        raise InstanceError(source, f"the `p` line says {m} edges, found {len(edges)} `e` lines "
                                    f"({len(graph.edges)} distinct edges)", p_line)
    return graph


def write_dimacs(graph: Graph, comment: str = "") -> str:
    """The graph as a DIMACS file: a `c` line if a comment is given, `p edge N M`, one `e u v` a line."""
    head = [f"c {comment}"] if comment else []
    return "\n".join([*head, f"p edge {graph.n} {len(graph.edges)}",
                      *(f"e {u + 1} {v + 1}" for u, v in graph.edges)]) + "\n"


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
    return tour_text(solution, name)


def tour_text(solution: str, name: str = "graph") -> str:
    """The TSPLIB tour file of a checked solution string (its vertices in order, 1-based), graph unseen."""
    order = solution.split()
    head = [f"NAME : {name}.tour", f"COMMENT : Hamiltonian cycle of {name}", "TYPE : TOUR",
            f"DIMENSION : {len(order)}", "TOUR_SECTION"]
    return "\n".join([*head, *order, "-1", "EOF"]) + "\n"


# --- bundles: each vertex's later neighbours, gaps only -----------------------------------------------

def write_compact(graph: Graph) -> str:
    """The bundle form: for each vertex u with neighbours v > u, `g:d1,d2,...`, g the gap from the
    previous such vertex (from 0 for the first), d the gaps between u and its sorted neighbours; the
    edges in the model's order (u < v, sorted) when read back. Small gaps compress well: FHCP's
    100-graph sample is 1.16 MB gzipped, against 2.69 MB as `u-v` pairs (`read_compact` takes both)."""
    later: dict[int, list[int]] = {}
    for u, v in graph.edges:
        later.setdefault(u + 1, []).append(v + 1)
    groups, previous = [], 0
    for u, ends in later.items():
        gaps = [ends[0] - u, *(b - a for a, b in zip(ends, ends[1:], strict=False))]
        groups.append(f"{u - previous}:{','.join(map(str, gaps))}")
        previous = u
    return " ".join(groups)


def read_compact(text: str, rows: int, cols: int, source: str) -> Graph:
    """The graph of a bundle row: `rows` vertices and `cols` edges, in `write_compact`'s form or as
    `u-v` pairs (1-based, blank-separated: the form bundles had before)."""
    items = text.split()
    if items and ":" in items[0]:
        pairs, u = [], 0
        for item in items:
            gap, _, gaps = item.partition(":")
            try:
                u += int(gap)
                v = u
                for d in gaps.split(","):
                    v += int(d)
                    pairs.append([str(u), str(v)])
            except ValueError:
                raise InstanceError(source, f"bad adjacency group {shown(item)}") from None
    else:
        pairs = [item.split("-") for item in items]
    if len(pairs) != cols:
        raise InstanceError(source, f"the row says {cols} edges, found {len(pairs)}")
    return Graph(rows, tuple(_pair(pair, rows, source, None) for pair in pairs))
