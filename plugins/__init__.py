"""House-rule plugins bundled with rami (shipped as rami_core.plugins)."""
