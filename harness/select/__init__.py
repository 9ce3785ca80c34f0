"""The per-graph selector (`auto`): public FHCP graphs' features and stored runs, a rule fitted to them."""
