"""The serial link to the Pico firmware: the shared wire codec, the host's protocol state machine, the pyserial
transport with reconnection, the sensor source the referee plugs in, and the simulated Pico.

Only `codec` runs on the Pico too; everything else is host-only. Nothing here opens a port at import.
"""
