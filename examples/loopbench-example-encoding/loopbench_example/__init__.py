"""A worked example of a loopbench plug-in package: one encoding, declared under `loopbench.encodings`."""
