"""What pyproject.toml cannot say: three top-level packages from three directories.

The Pico's firmware (firmware/) ships as the package `conquista_firmware`, so an installed conquista (not only a
checkout) can run it on the simulated Pico (`conquista sim-mcu`) and copy it to a board (`conquista firmware
deploy`). Its modules are MicroPython code and are never imported as `conquista_firmware.*` on the host.
"""

from setuptools import find_packages, setup

setup(
    # conquista.web.static holds the web app's pages and scripts, no Python: a package of data files (declared in
    # pyproject.toml's package-data), named here because find_packages only finds directories with __init__.py.
    packages=[*find_packages("host"), "conquista.web.static", *find_packages("simulator"),
              *("conquista_firmware" + name for name in ("", *("." + p for p in find_packages("firmware"))))],
    package_dir={"conquista": "host/conquista", "conquista_sim": "simulator/conquista_sim",
                 "conquista_firmware": "firmware"},
)
