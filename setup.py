"""What pyproject.toml cannot say: three top-level packages from three directories.

The Pico's firmware (firmware/) ships as the package `conquista_firmware`, so an installed conquista (not only a
checkout) can run it on the simulated Pico (`conquista sim-mcu`) and copy it to a board (`conquista firmware
deploy`). Its modules are MicroPython code and are never imported as `conquista_firmware.*` on the host.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages("host"), *find_packages("simulator"),
              *("conquista_firmware" + name for name in ("", *("." + p for p in find_packages("firmware"))))],
    package_dir={"conquista": "host/conquista", "conquista_sim": "simulator/conquista_sim",
                 "conquista_firmware": "firmware"},
)
