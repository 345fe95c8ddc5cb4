from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, File, HTTPException, UploadFile, status
from fastapi.responses import FileResponse

from referee.service.deps import ControlDep, JobsDep, SettingsDep
from referee.service.replays import VIDEO_SUFFIXES, looks_like_video
from referee.service.schemas import ReplayPublic

router = APIRouter(prefix="/api/replays", tags=["replays"])
CHUNK = 1 << 20


async def _save(upload: UploadFile, target: Path, limit_mb: int) -> bytes:
    """Writes the upload to ``target`` (a name chosen here), refusing it past ``limit_mb``; returns its head."""
    limit, size, head = limit_mb << 20, 0, b""
    with target.open("wb") as out:
        while chunk := await upload.read(CHUNK):
            if not head:
                head = chunk[:16]
            size += len(chunk)
            if size > limit:
                raise HTTPException(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, f"{upload.filename}: over {limit_mb} MB")
            out.write(chunk)
    return head


@router.post(
    "",
    response_model=ReplayPublic,
    status_code=status.HTTP_202_ACCEPTED,
    dependencies=[ControlDep],
    summary="Upload a recorded round to replay it (optionally with its ground-truth labels for oracle mode)",
    responses={413: {"description": "file too large"}, 415: {"description": "not a video"}},
)
async def upload_replay(
    settings: SettingsDep,
    jobs: JobsDep,
    video: Annotated[UploadFile, File(description="MP4, MOV, MKV, WebM or AVI")],
    labels: Annotated[UploadFile | None, File(description="optional FILE.frames.jsonl (oracle mode)")] = None,
) -> ReplayPublic:
    suffix = Path(video.filename or "").suffix.lower()
    if suffix not in VIDEO_SUFFIXES:
        raise HTTPException(
            status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, f"not a video file: use {', '.join(VIDEO_SUFFIXES)}"
        )
    job_id, folder = jobs.new_folder()
    try:
        target = folder / f"upload{suffix}"
        if not looks_like_video(await _save(video, target, settings.max_upload_mb)):
            raise HTTPException(status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, "the file does not look like a video")
        truth = None
        if labels is not None and labels.filename:
            truth = folder / "upload.frames.jsonl"
            head = await _save(labels, truth, settings.max_labels_mb)
            if not head.lstrip().startswith(b"{"):
                raise HTTPException(status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, "labels must be JSON Lines (frames.jsonl)")
    except HTTPException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    name = Path(video.filename or "video").name[:80]  # for display only
    return ReplayPublic(**jobs.submit(job_id, folder, target, truth, name).to_json())


@router.get("", response_model=list[ReplayPublic], summary="Replays uploaded since the server started")
def list_replays(jobs: JobsDep) -> list[ReplayPublic]:
    return [ReplayPublic(**j.to_json()) for j in jobs.all()]


@router.get("/{replay_id}", response_model=ReplayPublic, summary="A replay's progress and, when done, its summary")
def read_replay(replay_id: str, jobs: JobsDep) -> ReplayPublic:
    try:
        return ReplayPublic(**jobs.get(replay_id).to_json())
    except KeyError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no replay {replay_id}") from None


@router.get("/{replay_id}/report", summary="The replay's report (HTML)", response_class=FileResponse)
def read_report(replay_id: str, jobs: JobsDep) -> FileResponse:
    try:
        job = jobs.get(replay_id)  # ids are looked up, never joined into a path
    except KeyError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no replay {replay_id}") from None
    if not job.report.is_file():
        raise HTTPException(status.HTTP_404_NOT_FOUND, "the report is not written yet")
    return FileResponse(job.report, media_type="text/html")
