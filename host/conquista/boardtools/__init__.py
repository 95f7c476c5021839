"""Tools for the builder: calibrate a board into a profile, self-test a built one."""
