"""The one exception type the command line turns into a clear, single-line message.

Anything a user can get wrong (a bad card notation, 13 players, an unreadable file) raises a
:class:`LigrettoError` subclass whose message names the problem; the CLI prints it and exits non-zero,
never a traceback.
"""


class LigrettoError(Exception):
    """Base class of every error caused by input a user can fix."""

    exit_code = 2


class NotationError(LigrettoError, ValueError):
    """A card, back or event could not be read from its notation."""


class SetupError(LigrettoError, ValueError):
    """A round or match cannot be set up as asked (player count, duplicate backs...)."""


class CatalogueError(LigrettoError):
    """A back catalogue file is missing, unreadable or malformed."""


class InputFileError(LigrettoError):
    """An input file (image, video, event log) cannot be read."""


class CentreError(LigrettoError, ValueError):
    """An action does not fit the centre as it stands (unknown stack, nothing to take back, a log that
    contradicts the rules)."""


class ScoringError(LigrettoError, ValueError):
    """Counts or scores that cannot be (out of range, inconsistent), or a round scored after the match ended."""
