"""The recogniser: who each detected card is.

A face's colour and number come from a small CNN over its rectified crop (:mod:`vision.recognise.faces`); a
back's design comes from an embedding CNN compared with the prototypes of a catalogue that users extend by
enrolling photos of their own backs (:mod:`vision.recognise.backs`). :class:`Recogniser` loads both once and
fills the identity fields of a :class:`vision.detections.CardDetections`.

    recogniser = Recogniser(catalogue=Catalogue.load_or_default("ligretto-backs.json"))
    detections = recogniser(image, detector(image))
"""
