"""The DRAT checker's reading and rules (harness.proof.drat): binary edge cases, strict text, variables."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_proof_mutation import genuine

from harness.proof.__main__ import main
from harness.proof.drat import (
    MAX_VARIABLE,
    TRUSTED_VARIABLES,
    ProofFormatError,
    Step,
    binary_to_text,
    check,
    read_cnf,
    read_drat,
    sized,
)

ENGINES = ("minisat", "python")
SAT = "p cnf 2 1\n1 2 0\n"  # satisfiable: no proof may refute it


def binary(*steps: tuple[str, list[int]]) -> bytes:
    """Binary DRAT as CaDiCaL writes it: `a`/`d`, each literal a varint of 2*var + sign, then 0."""
    out = bytearray()
    for marker, lits in steps:
        out += marker.encode()
        for lit in lits:
            value = 2 * abs(lit) + (lit < 0)
            while value > 127:
                out.append(value & 0x7F | 0x80)
                value >>= 7
            out.append(value)
        out.append(0)
    return bytes(out)


def test_the_reported_13_byte_refutation_of_a_satisfiable_formula_is_rejected(tmp_path):
    # `a 01 02 00  a 01 03 00  a 03 00  a 00`: 0x01 decodes to literal 0, which once shared a slot with -0
    data = bytes.fromhex("61010200" "61010300" "610300" "6100")
    assert len(data) == 13
    with pytest.raises(ProofFormatError, match=r"byte 1: literal 0 \(0x01\) inside a step"):
        read_drat("p.drat", data)
    (tmp_path / "f.cnf").write_text(SAT)
    (tmp_path / "p.drat").write_bytes(data)
    assert main([str(tmp_path / "f.cnf"), str(tmp_path / "p.drat")]) == 2


@pytest.mark.parametrize("data, problem", [
    (b"a\x80\x00", r"byte 2: a literal cut short by the step's end"),  # 0x80 0x00: overlong literal 0
    (b"a\x82\x00", r"byte 2: a literal cut short"),  # an overlong 1 (0x82 0x00)
    (b"a\x04\x82", r"byte 3: the last step has no terminating 0"),  # a varint cut off by the file's end
    (b"a\x04", r"byte 2: the last step has no terminating 0"),
    (b"a\x04\x80\x80\x80\x80\x80\x01\x00", r"byte 2: a varint longer than 32 bits"),
    (b"a\x80\x80\x80\x80\x10\x00", r"byte 1: literal past the largest variable"),  # variable 2**31
    (b"a\x04\x00x\x04\x00", r"byte 3: byte 0x78 where a step's `a` or `d` should be"),
    (b"a\x04\x00\x00", r"byte 3: a 0 byte where a step's `a` or `d` should be"),
    (b"a\x04\x01\x00", r"byte 2: literal 0 \(0x01\) inside a step"),
    (b"d\x04\x83\x80\x00", r"byte 4: a literal cut short"),
])
def test_a_malformed_binary_proof_is_rejected_naming_its_byte(data, problem):
    with pytest.raises(ProofFormatError, match=problem):
        read_drat("p.drat", data)


def test_binary_literals_of_every_width_read_back():
    lits = [1, -1, 63, -64, 64, 8191, -8192, 2**20 + 3, -(2**31 - 1)]
    steps = read_drat("p.drat", binary(("a", lits), ("d", [5, -6]), ("a", [])))
    expected = [(lits, False, 1), ([5, -6], True, 2), ([], False, 3)]
    assert [(s.lits, s.delete, s.line) for s in steps] == expected
    assert binary_to_text(binary(("a", [-2, 3]), ("a", []))) == "-2 3 0\n0\n"
    assert read_drat("p.drat", b"") == []


@pytest.mark.parametrize("text, problem", [
    ("1 -0 0\n", "not a DRAT line"), ("+1 0\n", "not a DRAT line"), ("01 0\n", "not a DRAT line"),
    ("1 2\nd 1 0\n", "`d` inside a clause"), ("d d 1 0\n", "not a DRAT line"),
    ("1 2 0\n3", "no terminating 0"), ("d 1 2", "no terminating 0"), ("1 x 0\n", "p.drat:1: not a DRAT line"),
    ("2147483648 0\n", "past the largest"),
])
def test_a_malformed_text_proof_is_rejected_naming_its_line(text, problem):
    with pytest.raises(ProofFormatError, match=problem):
        read_drat("p.drat", text.encode())


def test_text_steps_may_span_lines_and_share_them():
    steps = read_drat("p.drat", b"c a comment\n1 2\n 3 0 d 1 2 3 0\n0\n")
    expected = [([1, 2, 3], False, 2), ([1, 2, 3], True, 3), ([], False, 4)]
    assert [(s.lits, s.delete, s.line) for s in steps] == expected


@pytest.mark.parametrize("engine", ENGINES)
def test_a_new_variable_comes_only_as_the_next_one_and_a_lemmas_pivot(engine):
    cnf = read_cnf("f.cnf", "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    ok = check(cnf, read_drat("p", b"3 1 0\n-3 0\n1 0\n0\n"), engine=engine)  # 3 defined, then used
    assert ok.ok and ok.rat >= 1
    for proof, why in [(b"1 3 0\n0\n", "not as the lemma's first literal"),
                       (b"4 0\n0\n", "not the next variable, 3"),
                       (b"d 3 1 0\n0\n", "in a deletion"),
                       (b"1 0\n0\nd 9 0\n", "variable 9")]:  # after the empty clause too
        result = check(cnf, read_drat("p", proof), engine=engine)
        assert not result.ok and why in result.reason


@pytest.mark.parametrize("engine", ENGINES)
def test_no_proof_refutes_a_satisfiable_formula(engine):
    cnf = read_cnf("f.cnf", SAT)
    for proof in (b"0\n", b"1 0\n2 0\n0\n", b"-1 0\n0\n", b"3 0\n-3 0\n0\n", b"1 2 0\n1 2 0\n0\n"):
        result = check(cnf, read_drat("p", proof), engine=engine)
        assert not result.ok, proof


def test_both_engines_verify_a_real_proof_and_core_only_checks_fewer():
    cnf_text, data, _ = genuine("graph-hard", "graph-flower-20-s2026-000")  # CaDiCaL's, as `sat` logs it
    cnf, steps = read_cnf("j5.cnf", cnf_text), read_drat("j5.drat", data)
    assert steps == read_drat("j5.drat", binary_to_text(data).encode())
    every = {engine: check(cnf, steps, engine=engine) for engine in ENGINES}
    assert all(r.ok for r in every.values()), {e: r.reason for e, r in every.items()}
    assert every["minisat"].checked == every["python"].checked == every["minisat"].lemmas
    core = check(cnf, steps, core_only=True)
    assert core.ok and 0 < core.core == core.checked - 1 < core.lemmas  # the empty clause, then its core


def test_a_wrong_lemma_outside_the_core_is_rejected_unless_core_only():
    # 1..3 refute the formula; 5 and 6 are apart, and `-6` follows neither by RUP nor by RAT on -6
    cnf = read_cnf("f.cnf", "p cnf 6 6\n1 2 0\n1 -2 0\n-1 3 0\n-1 -3 0\n5 6 0\n-5 -6 0\n")
    steps = read_drat("p.drat", b"-6 0\n1 0\n0\n")
    for engine in ENGINES:
        result = check(cnf, steps, engine=engine)
        assert not result.ok and result.reason == "proof line 1: lemma `-6 0` is neither RUP nor RAT"
    core = check(cnf, steps, core_only=True)  # drat-trim's verdict: nothing the refutation rests on is wrong
    assert core.ok and (core.lemmas, core.checked, core.core) == (3, 2, 1)


@pytest.mark.parametrize("header, said", [
    ("p cnf 99999999999999 1", "past the largest"),  # the reported 16.7 GB header: read, never sized
    ("p cnf 2000000000 2", "declares 2000000000 variables, but the formula and the proof hold only 2"),
    ("p cnf -3 2", "must be >= 0"),
])
def test_a_header_past_what_the_files_can_use_is_unreadable_before_anything_is_allocated(tmp_path, header,
                                                                                           said):
    import resource
    import subprocess
    import sys

    body = "1 0\n" if "9999" in header else "1 0\n-1 0\n"
    (tmp_path / "f.cnf").write_text(f"{header}\n{body}")
    (tmp_path / "p.drat").write_text("0\n")

    def cap() -> None:  # 1 GB of address space: a checker that sized its tables by the header dies
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([sys.executable, "-m", "harness.proof", str(tmp_path / "f.cnf"),
                           str(tmp_path / "p.drat")], capture_output=True, text=True, timeout=60,
                          preexec_fn=cap)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "f.cnf" in done.stderr and said in done.stderr
    assert "Traceback" not in done.stderr


def test_a_header_with_spare_variables_within_the_trusted_count_is_checked_as_usual(tmp_path):
    cnf = read_cnf("f.cnf", f"p cnf {TRUSTED_VARIABLES} 2\n1 0\n-1 0\n")  # unused variables, as DIMACS allows
    for engine in ENGINES:
        assert check(cnf, read_drat("p.drat", b"0\n"), engine=engine).ok
    sparse = read_cnf("f.cnf", f"p cnf {TRUSTED_VARIABLES + 1} 2\n1 0\n-1 0\n")
    with pytest.raises(ProofFormatError, match="f.cnf: the header declares"):
        check(sparse, read_drat("p.drat", b"0\n"))


# --- properties (Hypothesis): whatever the bytes, a proof or one ProofFormatError -----------------------

# A fixed budget, the same examples every run (CI needs no flaky luck), no example database written into
# the checkout; a shared machine may be slow.
BUDGET = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
LITERALS = st.integers(1, MAX_VARIABLE).flatmap(lambda v: st.sampled_from([v, -v]))
STEPS = st.lists(st.tuples(st.booleans(), st.lists(LITERALS, max_size=6)), max_size=12)
TOKENS = ["0", "1", "-1", "2", "-2", "d", "c", "x", "01", "-0", "+1", "2147483648", " ", "\n", "\t", "\r\n"]
DRAT_TEXT = st.lists(st.sampled_from(TOKENS), max_size=30).map("".join)


def as_text(steps: list[tuple[bool, list[int]]]) -> bytes:
    return "".join(("d " if delete else "") + " ".join(map(str, [*lits, 0])) + "\n"
                   for delete, lits in steps).encode()


@BUDGET
@given(st.binary(max_size=64) | DRAT_TEXT.map(str.encode))
def test_any_bytes_are_a_proof_or_one_proof_format_error(data):
    try:
        steps = read_drat("p.drat", data)
    except ProofFormatError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("p.drat")
        return
    assert all(isinstance(s, Step) and all(0 < abs(lit) <= MAX_VARIABLE for lit in s.lits) for s in steps)


@BUDGET
@given(STEPS)
def test_steps_written_as_text_or_binary_read_back_as_they_were(steps):
    as_binary = binary(*[("d" if delete else "a", lits) for delete, lits in steps])
    for data in (as_text(steps), as_binary, binary_to_text(as_binary).encode()):
        read = read_drat("p.drat", data)
        assert [(s.delete, s.lits) for s in read] == [(d, lits) for d, lits in steps]


@BUDGET
@given(st.integers(-5, 2**70), st.integers(-5, 2**70), st.lists(st.lists(LITERALS, min_size=1, max_size=4),
                                                                 max_size=4))
def test_any_header_is_read_or_refused_in_one_line_and_never_sized_past_what_files_use(vars_, count, clauses):
    body = "".join(" ".join(map(str, [*c, 0])) + "\n" for c in clauses)
    try:
        cnf = read_cnf("f.cnf", f"p cnf {vars_} {count}\n{body}")
        sized(cnf, [])
    except ProofFormatError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("f.cnf")
        return
    # read and sized: the header is in range, holds every literal, and is no more than the files can use
    assert 0 <= vars_ <= MAX_VARIABLE and count == len(clauses)
    assert all(abs(lit) <= vars_ for c in clauses for lit in c)
    assert vars_ <= max(TRUSTED_VARIABLES, sum(map(len, clauses)))


@BUDGET
@given(st.integers(0, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.lists(st.integers(-n, n).filter(bool), min_size=1, max_size=3), max_size=6)
    if n else st.just([]), DRAT_TEXT)))
def test_a_small_formula_and_any_proof_end_in_a_verdict_or_one_error(case):
    n, clauses, proof = case
    cnf = read_cnf("f.cnf", f"p cnf {n} {len(clauses)}\n" + "".join(" ".join(map(str, [*c, 0])) + "\n"
                                                                  for c in clauses))
    try:
        steps = read_drat("p.drat", proof.encode())
    except ProofFormatError:
        return
    for engine in ENGINES:
        result = check(cnf, steps, engine=engine)
        assert result.ok or result.reason  # a verdict, with its reason when not verified
