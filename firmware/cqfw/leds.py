"""Optional LED chain output on the Pico (needed on a Pi 5, where the Pi cannot drive WS2812B itself).

The host sends finished, current-limited colours; the firmware only copies them into the driver's buffer and
latches them on LED_SHOW, so a frame spread over several link frames never shows half updated.
"""


class LedOutput:
    def __init__(self, pin: object, count: int) -> None:
        # Imported here so the firmware modules import where no `neopixel` exists (CPython, the tests).
        import neopixel

        self.np = neopixel.NeoPixel(pin, count)
        self.count = count
        # Writing the driver's buffer directly skips the tuple that np[i] = (r, g, b) would allocate per LED.
        self.buf = self.np.buf
        self.order = self.np.ORDER
        self.bpp = self.np.bpp

    def load(self, start: int, src: bytearray, offset: int, count: int) -> None:
        buf = self.buf
        o0 = self.order[0]
        o1 = self.order[1]
        o2 = self.order[2]
        bpp = self.bpp
        i = 0
        while i < count and start + i < self.count:
            base = (start + i) * bpp
            j = offset + 3 * i
            buf[base + o0] = src[j]
            buf[base + o1] = src[j + 1]
            buf[base + o2] = src[j + 2]
            i += 1

    def show(self) -> None:
        self.np.write()
