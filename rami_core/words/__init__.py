"""What is said: the codes of a refusal or a problem, and their words per language."""
