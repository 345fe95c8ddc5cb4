from __future__ import annotations

from fastapi import APIRouter

from referee.backs import BackDesign, Catalogue
from referee.service.deps import ControlDep, SettingsDep, StoreDep, TableDep
from referee.service.enrolment import enrol_from_frame
from referee.service.schemas import BackPublic, EnrolCreate, EnrolPublic

router = APIRouter(prefix="/api/backs", tags=["backs"])


def back_public(design: BackDesign) -> BackPublic:
    return BackPublic(
        id=design.id,
        label=design.label,
        box=design.box,
        symbol=design.symbol,
        lettering=design.lettering,
        enrolled=design.enrolled,
    )


@router.get("", response_model=list[BackPublic], summary="The backs the referee knows: the catalogue and enrolled ones")
def list_backs(settings: SettingsDep, store: StoreDep) -> list[BackPublic]:
    catalogue = Catalogue.load_or_default(settings.catalogue_path if settings.catalogue_path.is_file() else None)
    for data in store.backs().values():
        catalogue = catalogue.with_design(BackDesign.from_json(data))
    return [back_public(d) for d in catalogue]


@router.post(
    "/enrol",
    response_model=EnrolPublic,
    dependencies=[ControlDep],
    summary="Enrol a back: the card held to the camera now is learned under this name",
    responses={400: {"description": "no picture, no card, several cards or a face in view"}},
)
def enrol_back(body: EnrolCreate, settings: SettingsDep, store: StoreDep, table: TableDep) -> EnrolPublic:
    enrolment = enrol_from_frame(table.latest_frame(), body.name, settings.catalogue_path)
    store.save_back(enrolment.design.id, enrolment.design.to_json())
    nearest = list(enrolment.nearest_other) if enrolment.nearest_other is not None else None
    return EnrolPublic(
        back=back_public(enrolment.design), consistency=round(enrolment.consistency, 4), nearest_other=nearest
    )
