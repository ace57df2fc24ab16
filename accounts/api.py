"""Who am I: the account behind a token or a session."""
from ninja import Router

from accounts.schemas import MeOut
from accounts.tokens import API_AUTH
from common.schemas import errors
from common.types import ApiRequest

router = Router(tags=["account"])


@router.get("/me", response={200: MeOut, **errors(401)}, auth=API_AUTH)
def me(request: ApiRequest) -> dict[str, str]:
    return {"username": request.auth.username}
