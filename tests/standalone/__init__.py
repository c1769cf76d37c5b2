"""The bundle format as a third party sees it: the standalone verifier, the test vectors and the spec."""
