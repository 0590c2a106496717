"""The turn machine and its parts: what a seat may do, and what follows."""
