"""The kit's writers: the plan drawn as PDF pages (matplotlib), the plate as SVG and DXF (ezdxf), the lists."""
