"""Who am I: the account behind a token or a session."""
from ninja import Router

from accounts.tokens import API_AUTH

router = Router(tags=["account"])


@router.get("/me", auth=API_AUTH)
def me(request):
    return {"username": request.auth.username}
