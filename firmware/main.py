"""Boot entry on the Pico. MicroPython runs this file as __main__; under CPython importing it does nothing."""


def _boot() -> None:
    import os

    from cqfw import pico

    try:
        os.stat(pico.MAINTENANCE_FLAG)
    except OSError:
        pico.run()
        return
    # The host asked for the REPL (conquista firmware deploy): stay there, without the watchdog, just this once.
    os.remove(pico.MAINTENANCE_FLAG)
    print("conquista firmware: maintenance mode, scan not started")


if __name__ == "__main__":
    _boot()
