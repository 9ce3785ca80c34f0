"""The parts of `sat`'s counter-example-guided loop search: driver, refinements, rebuilds, split."""
