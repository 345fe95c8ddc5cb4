"""The recogniser's two small CNNs (torch; used only to train and export, inference runs on onnxruntime).

Both read a rectified crop, 96 x 64 BGR, as float pixel values 0..255 (scaling happens inside, so the ONNX
model takes the crop as it comes). The trunk keeps a 6 x 4 spatial map to the end instead of pooling it away:
a 6 and a 9 differ only by WHERE the upright digit sits (upper half) once the card may be turned by 180
degrees, so position must survive to the classifier.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional

FEATURES = 96
EMBEDDING = 64


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Trunk(nn.Module):
    """96x64x3 -> 6x4xFEATURES, about 7 M multiply-adds per crop; strided early because full-resolution layers
    cost most of the time on a CPU and the digits are large."""

    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            _block(3, 16, 2),
            _block(16, 24, 2),
            _block(24, 48, 2),
            _block(48, 48, 1),
            _block(48, FEATURES, 2),
            _block(FEATURES, FEATURES, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x / 127.5 - 1.0)


class FaceNet(nn.Module):
    """Colour (4), number (10) and face-or-back (2) logits of a crop; softmax probabilities when exported.

    The face-or-back head lets enrolment say "that photo shows a face" without the detector, and gives the
    recogniser a second opinion on the detector's kind.
    """

    def __init__(self, probabilities: bool = False) -> None:
        super().__init__()
        self.trunk = Trunk()
        self.hidden = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(FEATURES * 24, 160), nn.ReLU(inplace=True))
        self.colour = nn.Linear(160, 4)
        self.number = nn.Linear(160, 10)
        self.kind = nn.Linear(160, 2)
        self.probabilities = probabilities

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.hidden(self.trunk(x))
        colour, number, kind = self.colour(h), self.number(h), self.kind(h)
        if self.probabilities:
            return functional.softmax(colour, 1), functional.softmax(number, 1), functional.softmax(kind, 1)[:, :1]
        return colour, number, kind


class BackNet(nn.Module):
    """A unit-length embedding of a back crop; crops of one design lie close, different designs apart.

    Trained as a cosine classifier over many random back designs (normalised weights, a margin), so at run
    time any design, also one never seen in training, is recognised by its nearest enrolled prototypes.
    """

    def __init__(self, classes: int = 1) -> None:
        super().__init__()
        self.trunk = Trunk()
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.1), nn.Linear(FEATURES * 24, 128), nn.ReLU(inplace=True))
        self.embed = nn.Linear(128, EMBEDDING)
        self.weights = nn.Parameter(torch.randn(classes, EMBEDDING) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return functional.normalize(self.embed(self.head(self.trunk(x))), dim=1)

    def cosine_logits(self, embedding: torch.Tensor, labels: torch.Tensor, scale: float = 20.0, margin: float = 0.25):
        """CosFace logits: the true class's cosine is lowered by ``margin`` so classes must separate clearly."""
        cosine = embedding @ functional.normalize(self.weights, dim=1).T
        onehot = functional.one_hot(labels, cosine.shape[1]).to(cosine.dtype)
        return scale * (cosine - margin * onehot)
