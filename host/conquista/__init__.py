"""conquista: the electronic referee for a physical 42-territory conquest board."""

__version__ = "0.1.0"
