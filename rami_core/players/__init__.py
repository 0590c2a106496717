"""Who plays and what is kept: bots, the hint, narration, saved and simulated games."""
