"""The synthetic renderer: card art (faces and backs), table scenes and videos of simulated rounds.

Card art is drawn here from primitives (fonts from installed packages, no downloaded images):
:func:`vision.render.card_art.render_face` and :func:`vision.render.back_art.render_back` return BGRA
cards that the scene renderer warps onto tables. ``python -m vision.render.art_sheet`` redraws the sample
sheet (datasets/samples/card_art.png); ``python -m vision.render.art_bench`` prints the art's speed.
"""
