"""Ligretto Referee vision: frame sources, table geometry, card detection and recognition, rendering.

Pixels stop here: the referee core receives plain sightings, never an image. This package may import
the referee's card vocabulary (``referee.cards``, ``referee.backs``) and nothing else of it.
"""
