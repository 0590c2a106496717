"""The files rami reads: its bundled data and a user's own files, read safely."""
