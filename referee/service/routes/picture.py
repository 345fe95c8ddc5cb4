from __future__ import annotations

from fastapi import APIRouter, Response, status

from referee.service.deps import TableDep

router = APIRouter(prefix="/api", tags=["picture"])


@router.get(
    "/picture.jpg",
    summary="The live picture with the referee's overlays (JPEG); 204 until the first frame",
    responses={200: {"content": {"image/jpeg": {}}}, 204: {"description": "no picture yet"}},
    response_class=Response,
)
def live_picture(table: TableDep) -> Response:
    data = table.picture()
    if data is None:
        return Response(status_code=status.HTTP_204_NO_CONTENT)
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})
