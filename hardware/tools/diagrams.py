#!/usr/bin/env python3
"""diagrams.py — writes hardware/squares.svg (square numbering + mux/channel,
read from pinmap.json) and hardware/cross-section.svg (one square, side view,
to scale). Run from anywhere: python3 hardware/tools/diagrams.py"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HW = os.path.dirname(HERE)
pinmap = json.load(open(os.path.join(HW, "pinmap.json")))
by_square = {s["square"]: s for s in pinmap["squares"]}

FONT = "font-family=\"Helvetica, Arial, sans-serif\""


def squares_svg():
    S = 80           # px per square (25 mm)
    X0, Y0 = 60, 96  # board origin
    W, H = X0 * 2 + 8 * S, Y0 + 8 * S + 120
    mux_colour = {0: "#2f7fc1", 1: "#e07b24"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" {FONT}>',
           '<title>Crownhead: PDN square numbers and the mux input under each dark square</title>',
           f'<rect width="{W}" height="{H}" fill="#fbf8f1"/>',
           f'<text x="{W/2}" y="30" font-size="20" font-weight="bold" text-anchor="middle" fill="#333">Square numbers (PDN 1–32) and sensor wiring</text>',
           f'<text x="{W/2}" y="54" font-size="13" text-anchor="middle" fill="#555">Seen from above, Black\'s side at the top. Under each dark square: its Hall sensor\'s mux and channel.</text>',
           f'<text x="{W/2}" y="{Y0-12}" font-size="13" text-anchor="middle" fill="#333">Black — men start on 1–12 (double corner 1/5 at the left, single corner 4 at the right)</text>',
           f'<rect x="{X0-4}" y="{Y0-4}" width="{8*S+8}" height="{8*S+8}" rx="4" fill="#5b3a22"/>']
    for row in range(8):
        for col in range(8):
            x, y = X0 + col * S, Y0 + row * S
            dark = (row % 2 == 0 and col % 2 == 1) or (row % 2 == 1 and col % 2 == 0)
            if not dark:
                out.append(f'<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="#efe2c4"/>')
                continue
            sq = row * 4 + (col // 2) + 1
            m = by_square[sq]
            c = mux_colour[m["mux"]]
            out.append(f'<g id="sq{sq}">')
            out.append(f'<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="#6f8f5e"/>')
            out.append(f'<circle cx="{x+S/2}" cy="{y+S/2-6}" r="24" fill="none" stroke="#dfe9d4" stroke-width="1.5" stroke-dasharray="3 3"/>')
            out.append(f'<text x="{x+S/2}" y="{y+S/2+2}" font-size="26" font-weight="bold" text-anchor="middle" fill="#ffffff">{sq}</text>')
            out.append(f'<rect x="{x+6}" y="{y+S-22}" width="{S-12}" height="16" rx="3" fill="{c}"/>')
            out.append(f'<text x="{x+S/2}" y="{y+S-10}" font-size="11" text-anchor="middle" fill="#ffffff">mux {m["mux"]} · C{m["channel"]}</text>')
            out.append('</g>')
    for i in range(8):
        out.append(f'<text x="{X0-14}" y="{Y0+i*S+S/2+4}" font-size="11" text-anchor="middle" fill="#777">r{i}</text>')
        out.append(f'<text x="{X0+i*S+S/2}" y="{Y0+8*S+18}" font-size="11" text-anchor="middle" fill="#777">c{i}</text>')
    ly = Y0 + 8 * S + 44
    out.append(f'<text x="{W/2}" y="{ly}" font-size="13" text-anchor="middle" fill="#333">White — men start on 21–32 (single corner 29 at the left, double corner 28/32 at the right)</text>')
    out.append(f'<rect x="{X0}" y="{ly+18}" width="16" height="16" rx="3" fill="{mux_colour[0]}"/>')
    out.append(f'<text x="{X0+22}" y="{ly+31}" font-size="12" fill="#333">mux 0 → A0: squares 1–16, channel = square − 1</text>')
    out.append(f'<rect x="{X0+350}" y="{ly+18}" width="16" height="16" rx="3" fill="{mux_colour[1]}"/>')
    out.append(f'<text x="{X0+372}" y="{ly+31}" font-size="12" fill="#333">mux 1 → A1: squares 17–32, channel = square − 17</text>')
    out.append(f'<text x="{X0}" y="{ly+56}" font-size="11" fill="#777">Squares 25 mm: 16 piecepack tiles of 2×2 squares. Dashed circle: coin centring ring. Both muxes share S0–S3 (D2–D5).</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def cross_section_svg():
    k = 16.0                 # px per mm
    W, H = 1240, 570
    cx = 520                 # coin centre x (px)
    ytile = 250              # top of tile (px)
    def mm(v):
        return v * k
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" {FONT}>',
         '<title>Crownhead: one square in cross-section (to scale)</title>',
         '<defs><marker id="a" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker>'
         '<pattern id="wood" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="#d9b98c"/><path d="M0,6 h8" stroke="#c9a574" stroke-width="1"/></pattern></defs>',
         f'<rect width="{W}" height="{H}" fill="#fbf8f1"/>',
         f'<text x="20" y="30" font-size="20" font-weight="bold" fill="#333">One square in cross-section (to scale, 1 mm = {k:.0f} px)</text>',
         f'<text x="20" y="52" font-size="13" fill="#555">A king (two coins) on a 25 mm square. Magnets glued flush in a pocket under each coin, all with the same pole down.</text>']
    # tile: 25 mm wide square area, 2.5 mm thick; show 1.5 squares wide
    tx0 = cx - mm(12.5)
    o.append(f'<rect x="{tx0-mm(6)}" y="{ytile}" width="{mm(37)}" height="{mm(2.5)}" fill="url(#wood)" stroke="#8a6a44"/>')
    o.append(f'<line x1="{tx0}" y1="{ytile-6}" x2="{tx0}" y2="{ytile+mm(2.5)+6}" stroke="#8a6a44" stroke-dasharray="4 3"/>')
    o.append(f'<line x1="{tx0+mm(25)}" y1="{ytile-6}" x2="{tx0+mm(25)}" y2="{ytile+mm(2.5)+6}" stroke="#8a6a44" stroke-dasharray="4 3"/>')
    # centring ring (0.4 mm printed ring, inner dia 19.6 mm)
    for sx in (-1, 1):
        rx = cx + sx * mm(9.8) + (0 if sx > 0 else -mm(1.0))
        o.append(f'<rect x="{rx}" y="{ytile-mm(0.4)}" width="{mm(1.0)}" height="{mm(0.4)}" fill="#4a7dbf"/>')
    # coins: 19 mm x 3 mm, magnet pocket 8 x 1.5 mm
    for i in range(2):
        cy = ytile - mm(3) * (i + 1)
        o.append(f'<rect x="{cx-mm(9.5)}" y="{cy}" width="{mm(19)}" height="{mm(3)}" rx="3" fill="#e9e4d8" stroke="#7d766a"/>')
        o.append(f'<rect x="{cx-mm(4)}" y="{cy+mm(1.5)}" width="{mm(8)}" height="{mm(1.5)}" fill="#9aa3ad" stroke="#59616a"/>')
        o.append(f'<text x="{cx}" y="{cy+mm(1.5)+mm(1.05)}" font-size="11" text-anchor="middle" fill="#fff">S ↓</text>')
    # paper template + sensor under tile
    yb = ytile + mm(2.5)
    o.append(f'<rect x="{tx0-mm(6)}" y="{yb}" width="{mm(37)}" height="{mm(0.3)}" fill="#ffffff" stroke="#aaa"/>')
    ys = yb + mm(0.3)
    o.append(f'<rect x="{cx-mm(2)}" y="{ys}" width="{mm(4)}" height="{mm(1.5)}" rx="2" fill="#222"/>')
    o.append(f'<circle cx="{cx}" cy="{ys+mm(0.8)}" r="3" fill="#f2c500"/>')
    # legs down to perfboard
    ypcb = ys + mm(6)
    for dx in (-1.27, 0, 1.27):
        o.append(f'<line x1="{cx+mm(dx)}" y1="{ys+mm(1.5)}" x2="{cx+mm(dx)}" y2="{ypcb}" stroke="#888" stroke-width="2"/>')
    o.append(f'<rect x="{tx0-mm(6)}" y="{ypcb}" width="{mm(37)}" height="{mm(1.6)}" fill="#c8a35a" stroke="#8b6d2c"/>')
    for j in range(-14, 15):
        o.append(f'<circle cx="{cx+mm(j*1.27)}" cy="{ypcb+mm(0.8)}" r="2" fill="#8b6d2c"/>')
    # field lines (schematic)
    for r in (20, 40, 62):
        o.append(f'<path d="M{cx-mm(4)} {ytile-mm(1.5)} C {cx-mm(4)-r} {ytile+mm(6)}, {cx+mm(4)+r} {ytile+mm(6)}, {cx+mm(4)} {ytile-mm(1.5)}" fill="none" stroke="#c0392b" stroke-width="1" stroke-dasharray="5 4" opacity="0.55"/>')
    # dimensions
    def vdim(x, y1, y2, label, side=1):
        o.append(f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{y2}" stroke="#333" marker-start="url(#a)" marker-end="url(#a)"/>')
        o.append(f'<text x="{x+8*side}" y="{(y1+y2)/2+4}" font-size="12" text-anchor="{"start" if side>0 else "end"}" fill="#333">{label}</text>')
    vdim(cx + mm(11), ytile - mm(3), ytile, "coin 3 mm", 1)
    vdim(cx - mm(13), ytile, ys + mm(0.8), "z₁ ≈ 4 mm", -1)
    vdim(cx - mm(17.5), ytile - mm(3), ys + mm(0.8), "z₂ ≈ 7 mm", -1)
    o.append(f'<text x="{cx-mm(19)}" y="{ys+mm(0.8)+30}" font-size="11" text-anchor="end" fill="#555">magnet face → Hall element</text>')
    o.append(f'<line x1="{tx0}" y1="{ypcb+mm(4)}" x2="{tx0+mm(25)}" y2="{ypcb+mm(4)}" stroke="#333" marker-start="url(#a)" marker-end="url(#a)"/>')
    o.append(f'<text x="{cx}" y="{ypcb+mm(4)+16}" font-size="12" text-anchor="middle" fill="#333">one square: 25 mm</text>')
    # callouts
    notes = [
        (ytile - mm(6) + 20, "two coins = a king; 19 mm × 3 mm each"),
        (ytile - mm(1.5) - mm(3) + 10, "N42 disc magnet 8 × 1.5 mm, glued flush, S pole down"),
        (ytile - mm(0.2), "printed centring ring (0.4 mm) or paper ring on the tile"),
        (ytile + mm(1.25), "piecepack tile ≈ 2.5 mm"),
        (yb + mm(0.15), "paper template 0.1–0.3 mm: square centres marked"),
        (ys + mm(0.8), "SS49E (TO-92S), branded face up, touching the template"),
        (ypcb + mm(0.8), "perfboard 2.54 mm pitch; 100 nF at each sensor row"),
    ]
    lx = cx + mm(19) + 24
    for y, t in notes:
        o.append(f'<line x1="{cx+mm(4)}" y1="{y}" x2="{lx-6}" y2="{y}" stroke="#999" stroke-width="0.8"/>')
        o.append(f'<text x="{lx}" y="{y+4}" font-size="12" fill="#333">{t}</text>')
    o.append(f'<text x="20" y="{H-40}" font-size="12" fill="#555">Field on the axis at the Hall element (N42, 8 × 1.5 mm): one coin ≈ 660 G, two coins ≈ 900 G (only 1.36×: the upper magnet is 3 mm further away).</text>')
    o.append(f'<text x="20" y="{H-20}" font-size="12" fill="#555">A coin 3 mm off-centre gives ≈ 450 G, and an off-centre king (≈ 630 G) can read below a centred single coin: hence the ring, per-square calibration and the game-state prior.</text>')
    o.append('</svg>')
    return "\n".join(o) + "\n"


open(os.path.join(HW, "squares.svg"), "w").write(squares_svg())
open(os.path.join(HW, "cross-section.svg"), "w").write(cross_section_svg())
print("wrote squares.svg, cross-section.svg")
