"""Board profiles: how a physical board is wired (LEDs, sensors, pins, strip and power settings)."""
