"""The scenario format and its runner (`rami check`)."""
