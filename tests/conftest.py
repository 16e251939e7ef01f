"""Shared test settings: hypothesis runs derandomized so CI is reproducible."""

from hypothesis import HealthCheck, settings

settings.register_profile("aluette", derandomize=True, deadline=None, max_examples=150,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("aluette")
