"""Presets: one YAML profile per variant (shipped as rami_core.variants)."""
