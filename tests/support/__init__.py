"""Helpers shared by the tests: the random playout harness."""
