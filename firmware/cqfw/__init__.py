"""conquista firmware for the Raspberry Pi Pico: sensor matrix scan, debounce and the serial link.

Every module here imports under CPython too (the simulated Pico and the tests run them) and does no work at
import: hardware is built only by `cqfw.pico.run()`, which `main.py` calls on the board.
"""

VERSION = (0, 1, 0)
