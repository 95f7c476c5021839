"""The kit's pure geometry: outlines, the board's layout, part positions, tiles and quantities (no files written)."""
