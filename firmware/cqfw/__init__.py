"""conquista firmware for the Raspberry Pi Pico: sensor matrix scan, debounce and the serial link.

Every module here imports under CPython too (the simulated Pico and the tests run them) and does no work at
import: hardware is built only by `cqfw.pico.run()`, which `main.py` calls on the board.
"""

VERSION = (0, 2, 0)  # 0.2: HELLO carries the LED count; the MPR121 touch scanner
