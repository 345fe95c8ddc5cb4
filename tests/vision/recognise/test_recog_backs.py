"""Matching back embeddings to a catalogue's designs: nearest design, with unknown and ambiguous answers."""

from __future__ import annotations

import numpy as np
import pytest

from referee.backs import BackDesign, Catalogue
from vision.recognise.backs import BackMatcher, descriptor


class AxisEmbedder:
    """A stand-in embedder over 3-d unit vectors; it renders nothing, so only enrolled designs get prototypes."""

    dimension = 3
    learned_prototypes: dict[str, np.ndarray] = {}  # noqa: RUF012

    def embed(self, crops: np.ndarray) -> np.ndarray:
        return np.zeros((len(crops), 3), np.float32)


def unit(*v: float) -> np.ndarray:
    a = np.array(v, np.float32)
    return a / np.linalg.norm(a)


def enrolled(*designs: tuple[str, list[np.ndarray]]) -> Catalogue:
    return Catalogue(BackDesign(id=i, appearance=tuple(descriptor(v) for v in vs)) for i, vs in designs)


CATALOGUE = enrolled(("alpha", [unit(1, 0, 0), unit(1, 0.2, 0)]), ("beta", [unit(0, 1, 0)]), ("gamma", [unit(0, 0, 1)]))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (unit(1, 0.1, 0), "alpha"),  # near either of alpha's two photos
        (unit(0.1, 1, 0), "beta"),
        (unit(0, 0.2, 1), "gamma"),
        (unit(0, 1, 1), None),  # halfway between beta and gamma: ambiguous, no guess
        (unit(-1, -1, -1), None),  # like nothing in the catalogue: unknown
    ],
)
def test_match_picks_the_nearest_design_or_refuses(query: np.ndarray, expected: str | None) -> None:
    matcher = BackMatcher(CATALOGUE, AxisEmbedder())  # type: ignore[arg-type]
    match = matcher.match_embeddings(query[None])
    assert match.back == (expected,)
    assert (match.confidence[0] > 0) == (expected is not None)


def test_descriptors_of_another_model_size_are_ignored() -> None:
    catalogue = enrolled(("alpha", [unit(1, 0, 0)])).with_design(BackDesign(id="old", appearance=((1.0, 0.0),)))
    matcher = BackMatcher(catalogue, AxisEmbedder())  # type: ignore[arg-type]
    assert matcher.design_ids == ("alpha",)


def test_no_crops_give_an_empty_match() -> None:
    match = BackMatcher(CATALOGUE, AxisEmbedder()).match_embeddings(np.zeros((0, 3), np.float32))  # type: ignore[arg-type]
    assert match.back == () and len(match.similarity) == 0


def test_the_design_that_came_second_is_kept_even_when_the_first_is_refused() -> None:
    matcher = BackMatcher(CATALOGUE, AxisEmbedder())  # type: ignore[arg-type]
    match = matcher.match_embeddings(np.stack([unit(0.1, 1, 0.3), unit(0, 1, 1)]))
    assert match.back[0] == "beta" and match.runner_up[0] == "gamma"
    assert match.back[1] is None and set(match.runner_up[1:]) <= {"beta", "gamma"}


def test_the_runner_up_is_the_likeliest_design_of_another_box_than_the_first() -> None:
    boxed = Catalogue(
        BackDesign(id=i, box=box, appearance=(descriptor(v),))
        for i, box, v in (
            ("green-purple", "green", unit(1, 0, 0)),
            ("green-fuchsia", "green", unit(1, 0.3, 0)),
            ("red-pink", "red", unit(1, 0, 0.5)),
        )
    )
    match = BackMatcher(boxed, AxisEmbedder()).match_embeddings(unit(1, 0.1, 0.05)[None])  # type: ignore[arg-type]
    assert match.runner_up == ("red-pink",)  # not its box-mate green-fuchsia, though that came second
