"""The game's data (state, actions, events, a seat's view) and the plugin contract."""
