"""The web service behind ``ligretto serve``: a FastAPI app over the live pipeline and the embedded database.

    from referee.service.main import create_app
    app = create_app(Settings(source="datasets/samples/round.mp4", oracle=True))

Layout (full-stack-fastapi-template style): :mod:`.main` builds the app; one router per resource under
:mod:`.routes`; dependencies as ``Annotated`` aliases in :mod:`.deps`; one :class:`~.settings.Settings`;
request and response schemas in :mod:`.schemas`. :mod:`.live` runs the pipeline in a background thread at
camera rate and fans its events out to WebSocket viewers through :mod:`.hub`. No rule logic lives here: the
referee decides, the score sheet comes from :class:`referee.visitors.ScoreSheetBuilder`.
"""
