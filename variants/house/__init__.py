"""House-rule examples built on the presets (shipped as rami_core.variants.house)."""
