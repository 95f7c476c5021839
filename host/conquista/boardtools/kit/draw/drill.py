"""The base plate at 1:1 in millimetres: `drill.svg` (a printed template, or a laser cutter's file) and
`drill.dxf` (ezdxf; a layer per kind of hole for a CNC), one circle of the hole's diameter per part."""

from __future__ import annotations

from html import escape
from pathlib import Path

from conquista.boardtools.kit.plan.board import PartKind
from conquista.boardtools.kit.plan.placement import Layout

LAYERS = {PartKind.SWITCH: "SWITCH", PartKind.TOUCH: "TOUCH", PartKind.LED: "LED", PartKind.RING: "RING",
          PartKind.BUTTON: "BUTTON", PartKind.ENCODER: "ENCODER", PartKind.MOUNT: "MOUNT", PartKind.CABLE: "CABLE"}


def drill_svg(layout: Layout) -> str:
    f = layout.frame
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{f.width:g}mm" height="{f.height:g}mm" '
           f'viewBox="0 0 {f.width:g} {f.height:g}">',
           f"<title>{escape(layout.profile.name)}: base plate, 1:1 in mm, seen from above</title>",
           f'<rect id="outline" x="0" y="0" width="{f.width:g}" height="{f.height:g}" fill="none" '
           'stroke="#000" stroke-width="0.2"/>']
    for kind, layer in LAYERS.items():
        out.append(f'<g id="{layer.lower()}" fill="none" stroke="#d00" stroke-width="0.2">')
        for p in layout.parts:
            if p.kind is kind and p.hole > 0:
                out.append(f'<circle cx="{p.x:.2f}" cy="{p.y:.2f}" r="{p.hole / 2:g}"><title>{escape(p.name)}'
                           f"</title></circle>")
        out.append("</g>")
    # Engraved or printed only: a laser cutter should be told to skip this group.
    out.append('<g id="labels" font-family="sans-serif" font-size="2.2" fill="#555">')
    for p in layout.parts:
        if p.kind in (PartKind.SWITCH, PartKind.TOUCH, PartKind.BUTTON, PartKind.ENCODER):
            out.append(f'<text x="{p.x:.1f}" y="{p.y + p.hole / 2 + 2.6:.1f}" text-anchor="middle">'
                       f"{escape(p.name)}</text>")
    out.append(f'<text x="4" y="{f.height - 3:g}" font-size="3">{escape(layout.profile.name)}: '
               f"{f.width:g} × {f.height:g} mm plate, holes (mm): {_sizes(layout)}</text>")
    out.append("</g>\n</svg>\n")
    return "\n".join(out)


def _sizes(layout: Layout) -> str:
    """Each kind of hole drilled and its diameter, as printed on the template."""
    sizes: dict[str, float] = {}
    for p in layout.parts:
        if p.kind in LAYERS and p.hole > 0:
            sizes.setdefault(p.kind.value, p.hole)
    return ", ".join(f"{kind} {mm:g}" for kind, mm in sizes.items())


def write_dxf(path: Path, layout: Layout) -> None:
    from ezdxf import units
    from ezdxf.filemanagement import new

    f = layout.frame
    doc = new("R2010", setup=True)
    doc.units = units.MM
    msp = doc.modelspace()
    doc.layers.add("OUTLINE", color=7)
    for layer in LAYERS.values():
        doc.layers.add(layer, color=1)
    # DXF's y runs up: the plate's top edge is at y = height.
    msp.add_lwpolyline([(0, 0), (f.width, 0), (f.width, f.height), (0, f.height)], close=True,
                       dxfattribs={"layer": "OUTLINE"})
    for p in layout.parts:
        if p.kind not in LAYERS or p.hole <= 0:
            continue
        msp.add_circle((p.x, f.height - p.y), p.hole / 2, dxfattribs={"layer": LAYERS[p.kind]})
    doc.saveas(path)
