"""Tools that stand outside the Ringside service: the standalone bundle verifier and its test vectors."""
