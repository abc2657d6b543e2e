"""Faults the server withstands, injected with small counts in CI and full counts by
``make stress`` (environment variables named in each test module)."""
