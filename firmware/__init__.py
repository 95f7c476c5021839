"""The Pico firmware (MicroPython), shipped with the package so an installed conquista can deploy it and run it
on the simulated Pico. Nothing here is imported on the host: conquista_sim.pico finds these files as data."""
