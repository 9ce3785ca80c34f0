"""Proofs for `unsat` answers: a DRAT checker, the validity of lazily added cuts, and proof logging."""
