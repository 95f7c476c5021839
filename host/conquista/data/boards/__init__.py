"""Board profiles shipped with the package (TOML), read with importlib.resources."""
