"""The app layer: composition roots that build devices, the referee and the journal and run them.

`board` runs a real board from its profile; `runner` connects any board's devices (real or simulated) to the
referee. Nothing here is imported by the layers below.
"""
