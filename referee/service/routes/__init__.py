"""One router per resource; :data:`ROUTERS` is what :func:`referee.service.main.create_app` mounts."""

from referee.service.routes import backs, events, export, health, picture, players, replays, rounds, sessions, state

ROUTERS = tuple(m.router for m in (health, state, picture, rounds, events, sessions, players, backs, replays, export))
