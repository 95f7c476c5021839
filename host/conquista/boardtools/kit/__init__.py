"""`conquista board kit`: what a builder prints, drills, buys and solders, computed from the map and the profile.

`plan` is the pure geometry (the territories' outlines, where every part goes, the tiles of a home-printed map,
the bill of materials' quantities); `draw` writes it out (PDF, SVG, DXF, CSV, JSON); `build` writes a whole kit
into a temporary folder and moves it into place. shapely, ezdxf and matplotlib are imported inside these modules
only (the `kit` extra), so the rest of the CLI never pays for them.
"""
